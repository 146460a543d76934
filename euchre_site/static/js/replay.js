/* The replay page's keyboard: each key follows one of the page's own links, so that
   everything the keys do can also be done by clicking (or without JavaScript at all).

     ← →        one step back / on (in a what-if line: take back / the solver's move)
     Home End   the deal / the end of the hand (in a what-if line: the start / let the solver finish)
     b m i      the seen-from seat's next blunder / mistake / inaccuracy

   Also: the optional four-colour deck, remembered in this browser. */
(function () {
  "use strict";

  var KEYS = {
    ArrowLeft: "prev",
    ArrowRight: "next",
    Home: "first",
    End: "last",
    b: "blunder",
    m: "mistake",
    i: "inaccuracy",
  };

  function announce(text) {
    var region = document.getElementById("replay-announce");
    if (region) {
      region.textContent = text;
    }
  }

  function typing(target) {
    if (!target || !target.closest) {
      return false;
    }
    return Boolean(target.closest("input, textarea, select, [contenteditable=''], [contenteditable='true']"));
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) {
      return;
    }
    var key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    var name = KEYS[key];
    var replay = document.getElementById("replay");
    if (!name || !replay) {
      return;
    }
    event.preventDefault();
    var link = replay.querySelector('a[data-key="' + name + '"]');
    if (link) {
      link.click();
    } else if (replay.dataset["none" + name.charAt(0).toUpperCase() + name.slice(1)]) {
      announce(replay.dataset["none" + name.charAt(0).toUpperCase() + name.slice(1)]);
    }
  });

  // After a step, keep the keyboard where it was: on the same control when it is still
  // there, else on the replay itself (never lost on the body).
  var lastKey = null;
  document.addEventListener("htmx:beforeRequest", function () {
    var active = document.activeElement;
    lastKey = active && active.dataset ? active.dataset.key || null : null;
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var replay = document.getElementById("replay");
    if (!replay || !replay.contains(event.target) && event.target !== replay) {
      return;
    }
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) {
      return;
    }
    var again = lastKey ? replay.querySelector('a[data-key="' + lastKey + '"]') : null;
    (again || replay).focus({ preventScroll: true });
  });

  // The four-colour deck: diamonds blue and clubs green, on top of the suit symbols.
  var STORE = "euchre-four-colour";
  function setDeck(on) {
    document.documentElement.classList.toggle("four-colour", on);
  }
  try {
    setDeck(window.localStorage.getItem(STORE) === "1");
  } catch (error) {
    /* storage may be unavailable: the deck stays two-colour */
  }
  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("four-colour");
    if (!box) {
      return;
    }
    box.checked = document.documentElement.classList.contains("four-colour");
    box.closest(".deck-toggle").hidden = false;
    box.addEventListener("change", function () {
      setDeck(box.checked);
      try {
        window.localStorage.setItem(STORE, box.checked ? "1" : "0");
      } catch (error) {
        /* not remembered, still applied */
      }
    });
  });
})();
