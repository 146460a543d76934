/* The replay page's keyboard: each key follows one of the page's own links, so that
   everything the keys do can also be done by clicking (or without JavaScript at all).

     ← →        one step back / on (in a what-if line: take back / the solver's move)
     Home End   the deal / the end of the hand (in a what-if line: the start / let the solver finish)
     b m i g    the next blunder / mistake / inaccuracy / good play, of any seat

   Also: the mark of the current step in the move lists and the swing after a step, which
   swaps the board alone; and the optional four-colour deck, remembered in this browser. */
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
    g: "good",
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

  // A step swaps the board alone (replay.html's board_swap): the move lists and the swing
  // stay on the page, and their mark of the current step moves here, as the server draws
  // it on a whole page (on the main line only; in a what-if line no move is current).
  function setCurrent(element, on) {
    if (on) {
      element.setAttribute("aria-current", "step");
    } else {
      element.removeAttribute("aria-current");
    }
  }
  function markCurrentStep() {
    var replay = document.getElementById("replay");
    var board = document.getElementById("replay-board");
    if (!replay || !board) {
      return;
    }
    var step = board.dataset.step;
    var main = board.dataset.main === "true";
    replay.dataset.step = step;
    replay.querySelectorAll(".move[data-step]").forEach(function (item) {
      var current = main && item.dataset.step === step;
      item.classList.toggle("move--current", current);
      var link = item.querySelector("a");
      if (link) {
        setCurrent(link, current);
      }
    });
    replay.querySelectorAll("tr[data-step]").forEach(function (row) {
      row.classList.toggle("swing-table__current", main && row.dataset.step === step);
    });
    replay.querySelectorAll(".chart a[data-step]").forEach(function (link) {
      setCurrent(link, main && link.dataset.step === step);
    });
  }
  // On the swap itself, not after the settle delay: the lists never show another step
  // than the board beside them.
  document.addEventListener("htmx:afterSwap", markCurrentStep);

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
