"""Data Thief bots: they see one seat's view and its legal actions, never the state.

The heuristic manager lays data where a measure protects it, lays a measure on its
richest unprotected board, keeps the measures in hand that may counter, and always
counters. The heuristic thief attacks the richest board where no revealed measure
stops the attack, fewer face-down measures first, and steals the most valuable data.
"""

from __future__ import annotations

from games.data_thief.cards import BY_ID, stops
from games.engine.bots import RandomBot, ScoringBot

__all__ = ["HeuristicBot", "RandomBot"]

COUNTER = 1000  # countering saves the data and is worth 10 points
CERTAIN_FAILURE = -500  # an attack a revealed measure on the board stops
HIDDEN_RISK = 0.35  # how likely the thief thinks one face-down measure stops its attack
SKIP_VALUE = 12  # what a missed turn of a manager is worth to the thief, per turn


class HeuristicBot(ScoringBot):
    """Play greedily from the seat's view, as a data manager or as the thief."""

    name = "heuristic"
    level = "friendly"

    def context(self, view: dict) -> _Context:
        """Return what the heuristic derives once from ``view`` to score each action."""
        return _Context(view)


class _Context:
    """What the heuristic derives once from a view to score each action."""

    def __init__(self, view: dict) -> None:
        self.me = view["seat"]
        self.hand = list(view["hand"])
        self.players = view["players"]
        self.window = view["window"]
        self.boards = self.players[self.me]["boards"]

    def score(self, a: dict) -> float:
        """Return the value of action ``a``."""
        kind = a["type"]
        if kind == "counter":
            return COUNTER
        if kind == "accept":
            return 0
        if kind == "steal":
            return self.steal_score(a)
        if kind == "attack":
            return self.attack_score(a)
        if kind == "lay":
            return self.lay_score(a)
        return -self.keep(a["card"])  # discard what is least worth keeping

    # --------------------------------------------------------------- manager

    def protected(self, board: str) -> list[dict]:
        """Return the measures (ids or backs) on one of my boards."""
        return [e for e in self.boards[board] if e["kind"] == "measure"]

    def board_points(self, entries: list[dict]) -> int:
        """Return the points of the visible data on a board."""
        return sum(BY_ID[e["card"]]["points"] for e in entries if e["kind"] == "data")

    def lay_score(self, a: dict) -> int:
        """Lay data where it is protected; a measure on the richest board without one."""
        card, board = BY_ID[a["card"]], a["board"]
        entries = self.boards[board]
        if card["kind"] == "data":
            score = card["points"] + (15 if self.protected(board) else 0)
            # keep a free slot for a measure on a board holding data but none yet
            if len(entries) == 2 and not self.protected(board):
                score -= 20
            return score
        kinds = {BY_ID[e["card"]]["measure"] for e in self.protected(board)}
        if card["measure"] in kinds:
            return 1
        return 10 + self.board_points(entries) - 8 * len(kinds)

    def keep(self, card_id: str) -> int:
        """Return what a card in the hand is worth keeping (measures counter from there)."""
        card = BY_ID[card_id]
        if card["kind"] == "measure":
            return 25
        if card["kind"] == "data":
            return card["points"]
        return card["steals"] * 10 + card["skips"] * SKIP_VALUE  # the thief's attacks

    # ----------------------------------------------------------------- thief

    def attack_score(self, a: dict) -> float:
        """Rich boards first, never one with a revealed stopping measure, few backs."""
        entries = self.players[a["target"]]["boards"][a["board"]]
        if any(
            not e["face_down"] and e["kind"] == "measure" and stops(e["card"], a["card"])
            for e in entries
        ):
            return CERTAIN_FAILURE
        backs = sum(1 for e in entries if e["face_down"])
        chance = (1 - HIDDEN_RISK) ** backs
        attack = BY_ID[a["card"]]
        data = sorted(
            (BY_ID[e["card"]]["points"] for e in entries if e["kind"] == "data"), reverse=True
        )
        gain = sum(data[: attack["steals"]]) or attack["skips"] * SKIP_VALUE
        return chance * gain

    def steal_score(self, a: dict) -> int:
        """Take the most valuable data (experts: the richest category)."""
        w = self.window
        entries = self.players[w["target"]]["boards"][w["board"]]
        if "category" in a:
            return sum(
                BY_ID[e["card"]]["points"]
                for e in entries
                if e["kind"] == "data" and BY_ID[e["card"]]["category"] == a["category"]
            )
        return BY_ID[a["card"]]["points"]
