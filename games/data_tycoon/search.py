"""What the strong bot (``games.engine.search``) needs of Data-Tycoon.

- ``determinise(view, rng)``: a full state, as ``to_json`` data, that one seat's view
  could have come from; the cards the seat cannot see are dealt at random.
- ``rollout_action(state, seat, legal, rng)``: a quick, greedy guess of a move, for
  the playouts (every seat is expected to play about as the friendly bot does).
- ``evaluate(state)``: each seat's chance of winning, guessed from treasures built
  and under way, when a playout stops before the end.

The rules module wires them into the ``Game`` hooks of the same names.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from games.data_tycoon.bots import (
    BUILD_SCORE,
    CALL_SCORE,
    KEEP_CONSENT,
    KEEP_PURPOSE,
    SET_ASIDE,
    SPLIT_SCORE,
)
from games.data_tycoon.cards import COLOUR, KIND, SENSITIVE, card_ids

if TYPE_CHECKING:
    from collections.abc import Callable

    from games.data_tycoon.rules import State
    from games.engine.rng import RandomSource

TREASURE_SIZE = 6
UNDECLARED_KINDS = ("purpose", "databreach")  # the cards that must be called when drawn

# The playout policy: the friendly bot's priorities (bots.py), on the state; it always
# counters (cheaper than weighing the counter as the friendly bot does).
COUNTER = 500


def determinise(view: dict, rng: RandomSource, hand_size: int, reserve_kinds: frozenset) -> dict:
    """Return ``to_json`` data of a state whose view for ``view["seat"]`` is ``view``.

    The unseen cards (the variant's deck minus the kinds left out minus every card
    the seat sees) are shuffled with ``rng`` into the unseen places, with the counts
    the view shows. Decisions, since the view cannot tell:
    - a reserve holds only cards that may be set aside;
    - another seat that has not begun a turn since its cards were dealt (it still
      holds a full hand of ``hand_size``, and it is not its turn) has not called yet:
      its Purpose and Databreach cards in hand are undeclared. One that has begun a turn has called:
      it holds no Databreach (a breach leaves the hand at the turn it is called or
      found), and its Purpose cards are declared;
    - nobody else has a hidden breach; only the open window is known (a queue of
      several windows shows its first one only).
    """
    me, n = view["seat"], view["num_players"]
    options = view["options"]
    players = view["players"]
    seen = set(view["table"]) | set(view["pile"])
    seen.update(view["hand"], view["reserve"])
    for p in players:
        seen.update(p["collection"], p["frozen"], p["purposes"], p["consents"])
        seen.update(p.get("hand", ()))
        for tr in p["treasures"]:
            seen.add(tr["label"])
            seen.update(tr["cards"])
    left_out = set(options["left_out"])
    pool = [c for c in card_ids(view["variant"]) if KIND[c] not in left_out and c not in seen]
    rng.shuffle(pool)

    hands, reserves = [None] * n, [None] * n
    undeclared: list[list[str]]
    hidden: list[list[str]]
    undeclared, hidden = [[] for _ in range(n)], [[] for _ in range(n)]
    hands[me], reserves[me] = list(view["hand"]), list(view["reserve"])
    undeclared[me], hidden[me] = list(view["undeclared"]), list(view["hidden_breaches"])
    fresh = {}
    for p in players:
        s = p["seat"]
        if s == me:
            continue
        reserves[s] = _take(pool, p["reserve_count"], lambda c: KIND[c] in reserve_kinds)
        if "hand" in p:
            hands[s] = list(p["hand"])
        fresh[s] = p["hand_count"] >= hand_size and s != view["turn"]
    for s, is_fresh in fresh.items():
        if hands[s] is None and not is_fresh:
            hands[s] = _take(pool, players[s]["hand_count"], lambda c: KIND[c] != "databreach")
    for s, is_fresh in fresh.items():
        if hands[s] is None:
            hands[s] = _take(pool, players[s]["hand_count"], lambda c: True)
        if is_fresh:
            undeclared[s] = [c for c in hands[s] if KIND[c] in UNDECLARED_KINDS]
    if len(pool) != view["deck_count"]:
        raise ValueError("the view's card counts do not add up to the variant's deck")

    window = view["window"]
    ids = [int(t["id"][1:]) for t in view["threats"]]
    if window:
        ids.append(int(window["id"][1:]))
    return {
        "game": view["game"],
        "variant": view["variant"],
        "num_players": n,
        "seed": 0,
        "options": {k: (list(v) if isinstance(v, list) else v) for k, v in options.items()},
        "rng": str(rng.getrandbits(64)),
        "ply": view["ply"],
        "turn": view["turn"],
        "stage": view["stage"],
        "over": view["over"],
        "serial": max(ids, default=0),
        "skips": [p["skips"] for p in players],
        "transparent": [p["transparent_turns"] for p in players],
        "deck": pool,
        "table": list(view["table"]),
        "pile": list(view["pile"]),
        "hands": hands,
        "reserves": reserves,
        "collections": [list(p["collection"]) for p in players],
        "frozen": [list(p["frozen"]) for p in players],
        "purposes": [list(p["purposes"]) for p in players],
        "consents": [list(p["consents"]) for p in players],
        "treasures": [
            [{"label": tr["label"], "cards": list(tr["cards"])} for tr in p["treasures"]]
            for p in players
        ],
        "undeclared": undeclared,
        "hidden": hidden,
        "threats": [dict(t) for t in view["threats"]],
        "windows": [_copy_window(window)] if window else [],
        "last_events": [],
    }


def _take(pool: list, count: int, allowed: Callable[[str], bool]) -> list:
    """Remove and return the first ``count`` cards of ``pool`` that are ``allowed``.

    ``pool`` is shuffled, so these are a uniform draw among the allowed cards; if too
    few are allowed (a view the rules cannot produce), any cards fill the rest.
    """
    taken = [c for c in pool if allowed(c)][:count]
    if len(taken) < count:
        rest = [c for c in pool if c not in taken]
        taken += rest[: count - len(taken)]
    chosen = set(taken)
    pool[:] = [c for c in pool if c not in chosen]
    return taken


def _copy_window(window: dict) -> dict:
    """Return a copy of a window whose lists the state may change."""
    return {k: (list(v) if isinstance(v, list) else v) for k, v in window.items()}


# ------------------------------------------------------------------ playouts


def rollout_action(state: State, seat: int, legal: list[dict], rng: RandomSource) -> dict:
    """Return a greedy move for ``seat``, cheaply (``rng`` breaks ties).

    No random moves: the friendly bot never plays one, and a playout that repeats
    itself on the same deal compares two root actions more sharply."""
    if len(legal) == 1:
        return legal[0]
    scorer = _Scorer(state, seat)
    best, best_score = legal[0], None
    for action in legal:
        score = scorer.score(action) + rng.random() * 0.01
        if best_score is None or score > best_score:
            best, best_score = action, score
    return best


class _Scorer:
    """The friendly bot's priorities, read off the state (no view to build)."""

    def __init__(self, state: State, seat: int) -> None:
        self.state, self.me = state, seat
        self.collection = collection = state.collections[seat]
        self.colours: dict[str, int] = {}
        self.sensitive = 0
        for c in collection:
            self.colours[COLOUR[c]] = self.colours.get(COLOUR[c], 0) + 1
            self.sensitive += SENSITIVE[c]
        self._leader: int | None = -1  # -1: not computed yet

    def leader(self) -> int | None:
        """Return the strongest other seat (computed once, when an attack is scored)."""
        if self._leader == -1:
            st = self.state
            strength = {
                s: 20 * len(st.treasures[s]) + len(st.collections[s]) + len(st.frozen[s])
                for s in range(st.n)
                if s != self.me
            }
            # get on the dict's own keys never gives None: mypy cannot pick its overload
            self._leader = (
                max(strength, key=strength.get)  # type: ignore[arg-type]
                if strength
                else None
            )
        return self._leader

    def progress(self, card: str) -> int:
        """Return how much owning ``card`` brings me closer to a treasure."""
        best = self.colours.get(COLOUR[card], 0)
        if SENSITIVE[card]:
            best = max(best, self.sensitive)
        return min(best, 5) + 2 * SENSITIVE[card]

    def score(self, a: dict) -> int:
        """Return the value of action ``a``."""
        kind = a["type"]
        if kind == "play":
            c = a["card"]
            if "capture" in a:
                t = a["capture"]
                return 30 + 6 * (SENSITIVE[c] + SENSITIVE[t]) + self.progress(c) + self.progress(t)
            return -10 - 3 * SENSITIVE[c] - self.progress(c)
        if kind in ("call_data", "call_databreach"):
            return CALL_SCORE
        if kind == "counter":
            return COUNTER
        if kind == "build":
            return BUILD_SCORE
        if kind == "split":
            return SPLIT_SCORE
        if kind in ("accept", "end_turn"):
            return 0
        if kind == "freeze":
            c = a["card"]
            return -self.colours.get(COLOUR[c], 0) - 3 * SENSITIVE[c]
        if kind == "lose":
            return 10 if a["what"] == "datasets" else 0
        if kind == "keep":
            return KEEP_PURPOSE if KIND[a["card"]] == "purpose" else KEEP_CONSENT
        if kind == "set_aside":
            return SET_ASIDE.get(KIND[a["card"]], 5)
        if kind == "discard":
            return -5
        return self.attack(a)

    def attack(self, a: dict) -> int:
        """Return the value of attacking ``a["target"]`` with ``a["card"]``."""
        st, t = self.state, a["target"]
        kind = KIND[a["card"]]
        bonus = 10 if t == self.leader() else 0
        if kind == "sanction":
            return 100 * len(st.treasures[t]) + bonus
        if kind == "minimization":
            return 6 * (len(st.collections[t]) + len(st.frozen[t])) + bonus
        if kind == "complaint":
            return 25 + bonus
        if kind == "time":
            return 20 + 10 * len(st.treasures[t]) + bonus
        if kind == "purpose":
            return 10 + len(st.collections[t]) // 2 + bonus - 2 * len(self.collection) // 3
        return 4 + bonus  # transparency


# ---------------------------------------------------------------- evaluation

# The evaluation's weights, one per feature of ``features`` (in this order), at three
# moments of the match: the deck full (``left`` = 1), half drawn, empty. A seat's chance
# of winning is the softmax over the seats of ``weights(left) . features``, the weights
# interpolated in between. Fitted by conditional logistic regression on the winners of
# friendly-bot self-play (2 to 4 players, expert): ``python -m games.data_tycoon.fit``.
WEIGHTS = {
    "treasures": (0.120, 0.383, 1.470),
    "best": (-0.025, 0.222, 0.387),
    "best_squared": (-0.027, -0.165, 0.139),
    "purposes_kept": (0.235, 0.567, 0.487),
    "purposes_in_hand": (0.201, 0.382, 0.453),
    "lawyers": (0.283, 0.472, 0.098),
    "cybersecurity": (-0.008, 0.029, 0.025),
    "sanctions": (0.018, 0.263, 0.537),
    "other_attacks": (0.070, 0.025, 0.041),
    "databreaches": (0.092, -0.052, 0.044),
    "consents_left": (0.293, 0.528, 0.496),
    "sensitive_owned": (-0.090, 0.189, 0.673),
    "datasets_owned": (-0.083, 0.120, 0.190),
    "threats_and_skips": (0.060, -0.245, -0.271),
}
ATTACKS = ("complaint", "minimization", "time", "transparency")
PENDING = 0.9  # a treasure that could be built or split now, against one that is
DECK_LEFT = 110  # the expert deck after the table is laid: ``left`` is 1 at the start


def evaluate(state: State) -> list[float]:
    """Return each seat's chance of winning: exact at the end, guessed before it."""
    n = state.n
    if state.over:  # result() is a dict once over (a check would cost every playout)
        winners = state.result()["winners"]  # type: ignore[index]
        return [1 / len(winners) if s in winners else 0.0 for s in range(n)]
    left, seats = snapshot(state)
    weights = _weights(left)
    values = [sum(w * x for w, x in zip(weights, xs, strict=True)) for xs in seats]
    top = max(values)
    odds = [math.exp(v - top) for v in values]
    total = sum(odds)
    return [o / total for o in odds]


def snapshot(state: State) -> tuple[float, list[list[float]]]:
    """Return the share of the deck still to draw and every seat's features."""
    left = min(len(state.deck) / DECK_LEFT, 1.0)
    return left, [features(state, s) for s in range(state.n)]


def _weights(left: float) -> list[float]:
    """Return the weights at ``left`` (the share of the deck still to draw)."""
    if left >= 0.5:
        t = (left - 0.5) * 2
        return [half + t * (full - half) for full, half, _empty in WEIGHTS.values()]
    t = left * 2
    return [empty + t * (half - empty) for _full, half, empty in WEIGHTS.values()]


def features(state: State, s: int) -> list[float]:
    """Return what the evaluation weighs of seat ``s``.

    The treasures a seat could build or split right now count as built: a seat that
    waits for its turn to build must not look richer for its unbuilt cards and its
    unused Purpose than it will once they are a treasure (the search would learn to
    wait). They count a little less (``PENDING``): until built, they can be lost.
    """
    treasures = state.treasures[s]
    simple: dict[str, int]
    sensitive: dict[str, int]
    simple, sensitive = {}, {}
    for c in state.collections[s]:
        counts = sensitive if SENSITIVE[c] else simple
        counts[COLOUR[c]] = counts.get(COLOUR[c], 0) + 1
    kinds = [KIND[c] for c in state.hands[s] + state.reserves[s]]
    purposes = len(state.purposes[s])
    builds = 0
    while purposes and _build(simple, sensitive):
        purposes, builds = purposes - 1, builds + 1
    consents = len(state.consents[s]) + kinds.count("consent")
    splittable = builds + sum(1 for tr in treasures if len(tr["cards"]) >= TREASURE_SIZE)
    splits = min(consents, splittable)
    total = len(treasures) + PENDING * (builds + splits)
    colours = set(simple) | set(sensitive)
    best: float = max(
        [simple.get(k, 0) + sensitive.get(k, 0) for k in colours] + [sum(sensitive.values())]
    )
    best = min(best, TREASURE_SIZE) / TREASURE_SIZE
    owned = [*state.collections[s], *state.frozen[s]]
    owned += [c for tr in treasures for c in tr["cards"]]
    return [
        total,
        best,
        best * best,
        min(purposes, 2),
        min(kinds.count("purpose"), 2),
        min(kinds.count("lawyer"), 2),
        min(kinds.count("cybersecurity"), 1),
        kinds.count("sanction"),
        sum(kinds.count(k) for k in ATTACKS),
        kinds.count("databreach"),
        min(consents - splits, 2),
        sum(SENSITIVE[c] for c in owned) / 10,
        len(owned) / 10,
        sum(1 for t in state.threats if t["seat"] == s) + state.skips[s],
    ]


def _build(simple: dict, sensitive: dict) -> bool:
    """Take the cards of one treasure out of the counts (by colour: simple cards first;
    else 6 sensitive ones, from the smallest colours); return False if none is ready."""
    colour = max(
        set(simple) | set(sensitive),
        key=lambda k: simple.get(k, 0) + sensitive.get(k, 0),
        default=None,
    )
    if colour is not None and simple.get(colour, 0) + sensitive.get(colour, 0) >= TREASURE_SIZE:
        from_simple = min(simple.get(colour, 0), TREASURE_SIZE)
        simple[colour] = simple.get(colour, 0) - from_simple
        sensitive[colour] = sensitive.get(colour, 0) - (TREASURE_SIZE - from_simple)
        return True
    if sum(sensitive.values()) < TREASURE_SIZE:
        return False
    need = TREASURE_SIZE
    for k in sorted(sensitive, key=lambda k: simple.get(k, 0) + sensitive[k]):
        taken = min(sensitive[k], need)
        sensitive[k] -= taken
        need -= taken
    return True
