"""What the strong bot (``games.engine.search``) needs of Data Monsters.

- ``determinise(view, rng, ...)``: a full state, as ``to_json`` data, that one seat's
  view could have come from; the cards the seat cannot see are dealt at random.
- ``rollout_action(state, seat, legal, rng)``: the friendly bot's move for the
  playouts, from that seat's view.
- ``evaluate(state)``: each seat's chance of winning, guessed from the Big Data points
  and the laboratory, when a playout stops before the end.

The rules module wires them into the ``Game`` hooks of the same names.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from games.data_monsters.bots import HeuristicBot
from games.data_monsters.cards import BASIC, BY_ID, HARD, KIND, LAB_CARDS, deck_ids, starter
from games.engine.search import SearchBot

if TYPE_CHECKING:
    from games.data_monsters.rules import State
    from games.engine.rng import RandomSource

# The evaluation: a softmax over each seat's points plus what its lab is worth, this
# many points wide per challenge still to complete (an open or a hidden one), at least
# SPREAD_AT_END.
SPREAD_PER_CHALLENGE = 0.8
SPREAD_AT_END = 2.0
# A monster or an equipment in the lab helps every turn left: this many points each
# (its level counts for a monster), fewer as the challenges run out.
LAB_WORTH = 0.6


class StrongBot(SearchBot):
    """The shared search with this game's budget: a turn is many small decisions (one
    card at a time), each searched, so each gets fewer playouts, and shorter ones."""

    iterations = 200
    turns = 1


def pile_cards(view: dict, pile: int) -> list[str]:
    """Return every card of laboratory pile ``pile`` (the office game's one shared deck:
    two of each starter set; else the seat's own built deck or starter set, slot
    ``pile + 1``)."""
    if view["variant"] == "office":
        return [c for slot in (1, 2) for st in ("startup", "enterprise") for c in starter(st, slot)]
    player = view["players"][pile]
    if player["set"] == "built":
        keys = [key for key, count in player["deck_list"].items() for _ in range(count)]
        return deck_ids(keys, pile + 1)
    return starter(player["set"], pile + 1)


def built_decks(players: list[dict]) -> dict:
    """Return the built-deck option the view's players show (none: starter sets)."""
    if not all("deck_list" in p for p in players):
        return {}
    decks = [[k for k, count in p["deck_list"].items() for _ in range(count)] for p in players]
    return {"lab_decks": decks}


def determinise(
    view: dict, rng: RandomSource, challenge_deck: tuple[int, int], options: dict
) -> dict:
    """Return ``to_json`` data of a state whose view for ``view["seat"]`` is ``view``.

    ``challenge_deck``: how many basic and hard challenges the match dealt. Each
    laboratory pile's unseen cards (its set minus the labs, the build, the global tools
    and the seat's own hand) are shuffled with ``rng`` into the other hands that draw
    from it, its deck and its recycle bin, with the counts the view shows; the unseen
    challenges of each kind fill the challenge deck, the rest stay in the box.
    Decisions, since the view cannot tell: the recycle bins hold any unseen cards (a
    seat that remembers what went in publicly would know more), and the turn's
    safeguard is kept as one played this turn.
    """
    me, n, players = view["seat"], view["num_players"], view["players"]
    office = view["variant"] == "office"
    pile = [0] * n if office else list(range(n))
    in_use = set()
    hands: list[list[str] | None]  # None until the seat's hand is dealt
    decks, recycle, hands = [], [], [None] * n
    hands[me] = list(view["hand"])
    for p in range(1 if office else n):
        cards = pile_cards(view, p)
        in_use.update(cards)
        owners = [s for s in range(n) if pile[s] == p]
        seen = set(view["hand"]) if me in owners else set()
        for s in owners:
            seen.update(players[s]["lab"])
            seen.update(g["card"] for g in view["globals"] if g["owner"] == s)
            if view["turn"] == s:
                seen.update(view["build"])
        unseen = [c for c in cards if c not in seen]
        rng.shuffle(unseen)
        for s in owners:
            if s != me:
                hands[s] = [unseen.pop() for _ in range(players[s]["hand_count"])]
        first = players[owners[0]]
        decks.append([unseen.pop() for _ in range(first["deck_count"])])
        recycle.append(unseen)
        if len(unseen) != first["recycle_count"]:
            raise ValueError("the view's card counts do not add up to the laboratory set")

    open_ = set(view["market"]) | {c for p in players for c in p["completed"]}
    deck = []
    for kind, count in zip((BASIC, HARD), challenge_deck, strict=True):
        unseen = [c for c in kind if c not in open_]
        rng.shuffle(unseen)
        deck += unseen[: count - sum(1 for c in kind if c in open_)]
    if len(deck) != view["challenge_deck_count"]:
        raise ValueError("the view's challenge count does not add up to the challenge deck")
    rng.shuffle(deck)
    box = [c["id"] for c in LAB_CARDS if c["id"] not in in_use]
    box += [c for c in BASIC + HARD if c not in open_ and c not in deck]

    window = view["window"]
    return {
        "game": view["game"],
        "format": 1,
        "num_players": n,
        "rng": str(rng.getrandbits(64)),
        "variant": view["variant"],
        "seed": 0,
        "options": {**options, **({"interrupt_seconds": window["seconds"]} if window else {})}
        | built_decks(players),
        "sets": [p["set"] for p in players],
        "pile": pile,
        "decks": decks,
        "recycle": recycle,
        "box": box,
        "hands": hands,
        "labs": [list(p["lab"]) for p in players],
        "build": list(view["build"]),
        "globals": [dict(g) for g in view["globals"]],
        "challenge_deck": deck,
        "market": list(view["market"]),
        "completed": [list(p["completed"]) for p in players],
        "unsafe": [list(p["unsafe"]) for p in players],
        "first": view["first"],
        "turn": view["turn"],
        "round": view["round"],
        "phase": view["phase"],
        "pool": dict(view["pool"]),
        "limit_used": view["limit_used"],
        "safe_turn": view["safeguarded"],
        "blocked": list(view["blocked"]),
        "window": {**window, "waiting": list(window["waiting"])} if window else None,
        "serial": int(window["id"][1:]) if window else view["ply"],
        "over": view["over"],
        "ply": view["ply"],
        "last_events": [],
    }


# ------------------------------------------------------------------ playouts

_FRIENDLY = HeuristicBot()


def rollout_action(state: State, seat: int, legal: list[dict], rng: RandomSource) -> dict:
    """Return the friendly bot's move for ``seat``, from that seat's view of the state."""
    if len(legal) == 1:
        return legal[0]
    return _FRIENDLY.choose(_glance(state, seat), legal, rng)


def _glance(state: State, seat: int) -> dict:
    """Return the part of ``seat``'s view the friendly bot reads (``state.view`` also
    writes the scores, every lab and the events: most of a playout's time)."""
    lab = {"lab": state.labs[seat]}
    return {
        "seat": seat,
        "hand": state.hands[seat],
        "pool": state.pool,
        "players": [lab if s == seat else None for s in range(state.n)],
        "market": state.market,
        "costs": {c: state.cost(c) for c in state.market},
        "safeguarded": state.safeguarded(state.turn),
    }


# ---------------------------------------------------------------- evaluation


def evaluate(state: State) -> list[float]:
    """Return each seat's chance of winning: exact at the end, guessed before it (a
    softmax over the points and the labs, the wider the more challenges are left)."""
    n = state.n
    if state.over:  # result() is a dict once over (a check would cost every playout)
        winners = state.result()["winners"]  # type: ignore[index]
        return [1 / len(winners) if s in winners else 0.0 for s in range(n)]
    left = len(state.market) + len(state.challenge_deck)
    values = [score["points"] for score in state.scores()]
    for s in range(n):
        lab = sum(1 + BY_ID[c]["level"] if KIND[c] == "monster" else 1 for c in state.labs[s])
        values[s] += LAB_WORTH * lab * left / (left + 4)
    spread = SPREAD_AT_END + SPREAD_PER_CHALLENGE * left
    top = max(values)
    odds = [math.exp((v - top) / spread) for v in values]
    total = sum(odds)
    return [o / total for o in odds]
