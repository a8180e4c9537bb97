// The launch form lists each game's own options and variants; show only the chosen game's.
// Without this script every game's options stay listed, each in its own fieldset, every
// game's variants stay in the Variant list (one group a game), and the server keeps only
// the chosen game's options and refuses another game's variant.
document.addEventListener("DOMContentLoaded", function () {
  var game = document.getElementById("id_game");
  if (!game) return;
  var variant = document.getElementById("id_variant");
  // Each game's group of variants (its options name the game: data-game), taken out of
  // the list and put back when its game is chosen: a hidden <option> still shows in some
  // browsers' lists (Safari on iOS).
  var groups = [];
  if (variant) {
    variant.querySelectorAll("optgroup").forEach(function (group) {
      var option = group.querySelector("option[data-game]");
      groups.push({ group: group, game: option ? option.getAttribute("data-game") : "" });
    });
  }
  function showVariants() {
    var chosen = variant.value;
    groups.forEach(function (item) {
      var mine = item.game === game.value;
      if (mine && !item.group.parentNode) variant.appendChild(item.group);
      if (!mine && item.group.parentNode) item.group.parentNode.removeChild(item.group);
    });
    // The same variant of the chosen game if it has one ("standard"), else its default.
    variant.value = chosen;
    if (variant.selectedIndex < 0) variant.value = "";
  }
  function showChosen() {
    document.querySelectorAll("details.game-options[data-game], details.variant-help[data-game]").forEach(function (box) {
      box.hidden = box.getAttribute("data-game") !== game.value;
    });
    if (variant && groups.length) showVariants();
  }
  game.addEventListener("change", showChosen);
  showChosen();
});
