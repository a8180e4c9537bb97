"""Conspiranoia bots: they see one seat's view and its legal actions, never the state."""

from __future__ import annotations

from games.conspiranoia.cards import CHARACTER, KIND
from games.engine.bots import RandomBot, ScoringBot

__all__ = ["HeuristicBot", "RandomBot"]

# Fixed preferences of the heuristic bot (higher is better).
KNOCK_OUT = 1000  # an attack that surely takes a player out of the game
DEFEND = 500  # any defence beats taking the whole hit
HEAL_WHEN_LOW = 300  # heal before attacking once life is low
LOW_LIFE = 1 / 3  # "low": at most this share of the starting life points
ATTACK = 50
BLOCK_CHANCE = 0.4  # how much of a blockable attack the bot expects to be absorbed
# What a card in the hand is worth keeping: Defence cards block later in the round,
# another character's Avatar card is of no use to this player.
KEEP = {
    "defence": 8,
    "special_attack": 7,
    "own_avatar": 6,
    "bonus": 5,
    "attack": 4,
    "avatar": 0,
    "dead_avatar": 0,
}
# What a discarded card gives the opponents, who may use it from the table: another
# player's Avatar card doubles its owner's next action (a card of a character nobody
# plays any more gives nothing: "dead_avatar").
GIFT = {
    "defence": 2,
    "special_attack": 5,
    "own_avatar": 0,
    "bonus": 3,
    "attack": 3,
    "avatar": 6,
    "dead_avatar": 0,
}


class HeuristicBot(ScoringBot):
    """Play greedily: knock out, defend, heal when low, hit the weakest with the most points.

    It spends table cards before its own, keeps Defence cards to block, and discards
    what helps the opponents least.
    """

    name = "heuristic"
    level = "friendly"

    def context(self, view: dict) -> _Context:
        """Return what the heuristic derives once from ``view`` to score each action."""
        return _Context(view)


class _Context:
    """What the heuristic derives once from a view to score each action."""

    def __init__(self, view: dict) -> None:
        self.me = view["seat"]
        self.hand = set(view["hand"])
        self.players = view["players"]
        self.character = self.players[self.me]["character"]
        self.max_life = view["life_points"]
        self.window = view["window"]
        self.playing = {p["character"] for p in self.players if p["in_game"]}

    def sort(self, card: str) -> str:
        """Return the heuristic's name for the kind of ``card`` (Avatars: own or not)."""
        kind = KIND[card]
        if kind != "avatar":
            return kind
        if CHARACTER[card] == self.character:
            return "own_avatar"
        return "avatar" if CHARACTER[card] in self.playing else "dead_avatar"

    def keep(self, card: str) -> int:
        """Return what ``card`` is worth keeping in the hand."""
        return KEEP[self.sort(card)]

    def cost(self, cards: list[str]) -> int:
        """Return the cost of spending ``cards``: table cards are free (swept at round end)."""
        return sum(self.keep(c) for c in cards if c in self.hand)

    def score(self, a: dict) -> float:
        """Return the value of action ``a``."""
        kind = a["type"]
        if kind == "defend":
            attack = self.window["points"]
            absorbed = min(a["points"], attack)
            return DEFEND + 10 * absorbed - (a["points"] - absorbed) - self.cost(a["cards"])
        if kind == "heal":
            life = self.players[self.me]["life"]
            if life <= self.max_life * LOW_LIFE:
                return HEAL_WHEN_LOW - self.cost(a["cards"])
            return 20 - self.cost(a["cards"])
        if kind == "discard":
            return 10 - self.keep(a["card"]) - GIFT[self.sort(a["card"])]
        if kind in ("attack", "special_attack"):
            return self.attack_score(a)
        return 0  # choose a character, take a hit

    def attack_score(self, a: dict) -> float:
        """Return the value of attacking ``a["target"]`` for ``a["points"]``."""
        target = self.players[a["target"]]
        points = a["points"]
        blockable = a["type"] == "attack" and target["hand_count"] > 0
        expected = points * (1 - BLOCK_CHANCE) if blockable else points
        score = ATTACK + 10 * expected - self.cost(a["cards"])
        if points >= target["life"]:
            score += KNOCK_OUT / 5 if blockable else KNOCK_OUT
        return score + (self.max_life - target["life"])  # the weakest first
