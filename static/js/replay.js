/* The replay's folded zones (a deck, face down) stay as the teacher left them from move
 * to move: each move swaps the page's main part in, which would fold them all again. */
(function () {
  "use strict";
  let unfolded = new Set();
  document.addEventListener("htmx:beforeSwap", () => {
    unfolded = new Set(
      Array.from(document.querySelectorAll("details[data-fold]"))
        .filter((zone) => zone.open)
        .map((zone) => zone.dataset.fold),
    );
  });
  document.addEventListener("htmx:afterSwap", () => {
    document.querySelectorAll("details[data-fold]").forEach((zone) => {
      zone.open = unfolded.has(zone.dataset.fold);
    });
  });
})();
