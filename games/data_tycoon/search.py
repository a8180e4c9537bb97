"""What the strong bot (``games.engine.search``) needs of Data-Tycoon.

- ``determinise(view, rng)``: a full state, as ``to_json`` data, that one seat's view
  could have come from; the cards the seat cannot see are dealt at random.
- ``rollout_action(state, seat, legal, rng)``: a quick, greedy guess of a move, for
  the playouts (every seat is expected to play about as the friendly bot does).
- ``evaluate(state)``: each seat's chance of winning, guessed from treasures built
  and under way, when a playout stops before the end.

The rules module wires them into the ``Game`` hooks of the same names.
"""

import math

from games.data_tycoon.cards import COLOUR, KIND, SENSITIVE, card_ids

TREASURE_SIZE = 6
UNDECLARED_KINDS = ("purpose", "databreach")  # the cards that must be called when drawn

# The playout policy: the friendly bot's priorities (see bots.py), on the state.
CALL, COUNTER, BUILD, SPLIT, KEEP_PURPOSE, KEEP_CONSENT = 1000, 500, 300, 290, 60, 20
SET_ASIDE = {
    "lawyer": 14,
    "cybersecurity": 14,
    "consent": 13,
    "minimization": 10,
    "time": 10,
    "transparency": 12,
}
RANDOM_MOVE = 0.1  # share of playout moves chosen at random, so playouts differ


def determinise(view: dict, rng, hand_size: int, reserve_kinds: frozenset) -> dict:
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


def _take(pool: list, count: int, allowed) -> list:
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


def rollout_action(state, seat: int, legal: list[dict], rng) -> dict:
    """Return a greedy move for ``seat`` (now and then a random one), cheaply."""
    if len(legal) == 1:
        return legal[0]
    if rng.random() < RANDOM_MOVE:
        return legal[rng.randrange(len(legal))]
    scorer = _Scorer(state, seat)
    best, best_score = legal[0], None
    for action in legal:
        score = scorer.score(action) + rng.random() * 0.01
        if best_score is None or score > best_score:
            best, best_score = action, score
    return best


class _Scorer:
    """The friendly bot's priorities, read off the state (no view to build)."""

    def __init__(self, state, seat):
        self.state, self.me = state, seat
        self.collection = collection = state.collections[seat]
        self.colours = {}
        self.sensitive = 0
        for c in collection:
            self.colours[COLOUR[c]] = self.colours.get(COLOUR[c], 0) + 1
            self.sensitive += SENSITIVE[c]
        self._leader = -1

    def leader(self):
        """Return the strongest other seat (computed once, when an attack is scored)."""
        if self._leader == -1:
            st = self.state
            strength = {
                s: 20 * len(st.treasures[s]) + len(st.collections[s]) + len(st.frozen[s])
                for s in range(st.n)
                if s != self.me
            }
            self._leader = max(strength, key=strength.get) if strength else None
        return self._leader

    def progress(self, card):
        """Return how much owning ``card`` brings me closer to a treasure."""
        best = self.colours.get(COLOUR[card], 0)
        if SENSITIVE[card]:
            best = max(best, self.sensitive)
        return min(best, 5) + 2 * SENSITIVE[card]

    def score(self, a):
        """Return the value of action ``a``."""
        kind = a["type"]
        if kind == "play":
            c = a["card"]
            if "capture" in a:
                t = a["capture"]
                return 30 + 6 * (SENSITIVE[c] + SENSITIVE[t]) + self.progress(c) + self.progress(t)
            return -10 - 3 * SENSITIVE[c] - self.progress(c)
        if kind in ("call_data", "call_databreach"):
            return CALL
        if kind == "counter":
            return COUNTER
        if kind == "build":
            return BUILD
        if kind == "split":
            return SPLIT
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

    def attack(self, a):
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

# The evaluation's weights, one per feature of ``features``: a seat's chance of winning
# is the softmax over the seats of ``(BASE + left * EARLY) . features``, ``left`` the
# share of the deck still to draw. Fitted by conditional logistic regression on the
# final winners of heuristic self-play (4 players, expert): see ``fit.py``.
BASE = (
    1.428,
    0.565,
    0.705,
    -0.143,
    0.425,
    0.536,
    0.388,
    -0.218,
    0.211,
    0.028,
    0.113,
    0.044,
    1.132,
    0.197,
    0.000,
    0.037,
    -0.248,
)
EARLY = (
    -2.020,
    -0.006,
    -0.063,
    -0.486,
    -0.292,
    -0.126,
    0.018,
    0.655,
    0.122,
    -0.071,
    -0.169,
    -0.015,
    -0.907,
    -0.698,
    0.000,
    0.034,
    -0.047,
)
ATTACKS = ("complaint", "minimization", "time", "transparency")
DECK_LEFT = 110  # the expert deck after the table is laid: ``left`` is 1 at the start


def evaluate(state) -> list[float]:
    """Return each seat's chance of winning: exact at the end, guessed before it."""
    n = state.n
    if state.over:
        winners = state.result()["winners"]
        return [1 / len(winners) if s in winners else 0.0 for s in range(n)]
    left = len(state.deck) / DECK_LEFT
    weights = [b + left * e for b, e in zip(BASE, EARLY, strict=True)]
    values = [
        sum(w * x for w, x in zip(weights, features(state, s), strict=True)) for s in range(n)
    ]
    top = max(values)
    odds = [math.exp(v - top) for v in values]
    total = sum(odds)
    return [o / total for o in odds]


def features(state, s) -> list[float]:
    """Return what the evaluation weighs of seat ``s``: treasures built and under way,
    the cards held to build, defend and attack, and the tie-breaks."""
    treasures = state.treasures[s]
    collection = state.collections[s]
    colours = {}
    sensitive = 0
    for c in collection:
        colours[COLOUR[c]] = colours.get(COLOUR[c], 0) + 1
        sensitive += SENSITIVE[c]
    best = min(max(max(colours.values(), default=0), sensitive), TREASURE_SIZE) / TREASURE_SIZE
    kinds = [KIND[c] for c in state.hands[s] + state.reserves[s]]
    kept = len(state.purposes[s])
    splittable = sum(1 for tr in treasures if len(tr["cards"]) >= TREASURE_SIZE)
    consents = len(state.consents[s]) + kinds.count("consent")
    owned_sensitive = sensitive + sum(SENSITIVE[c] for c in state.frozen[s])
    owned = len(collection) + len(state.frozen[s])
    for tr in treasures:
        owned_sensitive += sum(SENSITIVE[c] for c in tr["cards"])
        owned += len(tr["cards"])
    return [
        len(treasures),
        min(consents, splittable),
        best,
        best * best,
        1.0 if best >= 1 and kept else 0.0,
        min(kept, 2),
        min(kinds.count("purpose"), 2),
        1.0 if treasures and "lawyer" in kinds else 0.0,
        min(kinds.count("lawyer"), 2),
        min(kinds.count("cybersecurity"), 1),
        kinds.count("sanction"),
        sum(kinds.count(k) for k in ATTACKS),
        owned_sensitive / 10,
        owned / 10,
        len(state.frozen[s]) / TREASURE_SIZE,
        state.skips[s],
        sum(1 for t in state.threats if t["seat"] == s),
    ]
