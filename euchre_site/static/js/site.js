/* Small behaviours of every page, bound here rather than in inline handlers, which the
   Content-Security-Policy forbids (euchre_site/settings.py, SECURE_CSP). Listeners sit
   on the document, so controls that htmx swaps in later work too.

     <button data-print>                  prints the page
     <input data-select-on-focus>         selects its whole text when focused (a link to copy) */
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
})();
