/* The live table page (templates/tables/table.html): bound here, since the
   Content-Security-Policy forbids inline scripts and handlers.

   - The turn's timer counts down from the server's deadline ([data-deadline], an ISO time):
     the server applies the timeout; this only shows the seconds left.
   - The table fragment asks for itself on every event of the stream (hx-trigger="sse:message")
     and also every few seconds (the polling fallback). While the stream is open, the polls
     are skipped; when it cannot connect (a proxy that buffers, a blocked port), they go on,
     and the page keeps up, more slowly. A poll of an unchanged table is a 204, and nothing is
     swapped. */
(function () {
  "use strict";

  var source = null;

  document.addEventListener("htmx:sseOpen", function (event) {
    source = event.detail && event.detail.source;
    document.documentElement.dataset.tableStream = "open";
  });

  document.addEventListener("htmx:sseError", function () {
    document.documentElement.dataset.tableStream = "closed";
  });

  function streamOpen() {
    return source !== null && source.readyState === 1; /* EventSource.OPEN */
  }

  document.addEventListener("htmx:confirm", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || !elt.hasAttribute || !elt.hasAttribute("data-poll")) {
      return;
    }
    var trigger = event.detail.triggeringEvent;
    var fromStream = trigger && typeof trigger.type === "string" && trigger.type.indexOf("sse:") === 0;
    if (!fromStream && streamOpen()) {
      event.preventDefault(); /* the stream brings the news: no need to poll */
    }
  });

  function tick() {
    var now = Date.now();
    var timers = document.querySelectorAll("[data-deadline]");
    for (var i = 0; i < timers.length; i++) {
      var deadline = Date.parse(timers[i].getAttribute("data-deadline"));
      if (isNaN(deadline)) {
        continue;
      }
      var left = Math.max(0, Math.ceil((deadline - now) / 1000));
      var text = left === 1 ? "1 second" : left + " seconds";
      if (timers[i].textContent !== text) {
        timers[i].textContent = text;
      }
      timers[i].classList.toggle("timer__left--low", left <= 5);
    }
  }

  tick();
  window.setInterval(tick, 250);
  document.addEventListener("htmx:afterSwap", tick);
})();
