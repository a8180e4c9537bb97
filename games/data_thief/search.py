"""What the strong bot (``games.engine.search``) needs of Data Thief.

- ``determinise(view, rng)``: a full state, as ``to_json`` data, that one seat's view
  could have come from; the cards the seat cannot see are dealt at random.
- ``rollout_action(state, seat, legal, rng)``: the friendly bot's move for the
  playouts, from that seat's view (the thief never peeks at a face-down measure).
- ``evaluate(state)``: each seat's chance of winning, guessed from the points and the
  rounds left, when a playout stops before the end.

The rules module wires them into the ``Game`` hooks of the same names.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from games.data_thief.bots import HeuristicBot
from games.data_thief.cards import GENERAL, KIND, NATURES, THIEF_CARDS, fits

if TYPE_CHECKING:
    from collections.abc import Callable

    from games.data_thief.rules import State
    from games.engine.rng import RandomSource

# The evaluation's spread: a softmax over the points, this many points per round left
# (a thief takes about a card a turn; a manager lays about one).
SPREAD_PER_ROUND = 4.0
SPREAD_AT_END = 2.0


def determinise(view: dict, rng: RandomSource, options: dict) -> dict:
    """Return ``to_json`` data of a state whose view for ``view["seat"]`` is ``view``.

    The unseen general cards (the other managers' hands and face-down measures, the
    general pile) and the unseen attack cards (the thief's hand and pile, unless the
    seat is the thief) are shuffled with ``rng`` into the unseen places, with the
    counts the view shows. A face-down measure is drawn among the measures that fit its
    board (the rules lay nothing else there).
    """
    me, n, thief = view["seat"], view["num_players"], view["thief"]
    players = view["players"]
    seen = set(view["discard"]) | set(view["thief_discard"]) | set(view["loot"])
    seen.update(view["hand"])
    window = view["window"]
    if window and window.get("attack"):
        seen.add(window["attack"])
    revealed = []
    for p in players:
        seen.update(p["proofs"])
        for nature in NATURES:
            for entry in p["boards"][nature]:
                if "card" in entry:
                    seen.add(entry["card"])
                    if entry["kind"] == "measure" and not entry["face_down"]:
                        revealed.append(entry["card"])
    general = [c for c in GENERAL if c not in seen]
    attacks = [c for c in THIEF_CARDS if c not in seen]
    rng.shuffle(general)
    rng.shuffle(attacks)

    boards = []
    for p in players:
        seat_boards = {}
        for nature in NATURES:
            cards = []
            for entry in p["boards"][nature]:
                if "card" in entry:
                    cards.append(entry["card"])
                else:
                    cards.append(_take(general, lambda c, nat=nature: _measure_for(c, nat)))
            seat_boards[nature] = cards
        boards.append(seat_boards)
    hands = [None] * n
    hands[me] = list(view["hand"])
    for p in players:
        s = p["seat"]
        if s == me:
            continue
        pool = attacks if s == thief else general
        hands[s] = [pool.pop() for _ in range(p["hand_count"])]
    if len(general) != view["deck_count"] or len(attacks) != view["thief_deck_count"]:
        raise ValueError("the view's card counts do not add up to the card set")
    serial = int(window["id"][1:]) if window else view["ply"]
    return {
        "game": view["game"],
        "format": 1,
        "num_players": n,
        "rng": str(rng.getrandbits(64)),
        "variant": view["variant"],
        "seed": 0,
        "options": {**options, "rounds": view["rounds"]},
        "rounds": view["rounds"],
        "thief": thief,
        "deck": general,
        "thief_deck": attacks,
        "discard": list(view["discard"]),
        "thief_discard": list(view["thief_discard"]),
        "loot": list(view["loot"]),
        "hands": hands,
        "boards": boards,
        "revealed": revealed,
        "proofs": [list(p["proofs"]) for p in players],
        "skips": [p["skips"] for p in players],
        "successes": view["scores"][thief]["attacks"],
        "round": view["round"],
        "turn": view["turn"],
        "window": dict(window) if window else None,
        "serial": serial,
        "over": view["over"],
        "ply": view["ply"],
        "last_events": [],
    }


def _measure_for(card: str, nature: str) -> bool:
    """Tell whether ``card`` is a measure that may lie face down on a ``nature`` board."""
    return KIND[card] == "measure" and fits(card, nature)


def _take(pool: list, allowed: Callable[..., bool]) -> str:
    """Remove and return the last card of ``pool`` that is ``allowed`` (any if none is:
    a view the rules cannot produce). ``allowed`` takes a card (a lambda may bind more
    arguments by default)."""
    for i in range(len(pool) - 1, -1, -1):
        if allowed(pool[i]):
            return pool.pop(i)
    return pool.pop()


# ------------------------------------------------------------------ playouts

_FRIENDLY = HeuristicBot()


def rollout_action(state: State, seat: int, legal: list[dict], rng: RandomSource) -> dict:
    """Return the friendly bot's move for ``seat``, from that seat's view of the state
    (the thief never peeks at a face-down measure; the game is short, views are cheap)."""
    if len(legal) == 1:
        return legal[0]
    return _FRIENDLY.choose(state.view(seat), legal, rng)


# ---------------------------------------------------------------- evaluation


def evaluate(state: State) -> list[float]:
    """Return each seat's chance of winning: exact at the end, guessed before it (a
    softmax over the points, the wider the more rounds are left)."""
    n = state.n
    if state.over:  # result() is a dict once over (a check would cost every playout)
        winners = state.result()["winners"]  # type: ignore[index]
        return [1 / len(winners) if s in winners else 0.0 for s in range(n)]
    points = [score["points"] for score in state.scores()]
    spread = SPREAD_AT_END + SPREAD_PER_ROUND * max(0, state.rounds - state.round)
    top = max(points)
    odds = [math.exp((p - top) / spread) for p in points]
    total = sum(odds)
    return [o / total for o in odds]
