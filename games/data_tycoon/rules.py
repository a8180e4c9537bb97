"""Data-Tycoon: a Scopa-like capture game about personal data.

Players capture Dataset cards from the table by colour or sensitive sign, call
"DATA!" for Purpose cards, build Data-Treasures (6 Dataset cards of one colour,
or 6 sensitive ones, plus a Purpose card) and attack each other with special
cards that the victim may counter. The rules as implemented, with every
decision the rule books leave open, are in ``docs/rules/data_tycoon.md``.

Flow of a match: ``stage`` walks ``start -> play -> after -> end -> next -> start``
(``after``: the card is played, a build or a split may follow); an
open *window* (a DATA!/DATABREACH! call, a counter, a freeze or a loss choice)
pauses that walk until its one actor answers or the referee sends its expiry.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, NamedTuple

from games.data_tycoon import bots as _bots
from games.data_tycoon import debrief as _debrief
from games.data_tycoon import how_to_play as _how_to_play
from games.data_tycoon import search as _search
from games.data_tycoon import text as _text
from games.data_tycoon import views as _views
from games.data_tycoon.cards import (
    CAPTURES,
    CARD_RULES,
    COLOUR,
    COLOURS,
    COMPLAINT_COUNT,
    DATA,
    FREEZE_COUNT,
    KIND,
    LOSS_COUNT,
    RESERVE_KINDS,
    SENSITIVE,
    TREASURE_SIZE,
    VARIANT_KINDS,
    card_ids,
)
from games.data_tycoon.cards import cards as _cards
from games.engine import IllegalAction, Text, base, gettext_noop
from games.engine.rng import RandomSource, Rng
from games.engine.search import SearchBot

if TYPE_CHECKING:
    from typing import Any

SLUG = "data_tycoon"
FORMAT = 1

HAND_SIZE = 3  # cards dealt to each player per round (Scopa style)
TABLE_START = 5  # cards laid face up at the start
SPLIT_MIN = 3  # each half of a Consent split keeps at least this many cards
TRANSPARENCY_TURNS = 3  # turns a Transparency victim plays with an open hand
HIDDEN_BREACH_SKIPS = 2  # turns skipped when a hidden breach cannot be paid

# Default durations (seconds) of the timed windows; the server reads these,
# a match may override them through ``options``.
CALL_SECONDS = 15  # to call DATA! or DATABREACH! at the start of a turn
COUNTER_SECONDS = 15  # for the victim to counter an attack
CHOICE_SECONDS = 20  # for a victim to pick frozen cards or what to lose
TIME_CARD_SECONDS = 600  # the Time card's 10 minutes
TIME_CARD_TURNS = 3  # the Time card's deadline on a clock-free table (victim's turns)

DEFAULT_OPTIONS: dict[str, Any] = {
    "time_mode": "clock",  # "clock": TIME_CARD_SECONDS of real time; "turns": victim's turns
    "time_card_seconds": TIME_CARD_SECONDS,
    "time_card_turns": TIME_CARD_TURNS,
    "call_seconds": CALL_SECONDS,
    "counter_seconds": COUNTER_SECONDS,
    "choice_seconds": CHOICE_SECONDS,
    "left_out": [],  # special card kinds the teacher took out of the variant's deck
}
# A variant's own defaults, under the session's options. Beginners meet DATA! on their
# first turns, while they are still reading the board: they get twice the time to call.
VARIANT_OPTIONS = {"beginner": {"call_seconds": 2 * CALL_SECONDS}}
TIME_MODES = ("clock", "turns")
TIE_BREAK = ("treasures", "sensitive", "datasets", "shared")
CALLS = ("call_data", "call_databreach")

# The special cards a teacher may leave out, in the rule book's order, with their names.
KIND_NAMES = {
    "sanction": gettext_noop("Sanction"),
    "lawyer": gettext_noop("Lawyer"),
    "transparency": gettext_noop("Transparency"),
    "cybersecurity": gettext_noop("Cybersecurity"),
    "databreach": gettext_noop("Databreach"),
    "consent": gettext_noop("Consent"),
    "minimization": gettext_noop("Minimization"),
    "time": gettext_noop("Time"),
    "complaint": gettext_noop("Complaint"),
}
SPECIAL_KINDS = tuple(KIND_NAMES)
NAME = DATA["name"]
VARIANTS = DATA["variant_names"]  # ordered: beginner, lawyers, standard, expert
VARIANT_DESCRIPTIONS = DATA["variant_descriptions"]


class DataTycoon(base.Game["State"]):
    """The Data-Tycoon game: static facts and the state factory."""

    state_class: type[State]  # set below the State class

    slug = SLUG
    name = NAME
    min_players = 2
    max_players = 6
    variants = VARIANTS
    variant_descriptions = VARIANT_DESCRIPTIONS
    default_variant = "standard"
    bots = {"random": _bots.RandomBot, "heuristic": _bots.HeuristicBot, "search": SearchBot}
    how_to_play = _how_to_play.HOW_TO_PLAY
    variant_options = VARIANT_OPTIONS
    options = (
        base.Option(
            "time_mode",
            gettext_noop("Time card deadline"),
            "clock",
            choices=(
                ("clock", gettext_noop("real time, in seconds")),
                ("turns", gettext_noop("the victim's turns")),
            ),
        ),
        base.Option(
            "time_card_seconds", gettext_noop("Time card: seconds"), TIME_CARD_SECONDS, 30, 3600
        ),
        base.Option("time_card_turns", gettext_noop("Time card: turns"), TIME_CARD_TURNS, 1, 10),
        base.Option(
            "call_seconds",
            gettext_noop("Seconds to call DATA! or DATABREACH!"),
            CALL_SECONDS,
            1,
            120,
        ),
        base.Option(
            "left_out",
            gettext_noop("Leave out these special cards"),
            (),
            choices=tuple((kind, KIND_NAMES[kind]) for kind in SPECIAL_KINDS),
            help=gettext_noop(
                "The rule book lets a class play with fewer special cards: the ones you tick "
                "are taken out of the chosen variant's deck."
            ),
            multiple=True,
        ),
        base.Option(
            "counter_seconds", gettext_noop("Seconds to counter an attack"), COUNTER_SECONDS, 1, 120
        ),
        base.Option(
            "choice_seconds",
            gettext_noop("Seconds to choose cards to lose"),
            CHOICE_SECONDS,
            1,
            120,
        ),
    )
    score_columns = (
        base.ScoreColumn(
            "treasures", gettext_noop("Treasures"), gettext_noop("treasures"), chart="step"
        ),
        base.ScoreColumn("sensitive", gettext_noop("Sensitive cards"), gettext_noop("sensitive")),
        base.ScoreColumn(
            "datasets", gettext_noop("Dataset cards"), gettext_noop("datasets"), chart="line"
        ),
    )
    highlight = "sensitive"
    highlight_label = gettext_noop("sensitive data")
    notable_events = _text.NOTABLE_EVENTS
    event_labels = _text.EVENT_LABELS
    link_attributes = ("purpose", "sign")
    seat_zones = _debrief.SEAT_ZONES
    table_zones = _debrief.TABLE_ZONES

    describe_event = staticmethod(_text.describe_event)

    def cards(self, variant: str, kinds: frozenset[str] | None = None) -> list[dict]:
        """Return the card dicts of ``variant``, their effects worded for a deck of
        ``kinds``."""
        self.check_variant(variant)
        return _cards(variant, kinds)

    def dealt_kinds(self, variant: str, options: dict | None = None) -> set[str]:
        """Return the kinds the variant deals, without those the teacher left out."""
        self.check_variant(variant)
        return set(VARIANT_KINDS[variant].difference((options or {}).get("left_out") or ()))

    def sample_state(self, view: dict, rng: RandomSource) -> State:
        """Return a state ``view`` could have come from: unseen cards dealt with ``rng``."""
        data = _search.determinise(view, rng, HAND_SIZE, RESERVE_KINDS)
        return State._restore(self, data)

    def evaluate(self, state: State) -> list[float]:
        """Return each seat's chance of winning, guessed from treasures built and under way."""
        return _search.evaluate(state)

    def rollout_action(self, state: State, seat: int, legal: list[dict], rng: RandomSource) -> dict:
        """Return a quick, greedy move for a search's playout."""
        return _search.rollout_action(state, seat, legal, rng)

    def seat_notes(self, data: dict, seat: int) -> list[Text]:
        """Return the replay's notes on a seat: turns to skip, an open hand."""
        return _debrief.seat_notes(data, seat)

    def card_groups(self, data: dict, seat: int) -> list[dict]:
        """Return a seat's Data-Treasures in the replay."""
        return _debrief.card_groups(data, seat)

    def debrief(self) -> _debrief.DataTycoonDebrief:
        """Return a fresh observer of one table's replay for the debrief."""
        return _debrief.DataTycoonDebrief()


class State(base.State):
    """One match of Data-Tycoon."""

    # Slots: every attribute is read and written at a fixed offset, the fastest way in
    # CPython (an instance dict holds at most 29 attributes inline in 3.11, then is slow).
    __slots__ = (
        "_events", "_legal_acts", "_legal_seat", "collections", "consents", "deck", "frozen",
        "game", "hands", "hidden", "n", "options", "over", "pile", "ply", "purposes",
        "reserves", "rng", "seed", "serial", "skips", "stage", "table", "threats",
        "transparent", "treasures", "turn", "undeclared", "variant", "windows",
    )  # fmt: skip

    # The attributes' types that the checker cannot infer from ``__init__``.
    table: list[str]
    pile: list[str]
    hands: list[list[str]]
    reserves: list[list[str]]
    collections: list[list[str]]
    frozen: list[list[str]]
    purposes: list[list[str]]
    consents: list[list[str]]
    treasures: list[list[dict]]  # each {"label": Purpose card, "cards": Dataset cards}
    undeclared: list[list[str]]
    hidden: list[list[str]]
    threats: list[dict]
    windows: list[dict]

    def __init__(
        self,
        game: DataTycoon,
        num_players: int,
        seed: int,
        variant: str,
        options: dict | None = None,
    ) -> None:
        game.check_table(num_players, variant)
        opts = {**DEFAULT_OPTIONS, **VARIANT_OPTIONS.get(variant, {})}
        for key, value in (options or {}).items():
            if key not in DEFAULT_OPTIONS:
                raise ValueError(f"unknown option {key!r}")
            opts[key] = value
        if opts["time_mode"] not in TIME_MODES:
            raise ValueError(f"time_mode must be one of {TIME_MODES}")
        if not set(opts["left_out"]) <= set(SPECIAL_KINDS):
            raise ValueError("left_out names special card kinds only")
        n = num_players
        self.game, self.n, self.seed, self.variant, self.options = game, n, seed, variant, opts
        self.rng = Rng(seed)
        left_out = set(opts["left_out"])
        self.deck = [*card_ids(variant)]
        if left_out:
            self.deck = [c for c in self.deck if KIND[c] not in left_out]
        self.rng.shuffle(self.deck)
        self.table, self.pile = [], []
        self.hands, self.reserves = [[] for _ in range(n)], [[] for _ in range(n)]
        self.collections, self.frozen = [[] for _ in range(n)], [[] for _ in range(n)]
        self.purposes, self.consents = [[] for _ in range(n)], [[] for _ in range(n)]
        self.treasures = [[] for _ in range(n)]
        self.undeclared, self.hidden = [[] for _ in range(n)], [[] for _ in range(n)]
        self.skips, self.transparent = [0] * n, [0] * n
        self.threats, self.windows, self.serial = [], [], 0
        self.turn, self.stage, self.over, self.ply = 0, "start", False, 0
        # ``_events`` is also ``last_events`` (a property): the list each apply fills
        self._legal_seat = base.UNASKED
        events: list[dict]
        self._events = events = []
        for _ in range(TABLE_START):
            card = self.deck.pop()
            (self.table if KIND[card] == "dataset" else self.pile).append(card)
        events.append({"type": "setup", "table": list(self.table), "pile": list(self.pile)})
        self._deal_round(0)
        self._advance()

    # ----------------------------------------------------------------- protocol

    @property
    def last_events(self) -> list[dict]:
        """The events of the last action (of the deal at first): the list ``apply`` fills."""
        return self._events

    def to_move(self) -> list[int]:
        """Return the seats that may act now (the window's actor, or the turn player)."""
        if self.over:
            return []
        if self.windows:
            return [self.windows[0]["seat"]]
        return [self.turn] if self.stage in ("play", "after") else []

    def timers(self) -> list[dict]:
        """Return the running timers: the open window's, and each clock Time card's."""
        if self.over:
            return []
        out = []
        if self.windows:
            w = self.windows[0]
            out.append(_timer(w["id"], w["seconds"]))
        if self.options["time_mode"] == "clock":
            out.extend(_timer(t["id"], t["seconds"]) for t in self.threats)
        return out

    def timer_info(self, timer_id: str) -> dict:
        """Return what a timer waits for; a DATA!/DATABREACH! call's is known to its actor only."""
        for window in self.windows[:1]:
            if window["id"] == timer_id:
                hidden = window["kind"] in CALLS
                return {
                    "kind": window["kind"],
                    "seat": window["seat"],
                    "visible_to": [window["seat"]] if hidden else None,
                }
        for threat in self.threats:
            if threat["id"] == timer_id:
                return {"kind": "time", "seat": threat["seat"], "visible_to": None}
        return super().timer_info(timer_id)

    def legal_actions(self, seat: int | None) -> list[dict]:
        """Return the actions ``seat`` may take now (``None``: the referee's expiries)."""
        return [action.copy() for action in self._legal_list(seat)]  # callers may mutate them

    def apply(self, seat: int | None, action: dict) -> list[dict]:
        """Apply ``action`` for ``seat`` and return the events; refuse anything not legal."""
        if action not in self._legal_list(seat):
            raise self._refusal(seat, action)
        return self.apply_legal(seat, action).copy()  # the caller may change it: not last_events

    def apply_legal(self, seat: int | None, action: dict) -> list[dict]:
        """Apply ``action``, one of ``peek_legal_actions(seat)``, without checking it again;
        return the events as the state holds them (``last_events``), never to change."""
        self._legal_seat = base.UNASKED
        # the action's events, each its "type" then its fields (every event is public),
        # appended to ``self._events`` in place: a helper's call per event costs more
        events: list[dict]
        self._events = events = []
        windows = self.windows
        walked = False  # True once a card play walked the turn on to whoever must act
        if seat is None:
            self._expire(action["timer"])
        elif not windows:  # the usual case: a turn action
            walked = self._turn_action(seat, action)
        elif windows[0]["kind"] in CALLS and action["type"] not in CALLS:
            self._forfeit_call()
            walked = self._turn_action(seat, action)
        else:
            self._window_action(seat, action)
        if not walked:
            self._advance()
        self.ply += 1
        return events

    def view(self, seat: int | None) -> dict:
        """Return what ``seat`` may see; ``None`` gives the public view."""
        return _views.view(self, seat)

    def private_cards(self, seat: int) -> list[str]:
        """Return the ids only ``seat`` sees: its reserve, and its hand unless revealed."""
        hand = [] if self.transparent[seat] else self.hands[seat]
        return list(hand) + list(self.reserves[seat])

    def zones(self) -> dict[str, list[str]]:
        """Return every zone's card ids (treasures flattened, labels included)."""
        z = {"deck": list(self.deck), "table": list(self.table), "pile": list(self.pile)}
        for s in range(self.n):
            z[f"hand:{s}"] = list(self.hands[s])
            z[f"reserve:{s}"] = list(self.reserves[s])
            z[f"collection:{s}"] = list(self.collections[s])
            z[f"frozen:{s}"] = list(self.frozen[s])
            z[f"purposes:{s}"] = list(self.purposes[s])
            z[f"consents:{s}"] = list(self.consents[s])
            z[f"treasures:{s}"] = [
                c for tr in self.treasures[s] for c in [tr["label"], *tr["cards"]]
            ]
        return z

    def is_over(self) -> bool:
        """Return True once the deck and every hand are empty."""
        return self.over

    def result(self) -> dict | None:
        """Return winners, ranking groups, scores and the tie-break level that decided."""
        if not self.over:
            return None
        scores = self.scores()
        keys = [(sc["treasures"], sc["sensitive"], sc["datasets"]) for sc in scores]
        ranking = base.ranking(keys)
        winners = ranking[0]
        if len(winners) > 1:
            decided_by = "shared"
        else:
            best, runner = keys[winners[0]], keys[ranking[1][0]]
            decided_by = next(TIE_BREAK[i] for i in range(3) if best[i] != runner[i])
        return {
            "winners": winners,
            "ranking": ranking,
            "scores": scores,
            "decided_by": decided_by,
            "tie_break": list(TIE_BREAK),
        }

    def scores(self) -> list[dict]:
        """Return each seat's treasures, sensitive Dataset cards and Dataset cards owned."""
        out = []
        sensitive = SENSITIVE.__getitem__  # a bool: the sum counts the sensitive cards
        # every view asks: the zones are looked up once, not seat by seat
        collections, frozen, treasures = self.collections, self.frozen, self.treasures
        for s in range(self.n):
            owned = collections[s] + frozen[s]
            built = treasures[s]
            if built:
                for tr in built:
                    owned += tr["cards"]
            out.append(
                {
                    "seat": s,
                    "treasures": len(built),
                    "sensitive": sum(map(sensitive, owned)),
                    "datasets": len(owned),
                }
            )
        return out

    def to_json(self) -> dict:
        """Return the whole state as JSON-able data (an independent copy)."""
        d = {
            "game": SLUG,
            "format": FORMAT,
            "variant": self.variant,
            "num_players": self.n,
            "seed": self.seed,
            "options": self.options,
            "rng": str(self.rng.state),
            "ply": self.ply,
            "turn": self.turn,
            "stage": self.stage,
            "over": self.over,
            "serial": self.serial,
            "skips": self.skips,
            "transparent": self.transparent,
        }
        for name in _ZONES:
            d[name] = getattr(self, name)
        d["threats"], d["windows"], d["last_events"] = self.threats, self.windows, self._events
        return json.loads(json.dumps(d))

    @classmethod
    def from_json(cls, game: base.Game, data: dict) -> State:
        """Rebuild a state from ``to_json`` output."""
        d = json.loads(json.dumps(data))
        if d.get("game") != SLUG or d.get("format") != FORMAT:
            raise ValueError("not a Data-Tycoon state of this format")
        return cls._restore(game, d)

    def copy(self) -> State:
        """Return an independent copy, quickly (the search plays ahead on copies)."""
        new = State.__new__(State)
        new.game, new.n, new.seed, new.variant = self.game, self.n, self.seed, self.variant
        new.options = self.options  # never changed during a match
        new.rng = Rng(self.rng.state)
        new.ply, new.turn, new.stage, new.over = self.ply, self.turn, self.stage, self.over
        new.serial, new.skips, new.transparent = (
            self.serial,
            list(self.skips),
            list(self.transparent),
        )
        new.deck, new.table, new.pile = list(self.deck), list(self.table), list(self.pile)
        for name in _SEAT_ZONES:
            setattr(new, name, [list(cards) for cards in getattr(self, name)])
        new.treasures = [
            [{"label": tr["label"], "cards": list(tr["cards"])} for tr in seat]
            for seat in self.treasures
        ]
        new.threats = [dict(t) for t in self.threats]
        new.windows = [
            {k: (list(v) if isinstance(v, list) else v) for k, v in w.items()} for w in self.windows
        ]
        new._legal_seat = base.UNASKED
        new._events = list(self._events)  # events are never changed once emitted
        return new

    @classmethod
    def _restore(cls, game, d):
        """Rebuild a state from ``to_json``-shaped data that it may keep (no copy)."""
        self = cls.__new__(cls)
        self.game, self.n, self.seed = game, d["num_players"], d["seed"]
        self.variant, self.options = d["variant"], d["options"]
        self.rng = Rng(int(d["rng"]))
        for name in ("ply", "turn", "stage", "over", "serial", "skips", "transparent"):
            setattr(self, name, d[name])
        for name in _ZONES:
            setattr(self, name, d[name])
        self.threats, self.windows = d["threats"], d["windows"]
        self._legal_seat, self._events = base.UNASKED, d["last_events"]
        return self

    # ------------------------------------------------------------ legal actions

    def peek_legal_actions(self, seat: int | None) -> list[dict]:
        """Return the legal actions of ``seat`` as the state holds them (see
        ``base.State.peek_legal_actions``). The usual ask, the turn player's with no window
        open, goes straight to ``_turn_actions``: what ``_compute_legal`` would call."""
        if seat is self._legal_seat:
            return self._legal_acts
        # ``is``: a seat number equal to ``turn`` is the same small int (True is not 1)
        if seat is self.turn and self.stage == "play" and not self.windows and not self.over:
            acts = self._legal_acts = self._turn_actions(seat)
            self._legal_seat = seat
            return acts
        return base.State.peek_legal_actions(self, seat)

    _legal_list = peek_legal_actions  # what ``apply`` and ``legal_actions`` ask

    def _compute_legal(self, seat):
        """Compute the legal actions of ``seat``: the one source of legality."""
        if self.over:
            return []
        if seat is None:
            return [t["action"] for t in self.timers()]
        if self.windows:
            w = self.windows[0]
            return self._window_actions(w) if w["seat"] == seat else []
        if seat != self.turn:
            return []
        if self.stage == "play":
            return self._turn_actions(seat)
        if self.stage == "after":
            return [*self._free_actions(seat), END_TURN]
        return []

    def _window_actions(self, w):
        """Return the actions the actor of window ``w`` may take."""
        s, kind = w["seat"], w["kind"]
        if kind in CALLS:
            return [CALL_ACTIONS[kind], *self._turn_actions(s)]
        if kind == "counter":
            kinds = {*map(KIND.__getitem__, self.reserves[s] + self.hands[s])}
            acts = []
            for k in w["counters"]:  # a loop: a comprehension's closure cell is made per call
                if k in kinds:
                    acts.append(COUNTER_ACTIONS[k])
            acts.append(ACCEPT)
            return acts
        if kind == "freeze":
            return [*map(FREEZE_ACTIONS.__getitem__, self.collections[s])]
        return self._loss_options(s)  # kind == "loss"

    def _turn_actions(self, s):
        """Return the turn player's actions: free builds and splits, then one card play."""
        hand = self.hands[s]
        if self.undeclared[s] or self.hidden[s]:
            hand = self._playable(s)
        # A card is thrown (laid without a capture, or discarded without effect) only
        # when no card can capture or be used: the rule book's "if the player cannot
        # pick up cards from the table or use special cards".
        used: list[dict]
        thrown: list[dict]
        used, thrown = [], []
        table = self.table
        for c in hand:
            plays = DATASET_PLAYS[c]
            if plays is None:
                self._special_actions(s, c, KIND[c], used, thrown)
                continue
            capturable, lay, captures = plays
            if capturable.isdisjoint(table):  # most often: one test in C, no loop
                thrown.append(lay)
            else:
                for t in table:
                    if t in capturable:
                        used.append(captures[t])
        # the build-or-split test of ``_free_actions``, inline: most turns have neither
        if (self.purposes[s] and len(self.collections[s]) >= TREASURE_SIZE) or (
            self.consents[s] and self.treasures[s]
        ):
            return [*self._free_actions(s), *(used or thrown)]
        return used or thrown

    def _playable(self, s):
        """Return the cards of ``s``'s hand it may play: not one still to call or hidden.

        A method of its own, asked only when a card is blocked: its list comprehension
        reads ``blocked`` through a closure cell, which a function makes on every call."""
        blocked = self.undeclared[s] + self.hidden[s]
        return [c for c in self.hands[s] if c not in blocked]

    def _special_actions(self, s, c, kind, used, thrown):
        """Add the plays of special card ``c`` to ``used``, or its discard to ``thrown``."""
        plays = SPECIAL_PLAYS[c]
        if plays.kept:
            used += plays.kept
        if kind == "consent":  # a loop, not a comprehension: no closure cell for ``c`` per call
            for tr in self.treasures[s]:
                if len(tr["cards"]) >= 2 * SPLIT_MIN:
                    used.append({"type": "split", "card": c, "treasure": tr["label"]})
        if plays.target:
            targets = self._targets(plays.target, s)
            if targets:
                attacks = plays.attacks
                for t in targets:  # a loop: a map over the tuple's bound __getitem__ costs more
                    used.append(attacks[t])
            elif not plays.kept:
                thrown.append(plays.discard)

    def _free_actions(self, s):
        """Return the builds and the splits with a kept Consent: any time in one's turn."""
        # asked after every card play of a seat holding a Purpose or a Consent, and most
        # often there is nothing to build or split: no action is made before one is sure
        acts = []
        coll = self.collections[s]
        if self.purposes[s] and len(coll) >= TREASURE_SIZE:
            bases = _bases(coll)
            if bases:
                acts += [
                    {"type": "build", "purpose": p, "basis": b}
                    for p in self.purposes[s]
                    for b in bases
                ]
        if self.consents[s] and self.treasures[s]:
            acts += [
                {"type": "split", "treasure": tr["label"]}
                for tr in self.treasures[s]
                if len(tr["cards"]) >= 2 * SPLIT_MIN
            ]
        return acts

    def _targets(self, need, s):
        """Return the seats but ``s`` that an attack needing ``need`` may hit, in seat order
        (one pass for the need, not a call per seat: every attack card in a hand asks)."""
        others = OTHERS[self.n][s]
        if need == "treasure":
            return [*filter(self.treasures.__getitem__, others)]
        if need == "free_datasets":
            return [*filter(self.collections.__getitem__, others)]
        if need == "anyone":
            return [*others]
        # loops, not comprehensions: those would read the zones through closure cells,
        # made on every call
        targets = []
        collections, frozen = self.collections, self.frozen
        if need == "datasets":
            for t in others:
                if collections[t] or frozen[t]:
                    targets.append(t)
        else:  # "assets"
            treasures = self.treasures
            for t in others:
                if treasures[t] or collections[t] or frozen[t]:
                    targets.append(t)
        return targets

    def _loss_options(self, s):
        """Return what seat ``s`` may give up: 6 loose Dataset cards or one treasure."""
        opts = []
        if len(self.collections[s]) + len(self.frozen[s]) >= LOSS_COUNT:
            opts.append(LOSE_DATASETS)
        opts.extend(
            {"type": "lose", "what": "treasure", "treasure": tr["label"]}
            for tr in self.treasures[s]
        )
        return opts

    def _refusal(self, seat, action):
        """Return the IllegalAction that explains why ``action`` is refused."""
        if self.over:
            return IllegalAction("game_over", gettext_noop("The game is over."))
        if seat is None:
            return IllegalAction(
                "stale_timer", gettext_noop("This timer is not running (any more).")
            )
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            return IllegalAction(
                "bad_seat", gettext_noop("There is no seat %(seat)s."), {"seat": str(seat)}
            )
        if seat not in self.to_move():
            return IllegalAction("not_your_turn", gettext_noop("Please wait: it is not your turn."))
        card = action.get("card") if isinstance(action, dict) else None
        if card is not None and card not in self.hands[seat]:
            return IllegalAction("card_not_held", gettext_noop("You do not hold this card."))
        return IllegalAction("illegal_action", gettext_noop("This move is not allowed now."))

    # ------------------------------------------------------------------ actions

    def _turn_action(self, s, a):
        """Apply a turn action: a free build or split, or the turn's one card play.

        A Dataset card's play with no window open takes the next stage step itself, as
        ``_advance`` would, and returns True if someone must act now: the usual move
        makes no call to ``_advance``."""
        kind = a["type"]
        if kind == "play":  # the usual action: checked first
            c = a["card"]
            self.hands[s].remove(c)
            self.stage = "after"
            captured = a.get("capture")  # a card id, or None for a lay
            if captured is not None:
                self.table.remove(captured)
                collection = self.collections[s]
                collection.append(c)
                collection.append(captured)
                self._events.append({"type": "capture", "seat": s, "card": c, "captured": captured})
            else:
                self.table.append(c)
                self._events.append({"type": "lay", "seat": s, "card": c})
            if self.windows:  # one queued behind a forfeited call: ``_advance`` settles it
                return False
            return self._await_free()
        if kind == "end_turn":
            self.stage = "end"
            self._events.append({"type": "turn_ended", "seat": s})
            return
        if kind == "build":
            self._build(s, a["purpose"], a["basis"])
            return
        if kind == "split" and "card" not in a:
            self._split(s, a["treasure"], self.consents[s].pop(0))
            return
        c = a["card"]
        self.hands[s].remove(c)
        self.stage = "after"
        if kind == "keep":
            (self.purposes if KIND[c] == "purpose" else self.consents)[s].append(c)
            self._events.append({"type": "keep", "seat": s, "card": c, "kind": KIND[c]})
        elif kind == "set_aside":
            self.reserves[s].append(c)
            self._events.append({"type": "set_aside", "seat": s})
        elif kind == "split":
            self._split(s, a["treasure"], c)
        elif kind == "discard":
            self.pile.append(c)
            self._events.append({"type": "discard", "seat": s, "card": c, "kind": KIND[c]})
        else:  # attack
            self._attack(s, c, a["target"])

    def _attack(self, s, c, t):
        """Throw attack card ``c`` at seat ``t``: open its counter or freeze window."""
        kind = KIND[c]
        self.pile.append(c)
        self._events.append({"type": "attack", "seat": s, "target": t, "card": c, "kind": kind})
        if kind == "purpose":
            left = min(FREEZE_COUNT, len(self.collections[t]))
            self._open("freeze", t, self.options["choice_seconds"], attacker=s, left=left)
        else:
            self._open_counter(t, kind, s, c)

    def _window_action(self, s, a):
        """Apply the answer of the active window's actor."""
        w = self.windows[0]
        kind = a["type"]
        if kind == "call_data":
            self.windows.pop(0)
            count = len(self.undeclared[s])
            self.undeclared[s] = []
            self._events.append({"type": "data_called", "seat": s, "count": count})
        elif kind == "call_databreach":
            self.windows.pop(0)
            breaches = [c for c in self.undeclared[s] if KIND[c] == "databreach"]
            self.undeclared[s] = [c for c in self.undeclared[s] if KIND[c] != "databreach"]
            for c in breaches:
                self.hands[s].remove(c)
            self.pile += breaches
            self._events.append({"type": "databreach_called", "seat": s, "cards": breaches})
            for breach in breaches:  # each breach is contained, or costs a turn, alone
                self._open_counter(s, "databreach", None, breach)
        elif kind == "counter":
            self.windows.pop(0)
            self._counter(s, a["kind"], w)
        elif kind == "accept":
            self.windows.pop(0)
            self._resolve(w)
        elif kind == "freeze":
            self._freeze(s, a["card"], w)
        else:  # lose
            self.windows.pop(0)
            self._lose(s, a, w["cause"])

    def _counter(self, s, kind, w):
        """Play ``s``'s counter card of ``kind`` (from the reserve first) against window
        ``w``'s attack (a method of its own: its generators' closure cell is made only here)."""
        zone = next(z for z in (self.reserves[s], self.hands[s]) if any(KIND[c] == kind for c in z))
        card = next(c for c in zone if KIND[c] == kind)
        zone.remove(card)
        self.pile.append(card)
        self._events.append(
            {"type": "countered", "seat": s, "card": card, "kind": kind, "attack": w["attack"]}
        )
        if w["attack"] == "hidden_breach":
            self.skips[s] += 1  # contained, but not reported in time

    def _expire(self, timer):
        """End the timer ``timer``: the referee acts when a window's time is up."""
        if self.windows and self.windows[0]["id"] == timer:
            w = self.windows[0]
            if w["kind"] in CALLS:
                self._forfeit_call()
                return
            self._events.append({"type": "timeout", "seat": w["seat"], "window": w["kind"]})
            if w["kind"] == "counter":
                self.windows.pop(0)
                self._resolve(w)
            elif w["kind"] == "freeze":
                for c in _least_valuable(self.collections[w["seat"]])[: w["left"]]:
                    self._freeze(w["seat"], c, w)
            else:
                self.windows.pop(0)
                self._lose(w["seat"], self._loss_options(w["seat"])[0], w["cause"])
            return
        threat = next(t for t in self.threats if t["id"] == timer)
        self.threats.remove(threat)
        self._events.append({"type": "time_up", "seat": threat["seat"]})
        self._open_loss(threat["seat"], "time")

    def _forfeit_call(self):
        """Close the call window unanswered: a purpose is lost, a breach stays hidden."""
        w = self.windows.pop(0)
        s = w["seat"]
        if w["kind"] == "call_data":
            missed = self.undeclared[s]
            self.undeclared[s] = []
            for c in missed:
                self.hands[s].remove(c)
            self.pile += missed
            self._events.append({"type": "data_missed", "seat": s, "cards": missed})
        else:
            breaches = [c for c in self.undeclared[s] if KIND[c] == "databreach"]
            self.undeclared[s] = [c for c in self.undeclared[s] if KIND[c] != "databreach"]
            self.hidden[s] += breaches
            # public, as data_missed is: the breach comes out at the end of this turn anyway
            self._events.append(
                {"type": "databreach_unreported", "seat": s, "count": len(breaches)}
            )

    # ------------------------------------------------------------------ effects

    def _resolve(self, w):
        """Apply the effect of an attack (or a declared breach) that was not countered."""
        attack, t = w["attack"], w["seat"]
        if attack == "databreach":
            if self.stage == "play" and t == self.turn:
                self._events.append({"type": "breach_skip", "seat": t})
                self._forfeit_play(t)
                self.stage = "end"
            else:  # this turn is lost already: another breach costs the next one
                self.skips[t] += 1
                self._events.append({"type": "breach_skip_next", "seat": t})
        elif attack == "hidden_breach":
            self._open_loss(t, "databreach")
        else:
            EFFECTS[attack](self, t, w["attacker"])

    def _sanction(self, t, attacker):
        """Return every Data-Treasure of ``t`` (purpose and cards) to the deck."""
        cards = [c for tr in self.treasures[t] for c in [tr["label"], *tr["cards"]]]
        count = len(self.treasures[t])
        self.treasures[t] = []
        self._return(cards)
        self._events.append(
            {
                "type": "treasures_lost",
                "seat": t,
                "treasures": count,
                "count": len(cards),
                "cause": "sanction",
            }
        )

    def _complaint(self, t, attacker):
        """Return 3 of ``t``'s Dataset cards not in a treasure to the deck."""
        cards = self._take_unassigned(t, COMPLAINT_COUNT)
        self._return(cards)
        self._events.append(
            {"type": "datasets_returned", "seat": t, "count": len(cards), "cause": "complaint"}
        )

    def _minimization(self, t, attacker):
        """Return all of ``t``'s Dataset cards not in a treasure to the deck."""
        cards = self.frozen[t] + self.collections[t]
        self.frozen[t], self.collections[t] = [], []
        self._return(cards)
        self._events.append(
            {"type": "datasets_returned", "seat": t, "count": len(cards), "cause": "minimization"}
        )

    def _transparency(self, t, attacker):
        """Make ``t`` play with an open hand for its next 3 turns."""
        self.transparent[t] = TRANSPARENCY_TURNS
        self._events.append({"type": "transparency", "seat": t, "turns": TRANSPARENCY_TURNS})

    def _time(self, t, attacker):
        """Start ``t``'s Time deadline (seconds on the clock, or its own turns)."""
        self.serial += 1
        threat = {"id": f"t{self.serial}", "seat": t, "attacker": attacker}
        if self.options["time_mode"] == "clock":
            threat["seconds"] = self.options["time_card_seconds"]
        else:
            threat["turns"] = self.options["time_card_turns"]
        self.threats.append(threat)
        self._events.append(
            {
                "type": "time_started",
                "seat": t,
                "timer": threat["id"],
                "seconds": threat.get("seconds"),
                "turns": threat.get("turns"),
            }
        )

    def _freeze(self, t, c, w):
        """Freeze ``t``'s card ``c``; close the window once enough cards are frozen."""
        self.collections[t].remove(c)
        self.frozen[t].append(c)
        w["left"] -= 1
        self._events.append({"type": "frozen", "seat": t, "card": c})
        if w["left"] <= 0 or not self.collections[t]:
            self.windows.pop(0)

    def _open_counter(self, victim, attack, attacker, card):
        """Queue ``victim``'s counter window against ``card`` (an attack, or a breach
        card: called, or hidden and out), with the counters its kind allows."""
        self._open(
            "counter",
            victim,
            self.options["counter_seconds"],
            attack=attack,
            attacker=attacker,
            card=card,
            counters=list(CARD_RULES[KIND[card]].counters),
        )

    def _forfeit_play(self, s):
        """Take the card play of a lost turn: a random card of the hand goes to the pile.

        Hands are refilled only when every hand is empty, so a lost turn that kept its
        card would cost nothing. Cards still to be called stay: they are not playable.
        """
        playable = self._playable(s)
        if not playable:
            return
        card = playable[self.rng.below(len(playable))]
        self.hands[s].remove(card)
        self.pile.append(card)
        self._events.append({"type": "play_forfeited", "seat": s, "card": card})

    def _open_loss(self, s, cause):
        """Queue the window in which ``s`` chooses what to lose (see ``_settle``)."""
        self._open("loss", s, self.options["choice_seconds"], cause=cause)

    def _loss_fallback(self, s, cause):
        """Punish ``s`` who has nothing to choose from: skips, or every loose card."""
        if cause == "databreach":
            self.skips[s] += HIDDEN_BREACH_SKIPS
            self._events.append({"type": "skips", "seat": s, "turns": HIDDEN_BREACH_SKIPS})
        else:
            cards = self._take_unassigned(s, LOSS_COUNT)
            self._return(cards)
            self._events.append(
                {"type": "datasets_returned", "seat": s, "count": len(cards), "cause": cause}
            )

    def _lose(self, s, choice, cause):
        """Return what ``s`` chose to lose: 6 loose Dataset cards or one treasure."""
        if choice["what"] == "datasets":
            cards = self._take_unassigned(s, LOSS_COUNT)
            self._return(cards)
            self._events.append(
                {"type": "datasets_returned", "seat": s, "count": len(cards), "cause": cause}
            )
            return
        tr = next(tr for tr in self.treasures[s] if tr["label"] == choice["treasure"])
        self.treasures[s].remove(tr)
        cards = [tr["label"], *tr["cards"]]
        self._return(cards)
        self._events.append(
            {
                "type": "treasures_lost",
                "seat": s,
                "treasures": 1,
                "count": len(cards),
                "cause": cause,
            }
        )

    def _build(self, s, purpose, basis):
        """Build a Data-Treasure from ``purpose`` and 6 cards of ``basis``."""
        coll = self.collections[s]
        if basis == "sensitive":
            chosen = [c for c in coll if SENSITIVE[c]][:TREASURE_SIZE]
        else:
            same = [c for c in coll if COLOUR[c] == basis]
            chosen = sorted(same, key=SENSITIVE.__getitem__)[:TREASURE_SIZE]
        for c in chosen:
            coll.remove(c)
        self.purposes[s].remove(purpose)
        self.treasures[s].append({"label": purpose, "cards": chosen})
        self._events.append(
            {
                "type": "treasure_built",
                "seat": s,
                "purpose": purpose,
                "basis": basis,
                "cards": list(chosen),
            }
        )

    def _split(self, s, label, consent):
        """Split treasure ``label`` in two, the second one labelled by ``consent``."""
        tr = next(tr for tr in self.treasures[s] if tr["label"] == label)
        half = len(tr["cards"]) // 2
        new = {"label": consent, "cards": tr["cards"][half:]}
        tr["cards"] = tr["cards"][:half]
        self.treasures[s].append(new)
        self._events.append(
            {"type": "treasure_split", "seat": s, "treasure": label, "consent": consent}
        )

    def _take_unassigned(self, s, k):
        """Remove and return up to ``k`` loose Dataset cards, least valuable first."""
        taken = self.frozen[s][:k]
        del self.frozen[s][:k]
        rest = _least_valuable(self.collections[s])[: k - len(taken)]
        for c in rest:
            self.collections[s].remove(c)
        return taken + rest

    def _return(self, cards):
        """Shuffle ``cards`` back into the deck: each at a random place in it."""
        self.rng.shuffle_in(self.deck, cards)

    # --------------------------------------------------------------- turn flow

    def _advance(self):
        """Walk the turn stages until someone must act or the game ends.

        Each stage has its step (``STAGES``): it returns True when the turn player must
        act in that stage, else it moves the stage on. An open window comes first. A
        step that opens no window takes the next stage's step itself: the usual end of
        a turn (after, end, next, start, play) is one chain of calls."""
        while not self.over:
            if self.windows:
                if self._settle(self.windows[0]):
                    return
            elif STAGES[self.stage](self):
                return

    def _settle(self, w):
        """Return True if window ``w`` awaits an answer; else close it as it stands."""
        if w["kind"] == "loss" and not self._loss_options(w["seat"]):
            self.windows.pop(0)
            self._loss_fallback(w["seat"], w["cause"])
            return False
        if w["kind"] == "freeze" and not self.collections[w["seat"]]:
            self.windows.pop(0)
            return False
        return True

    def _await_play(self):
        """Wait for the card play if the turn player holds a card it may play (not an
        uncalled or hidden one); else go on to what may follow it."""
        s = self.turn
        if self.undeclared[s] or self.hidden[s]:
            if self._playable(s):
                return True
        elif self.hands[s]:
            return True
        self.stage = "after"
        return False

    def _await_free(self):
        """Wait while a build or a split may follow the card play (or stand in for one);
        else end the turn.

        Most turns end with nothing to count down and pass to a next seat that plays at
        once: that is done here, as ``_end_turn``, ``_next_turn`` and ``_start_turn``
        would do it, without their three calls."""
        s = self.turn
        # the build-or-split test, inline as in ``_turn_actions``: a call more per move
        if (
            (self.purposes[s] and len(self.collections[s]) >= TREASURE_SIZE)
            or (self.consents[s] and self.treasures[s])
        ) and self._free_actions(s):
            return True
        if self.hidden[s] or self.transparent[s] or self.threats:
            return self._end_turn()
        t = (s + 1) % self.n
        if self.hands[t] and not (self.skips[t] or self.undeclared[t] or self.hidden[t]):
            self.turn, self.stage = t, "play"
            self._events.append({"type": "turn", "seat": t})
            return True
        return self._end_turn()

    def _start_turn(self):
        """Begin the turn: open the DATABREACH! (first) or DATA! call window if due."""
        s = self.turn
        self.stage = "play"
        self._events.append({"type": "turn", "seat": s})
        pending = self.undeclared[s]
        if not pending:
            # the usual turn, a hand with no card blocked, waits at once: no call more
            return (self.hands[s] and not self.hidden[s]) or self._await_play()
        if "databreach" in map(KIND.__getitem__, pending):
            self._open("call_databreach", s, self.options["call_seconds"])
        else:
            self._open("call_data", s, self.options["call_seconds"])
        return False

    def _end_turn(self):
        """Finish the turn: a hidden breach comes out, open hands and Time deadlines count down."""
        s = self.turn
        self.stage = "next"
        if self.hidden[s]:
            cards = self.hidden[s]
            self.hidden[s] = []
            for c in cards:
                self.hands[s].remove(c)
            self.pile += cards
            self._events.append({"type": "databreach_discovered", "seat": s, "cards": cards})
            for card in cards:
                self._open_counter(s, "hidden_breach", None, card)
        if self.transparent[s] or self.threats:
            self._count_turn(s)
        return False if self.windows else self._next_turn()

    def _count_turn(self, s):
        """Count one of ``s``'s turns, played, lost or skipped: an open hand and a Time
        deadline in turns run down."""
        if self.transparent[s]:
            self.transparent[s] -= 1
        if self.threats:
            self._count_down_time(s)

    def _count_down_time(self, s):
        """Count down the Time deadlines on ``s``'s turns; one run out opens its loss.

        A method of its own, called only while a Time card runs: its list comprehension
        reads ``s`` through a closure cell, which a function makes on every call."""
        for threat in [t for t in self.threats if t["seat"] == s and "turns" in t]:
            threat["turns"] -= 1
            if threat["turns"] <= 0:
                self.threats.remove(threat)
                self._events.append({"type": "time_up", "seat": s})
                self._open_loss(s, "time")

    def _next_turn(self):
        """Pass the turn clockwise, dealing when every hand is empty; end when all is played."""
        hands, n = self.hands, self.n
        s = (self.turn + 1) % n
        if hands[s] and not self.skips[s]:  # the usual pass: no deal, no seat skipped
            self.turn = s
            return self._start_turn()
        if not any(hands):
            if not self.deck:
                self._finish()
                return False
            first = (self.turn + 1) % n
            if len(self.deck) >= HAND_SIZE * n:
                self._deal_round(first)
            else:
                self._draw(first, HAND_SIZE)
                self._events.append(
                    {"type": "deal", "counts": [*map(len, hands)], "deck": len(self.deck)}
                )
        s = self.turn
        while True:  # ends: each pass over skipped seats lowers their skip counts
            s = (s + 1) % n
            if not hands[s]:
                continue
            if self.skips[s]:
                self.skips[s] -= 1
                self._events.append({"type": "turn_skipped", "seat": s, "left": self.skips[s]})
                self._forfeit_play(s)
                # a skipped turn is a turn: the next one may need a deal first, and it
                # counts for an open hand and a Time deadline as a played one
                self.turn, self.stage = s, "next"
                if self.transparent[s] or self.threats:
                    self._count_turn(s)
                return False
            break
        self.turn = s
        return self._start_turn()  # no window is open here: the new turn begins at once

    def _deal_round(self, first):
        """Deal 3 cards to every seat, starting at ``first``."""
        for i in range(self.n):
            self._draw((first + i) % self.n, HAND_SIZE)
        self._events.append(
            {"type": "deal", "counts": [*map(len, self.hands)], "deck": len(self.deck)}
        )

    def _draw(self, s, k):
        """Move up to ``k`` cards from the deck to ``s``'s hand; a Purpose or Consent lifts Time."""
        deck = self.deck
        cut = max(len(deck) - k, 0)
        drawn = deck[cut:]
        del deck[cut:]
        drawn.reverse()  # drawn from the top: the end of the list
        self.hands[s] += drawn
        for c in drawn:
            if c in TO_CALL:
                self.undeclared[s].append(c)
        if self.threats and any(KIND[c] in ("purpose", "consent") for c in drawn):
            self._lift_time(s)

    def _lift_time(self, s):
        """Lift ``s``'s Time deadlines (it drew a Purpose or a Consent), as ``_draw``'s
        own method: its list comprehension would make a closure cell on every draw."""
        mine = [t for t in self.threats if t["seat"] == s]
        if mine:
            for t in mine:
                self.threats.remove(t)
            self._events.append({"type": "time_lifted", "seat": s})

    def _finish(self):
        """End the game and announce the result."""
        self.over, self.stage, self.threats = True, "over", []
        res: dict = self.result()  # type: ignore[assignment]  # over is set: a dict, not None
        self._events.append(
            {"type": "game_over", "winners": res["winners"], "decided_by": res["decided_by"]}
        )

    def _open(self, kind, seat, seconds, **extra):
        """Queue a window for ``seat``; it gets a timer once it is the first in the queue."""
        self.serial += 1
        self.windows.append(
            {"id": f"w{self.serial}", "kind": kind, "seat": seat, "seconds": seconds, **extra}
        )


_ZONES = (
    "deck",
    "table",
    "pile",
    "hands",
    "reserves",
    "collections",
    "frozen",
    "purposes",
    "consents",
    "treasures",
    "undeclared",
    "hidden",
)

# The zones that hold one flat list of cards per seat (what ``copy`` copies alike).
_SEAT_ZONES = tuple(z for z in _ZONES if z not in ("deck", "table", "pile", "treasures"))

# Each Dataset card's plays, made once: {captured card: capture action}, and its lay
# action. A legal-action list shares them (``_legal_list``: never mutated), and
# ``legal_actions`` hands out copies.
CAPTURE_ACTIONS = {
    c: {t: {"type": "play", "card": c, "capture": t} for t in sorted(CAPTURES[c])}
    for c in KIND
    if KIND[c] == "dataset"
}
LAY_ACTIONS = {c: {"type": "play", "card": c} for c in CAPTURE_ACTIONS}
# The answers to a window and the end of a turn, made once and shared alike: a call, a
# counter by the kind of card played (any kind a held card may have), the freeze of
# each card.
CALL_ACTIONS = {kind: {"type": kind} for kind in CALLS}
COUNTER_ACTIONS = {kind: {"type": "counter", "kind": kind} for kind in set(KIND.values())}
ACCEPT = {"type": "accept"}
FREEZE_ACTIONS = {c: {"type": "freeze", "card": c} for c in KIND}
LOSE_DATASETS = {"type": "lose", "what": "datasets"}
END_TURN = {"type": "end_turn"}
# A Dataset card's plays in one look-up: the cards it captures, its lay action and its
# capture actions; None for a special card. Every card id is a key, so the legal-action
# list reads it by subscript, not by a call to get.
DATASET_PLAYS = {
    c: (CAPTURES[c], LAY_ACTIONS[c], CAPTURE_ACTIONS[c]) if c in CAPTURE_ACTIONS else None
    for c in KIND
}


class _Plays(NamedTuple):
    """A special card's plays, made once and shared alike: ``kept`` its keep and
    set-aside actions, ``target`` what its attack needs (see ``State._targets``),
    ``attacks`` its attack action on each seat, ``discard`` its discard action."""

    kept: tuple
    target: str | None
    attacks: tuple
    discard: dict


def _special_plays(c, rule):
    """Return the shared plays of special card ``c`` under ``rule``."""
    kept = []
    if rule.keep:
        kept.append({"type": "keep", "card": c})
    if rule.set_aside:
        kept.append({"type": "set_aside", "card": c})
    attacks = tuple(
        {"type": "attack", "card": c, "target": t} for t in range(DataTycoon.max_players)
    )
    return _Plays(tuple(kept), rule.target, attacks, {"type": "discard", "card": c})


SPECIAL_PLAYS = {
    c: _special_plays(c, CARD_RULES[kind]) for c, kind in KIND.items() if kind in CARD_RULES
}
# Every seat but one, in seat order, by table size: the seats an attack may aim at.
OTHERS = {
    n: tuple(tuple(t for t in range(n) if t != s) for s in range(n))
    for n in range(DataTycoon.min_players, DataTycoon.max_players + 1)
}

# The cards to call (DATA! or DATABREACH!) once drawn: one set test per card drawn.
TO_CALL = frozenset(c for c, kind in KIND.items() if kind in ("purpose", "databreach"))

# The step of each stage of the turn (see ``State._advance``).
STAGES = {
    "start": State._start_turn,
    "play": State._await_play,
    "after": State._await_free,
    "end": State._end_turn,
    "next": State._next_turn,
}

EFFECTS = {
    "sanction": State._sanction,
    "complaint": State._complaint,
    "minimization": State._minimization,
    "transparency": State._transparency,
    "time": State._time,
}


def _timer(timer_id, seconds):
    """Return a timer dict with its expiry action."""
    return {"id": timer_id, "seconds": seconds, "action": {"type": "expire", "timer": timer_id}}


def _bases(collection):
    """Return the treasure bases ``collection`` can fill: colours with 6 cards, "sensitive"."""
    colours = [*map(COLOUR.__getitem__, collection)]  # counted in C, not card by card
    bases = [colour for colour in COLOURS if colours.count(colour) >= TREASURE_SIZE]
    if sum(map(SENSITIVE.__getitem__, collection)) >= TREASURE_SIZE:
        bases.append("sensitive")
    return bases


def _least_valuable(cards):
    """Return ``cards`` ordered for losing: simple before sensitive, oldest first."""
    return sorted(cards, key=SENSITIVE.__getitem__)


DataTycoon.state_class = State
