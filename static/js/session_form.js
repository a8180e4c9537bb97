// The launch form lists each game's own options and variants; show only the chosen game's.
// Without this script every game's options stay listed, each in its own fieldset,
// and the server keeps only the chosen game's.
document.addEventListener("DOMContentLoaded", function () {
  var game = document.getElementById("id_game");
  if (!game) return;
  function showChosen() {
    document.querySelectorAll("details.game-options[data-game], details.variant-help[data-game]").forEach(function (box) {
      box.hidden = box.getAttribute("data-game") !== game.value;
    });
  }
  game.addEventListener("change", showChosen);
  showChosen();
});
