/* Small behaviours of every page, bound here rather than in inline handlers, which the
   Content-Security-Policy forbids (euchre_site/settings.py, SECURE_CSP). Listeners sit
   on the document, so controls that htmx swaps in later work too.

     <button data-print>                  prints the page
     <input data-select-on-focus>         selects its whole text when focused (a link to copy)
     <details data-keep-open="NAME">      stays open when htmx swaps in a new copy of it
                                          (the play page's last trick, its hints taken)
     <select data-opens="ID" data-opens-value="V">
                                          opens <details id="ID"> when V is chosen (the
                                          play form's custom rules) */
(function () {
  "use strict";

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (target && target.closest && target.closest("[data-print]")) {
      window.print();
    }
  });

  document.addEventListener("focusin", function (event) {
    var target = event.target;
    if (target && target.matches && target.matches("input[data-select-on-focus]")) {
      target.select();
    }
  });

  var keptOpen = [];

  document.addEventListener("htmx:beforeSwap", function () {
    keptOpen = Array.prototype.map.call(
      document.querySelectorAll("details[data-keep-open][open]"),
      function (details) { return details.getAttribute("data-keep-open"); }
    );
  });

  document.addEventListener("htmx:afterSwap", function () {
    keptOpen.forEach(function (name) {
      document.querySelectorAll("details[data-keep-open]").forEach(function (details) {
        if (details.getAttribute("data-keep-open") === name) {
          details.open = true;
        }
      });
    });
  });

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (!target || !target.matches || !target.matches("select[data-opens]")) {
      return;
    }
    var details = document.getElementById(target.getAttribute("data-opens"));
    if (details && target.value === target.getAttribute("data-opens-value")) {
      details.open = true;
    }
  });
})();
