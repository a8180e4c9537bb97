"""Data-Tycoon bots: they see one seat's view and its legal actions, never the state."""

from games.data_tycoon.cards import COLOUR, KIND, SENSITIVE
from games.engine.bots import RandomBot, ScoringBot

__all__ = ["HeuristicBot", "RandomBot"]

# Fixed preferences of the heuristic bot, by action type (higher is better).
CALL_SCORE = 1000  # always call DATA! and DATABREACH!
COUNTER_SCORE = 500  # always counter an attack when possible
BUILD_SCORE = 300  # build a treasure as soon as possible
SPLIT_SCORE = 290
KEEP_PURPOSE = 60
SET_ASIDE = {
    "lawyer": 14,
    "cybersecurity": 14,
    "consent": 13,
    "minimization": 10,
    "time": 10,
    "transparency": 12,
}


class HeuristicBot(ScoringBot):
    """Play greedily: call, counter, build, capture sensitive cards, hit the leader."""

    name = "heuristic"
    level = "friendly"

    def context(self, view):
        """Return what the heuristic derives once from ``view`` to score each action."""
        return _Context(view)


class _Context:
    """What the heuristic derives once from a view to score each action."""

    def __init__(self, view):
        self.view = view
        self.me = view["seat"]
        players = view["players"]
        mine = players[self.me]
        self.collection = mine["collection"]
        self.colour_count = {}
        self.sensitive_count = 0
        for c in self.collection:
            self.colour_count[COLOUR[c]] = self.colour_count.get(COLOUR[c], 0) + 1
            self.sensitive_count += SENSITIVE[c]
        self.players = players
        scores = view["scores"]
        self.strength = {
            sc["seat"]: sc["treasures"] * 20 + sc["sensitive"] + sc["datasets"] * 0.5
            for sc in scores
        }
        others = [s for s in self.strength if s != self.me]
        self.leader = max(others, key=lambda s: self.strength[s]) if others else None

    def progress(self, card):
        """Return how much owning ``card`` brings me closer to a treasure."""
        best = self.colour_count.get(COLOUR[card], 0)
        if SENSITIVE[card]:
            best = max(best, self.sensitive_count)
        return min(best, 5) + 2 * SENSITIVE[card]

    def target_bonus(self, target):
        """Return a bonus for hitting ``target`` (the leader most of all)."""
        return 10 if target == self.leader else 0

    def score(self, a):
        """Return the value of action ``a``."""
        kind = a["type"]
        if kind in ("call_data", "call_databreach"):
            return CALL_SCORE
        if kind == "counter":
            return COUNTER_SCORE
        if kind in ("accept", "end_turn"):
            return 0
        if kind == "build":
            return BUILD_SCORE + (1 if a["basis"] != "sensitive" else 0)
        if kind == "split":
            return SPLIT_SCORE
        if kind == "freeze":
            c = a["card"]
            return -self.colour_count.get(COLOUR[c], 0) - 3 * SENSITIVE[c]
        if kind == "lose":
            return 10 if a["what"] == "datasets" else 0
        if kind == "play":
            c = a["card"]
            if "capture" in a:
                t = a["capture"]
                return 30 + 6 * (SENSITIVE[c] + SENSITIVE[t]) + self.progress(c) + self.progress(t)
            return -10 - 3 * SENSITIVE[c] - self.progress(c)
        if kind == "keep":
            return KEEP_PURPOSE if KIND[a["card"]] == "purpose" else 20
        if kind == "set_aside":
            return SET_ASIDE.get(KIND[a["card"]], 5)
        if kind == "discard":
            return -5
        return self.attack_score(a)

    def attack_score(self, a):
        """Return the value of attacking ``a["target"]`` with ``a["card"]``."""
        target = self.players[a["target"]]
        card_kind = KIND[a["card"]]
        loose = len(target["collection"]) + len(target["frozen"])
        bonus = self.target_bonus(a["target"])
        if card_kind == "sanction":
            return 100 * len(target["treasures"]) + bonus
        if card_kind == "minimization":
            return 6 * loose + bonus
        if card_kind == "complaint":
            return 25 + bonus
        if card_kind == "time":
            return 20 + 10 * len(target["treasures"]) + bonus
        if card_kind == "purpose":
            # Freezing is worth it only when I cannot use the purpose myself soon.
            return 10 + len(target["collection"]) // 2 + bonus - 2 * len(self.collection) // 3
        return 4 + bonus  # transparency
