"""Data Monsters bots: they see one seat's view and its legal actions, never the state."""

from __future__ import annotations

from games.data_monsters.cards import BY_ID, KIND
from games.engine.bots import RandomBot, ScoringBot

__all__ = ["HeuristicBot", "RandomBot"]

# Fixed preferences of the heuristic bot (higher is better).
COMPLETE = 100  # plus the points: a challenge in the hand of the build is never left
LAB = 60  # monsters and equipment help every turn from now on
DRAW = 45  # a card that draws is worth playing first
BUILD = 20  # a tool, when a challenge is within reach of the hand
SAFEGUARD = 70  # a safeguard before an unsafe personal-data completion
INTERRUPT = 10
WASTE = -5  # a tool played with no challenge within reach


class HeuristicBot(ScoringBot):
    """Play greedily: grow the lab, build towards the best challenge within reach of the
    hand, safeguard personal data first, complete the richest challenge, interrupt."""

    name = "heuristic"
    level = "friendly"

    def context(self, view: dict) -> _Context:
        """Return what the heuristic derives once from ``view`` to score each action."""
        return _Context(view)


def _counts(entry: dict, keys: set[str], components: int) -> bool:
    """Tell whether a card of the hand would add its TECH and SCI to this turn's build."""
    words = entry["keywords"]
    if entry["kind"] not in ("tool", "hack") or "global" in words or "interrupt" in words:
        return False
    if "component" in words:
        return components >= 2
    return "stack" not in words or set(entry["recipe"]) <= keys


class _Context:
    """What the heuristic derives once from a view to score each action."""

    def __init__(self, view: dict) -> None:
        self.view = view
        self.hand = view.get("hand", [])
        pool = view["pool"]
        self.lab = view["players"][view["seat"]]["lab"] if view["seat"] is not None else []
        tech = sci = 0
        keys = {BY_ID[c]["key"] for c in self.hand}
        components = sum(1 for c in self.hand if "component" in BY_ID[c]["keywords"])
        for card in self.hand:
            entry = BY_ID[card]
            if not _counts(entry, keys, components):
                continue
            tech, sci = tech + entry["tech"], sci + entry["sci"]
        self.reach = {"tech": pool["tech"] + tech, "sci": pool["sci"] + sci}
        costs = view["costs"]
        self.within = [
            c
            for c in view["market"]
            if costs[c]["tech"] <= self.reach["tech"] and costs[c]["sci"] <= self.reach["sci"]
        ]
        self.unsafe_target = not view["safeguarded"] and any(
            BY_ID[c]["personal"] for c in self.within
        )

    def score(self, action: dict) -> int:
        """Rate one legal action."""
        kind = action["type"]
        if kind == "complete":
            c = action["challenge"]
            entry = BY_ID[c]
            points = entry["points"]
            if entry["personal"] and not self.view["safeguarded"]:
                points -= 3 + (SAFEGUARD if self._safeguard_in_hand() else 0)
            return COMPLETE + points
        if kind == "play":
            return self._play(action["card"])
        if kind == "discard":
            return -self.value(action["card"])
        if kind == "interrupt":
            return INTERRUPT
        return 0  # end_turn, pass

    def value(self, card: str) -> int:
        """Return what a card in the hand is worth keeping (a monster the lab has outgrown
        or already holds is worth nothing)."""
        entry = BY_ID[card]
        if KIND[card] == "monster":
            return 0 if self._outgrown(entry) else 4 + entry["level"]
        if KIND[card] == "equipment":
            return 0 if any(BY_ID[c]["key"] == entry["key"] for c in self.lab) else 4
        return entry["tech"] + entry["sci"] + entry["draw"] + (2 if entry["safeguard"] else 0)

    def _outgrown(self, entry: dict) -> bool:
        """Tell whether the lab already holds this monster's name at its level or higher."""
        here = [c for c in self.lab if BY_ID[c]["monster"] == entry["monster"]]
        return bool(here) and BY_ID[here[0]]["level"] >= entry["level"]

    def _safeguard_in_hand(self):
        return any(BY_ID[c]["safeguard"] and KIND[c] in ("tool", "hack") for c in self.hand)

    def _play(self, card):
        entry = BY_ID[card]
        if KIND[card] == "monster":
            if self._outgrown(entry):
                return WASTE  # never demote nor swap a monster for its twin
            return LAB + entry["level"]
        if KIND[card] == "equipment":
            return LAB
        if entry["safeguard"] and self.unsafe_target:
            return SAFEGUARD
        if "global" in entry["keywords"]:
            easing = entry["global"].get("tech", 0) < 0
            return BUILD + 5 if easing and self.within else 1
        if entry["draw"] and not entry["tech"] and not entry["sci"]:
            return DRAW
        if self.within:
            return BUILD + entry["tech"] + entry["sci"] + entry["draw"]
        return WASTE
