"""The game protocol as two abstract classes (OpenSpiel style).

A game subclasses ``Game`` (static facts, the state factory and what the platform
shows of it) and ``State`` (one match in progress). Seats are ints ``0..n-1``;
``None`` is the referee, which only sends the expiry actions listed by
``state.timers()``.

The platform (live play, the dashboard, lessons, the debrief) knows a game only
through these two classes: ``docs/adding-a-game.md`` walks through each part.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from games.engine.i18n import Text, gettext_noop
from games.engine.rng import RandomSource, Rng

if TYPE_CHECKING:
    from typing import Self

    from games.engine.bots import Bot

# A game's own State class: its Game and its Debrief take and make states of that class.
StateT = TypeVar("StateT", bound="State")


@dataclass(frozen=True)
class ScoreColumn:
    """One column of a seat's scores: ``state.scores()`` gives it under ``key``.

    ``chart``: how the debrief draws it move by move ("step", "line"), "" for not at all.
    """

    key: str
    label: str  # a column heading, marked with gettext_noop
    short: str  # the word before the number on the dashboard ("treasures 2")
    chart: str = ""


@dataclass(frozen=True)
class Option:
    """A match option a teacher may set per session: an integer in a range, a choice, or
    (``multiple``) any set of the choices, as a list in the choices' order."""

    key: str
    label: str  # marked with gettext_noop
    default: int | str | tuple[str, ...]
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[tuple[str, str], ...] = ()  # (value, label marked with gettext_noop)
    help: str = ""
    multiple: bool = False

    def clean(self, value: object) -> int | str | list[str]:
        """Return ``value`` as this option's type; raise ValueError if it is not allowed."""
        allowed = [choice for choice, _label in self.choices]
        if self.multiple:
            if not isinstance(value, list | tuple) or not set(value) <= set(allowed):
                raise ValueError(f"{self.key} must be a list of {allowed}")
            return [choice for choice in allowed if choice in value]
        if self.choices:
            if value not in {choice for choice, _label in self.choices}:
                raise ValueError(f"{self.key} must be one of {[c for c, _l in self.choices]}")
            return str(value)
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise ValueError(f"{self.key} must be a whole number")
        try:
            number = int(value)
        except ValueError:
            raise ValueError(f"{self.key} must be a whole number") from None
        if self.minimum is not None and number < self.minimum:
            raise ValueError(f"{self.key} must be at least {self.minimum}")
        if self.maximum is not None and number > self.maximum:
            raise ValueError(f"{self.key} must be at most {self.maximum}")
        return number


@dataclass(frozen=True)
class Zone:
    """A named place of cards in ``state.to_json()``: ``key`` holds one list per seat
    (a seat zone) or one list (a table zone)."""

    key: str
    label: str  # marked with gettext_noop
    # Face down in play (a deck): the replay lists it folded, under its count.
    face_down: bool = False


class Line(str):
    """A line of "How to play" about certain card kinds: shown only when every kind it
    ``needs`` is dealt, and one at least of ``any_of`` (if given), so that a class
    playing without a card never reads about it. A plain ``str`` line is always shown."""

    needs: tuple[str, ...]
    any_of: tuple[str, ...]

    def __new__(cls, text: str, needs: tuple[str, ...] = (), any_of: tuple[str, ...] = ()) -> Line:
        line = super().__new__(cls, text)
        line.needs, line.any_of = tuple(needs), tuple(any_of)
        return line

    def shown_with(self, kinds: set[str]) -> bool:
        """Tell whether the line belongs in the rules of a match dealing ``kinds``."""
        return set(self.needs) <= kinds and (not self.any_of or bool(kinds & set(self.any_of)))


@dataclass(frozen=True)
class HowToPlay:
    """One section of a game's "How to play" for students: a heading and a few short
    sentences, each marked with gettext_noop (the platform shows them translated).

    ``variants`` names the variants the section is about (cards only some variants
    deal); empty means every variant, so a beginner never reads about cards they will
    not see."""

    heading: str
    lines: tuple[str, ...]
    variants: tuple[str, ...] = ()

    def applies_to(self, variant: str) -> bool:
        return not self.variants or variant in self.variants

    def lines_for(self, kinds: set[str]) -> list[str]:
        """Return the lines to show when the cards dealt are of ``kinds``."""
        return [line for line in self.lines if not isinstance(line, Line) or line.shown_with(kinds)]


@dataclass(frozen=True)
class Tally:
    """One line of a table's summary in the debrief ("Phishing: 3 attacks, 2 stopped"),
    with an ``event`` of the kind it counts: the platform shows that event's lesson."""

    text: Text
    event: dict


class Debrief(Generic[StateT]):
    """What a game adds to the teacher's debrief of one table, replayed move by move.

    The platform replays the match and calls ``before`` and ``after`` around each
    action, so a game can note what only the state before an action knows; then it
    asks for the table's summary lines (``tally``, under ``tally_heading``) and its
    discussion prompts. The default notes nothing.
    """

    # The heading of the table's summary lines, marked with gettext_noop.
    tally_heading: str = ""

    def before(self, state: StateT, seat: int | None, action: dict) -> None:
        """Look at the state before an action is applied."""

    def after(self, state: StateT, version: int, events: list[dict]) -> None:
        """Look at the state and the events after an action."""

    def tally(self, table: TableSummary) -> list[Tally]:
        """Return the table's summary lines, each with an event whose lesson it is about."""
        return []

    def prompts(self, table: TableSummary) -> list[Text]:
        """Return this table's discussion prompts, the most striking first."""
        return []

    def winner_prompt(self, table: TableSummary) -> Text | None:
        """Return a question about how the winner won, or None."""
        return None


@dataclass
class TableSummary:
    """A replayed table as the debrief sees it (names, not seats, for people)."""

    number: int
    names: dict[int, str]  # seat -> nickname or bot name
    events: list[tuple[int, dict]]  # (version, event) of the notable events, in order
    scores: list[dict]
    ranks: dict[int, int]
    winners: list[str]
    over: bool

    def name(self, seat: int | None) -> str:
        """Return the name at ``seat`` (a neutral one if unknown)."""
        # dict.get takes any key (None, the referee, gets the default): typeshed wants an int
        return self.names.get(seat, f"Player {(seat or 0) + 1}")  # type: ignore[arg-type]

    def first(self, event_type: str, **match: object) -> dict | None:
        """Return the first notable event of ``event_type`` whose fields match ``match``."""
        for _version, event in self.events:
            if event["type"] == event_type and all(event.get(k) == v for k, v in match.items()):
                return event
        return None


class Game(Generic[StateT]):
    """Describe one game: its cards, variants, bots, and how to start a match.

    The class attributes after ``bots`` are what the platform shows of the game.
    """

    slug = ""
    name: dict[str, str] = {}  # by language
    min_players = 2
    max_players = 2
    variants: dict[str, dict[str, str]] = {}  # each variant's name by language
    variant_descriptions: dict[str, dict[str, str]] = {}
    default_variant = ""
    # Bot classes by name (``game.bot(name)`` makes one); every game has "random" and
    # "heuristic"; a class with a ``level`` is one a teacher may pick for a session.
    bots: dict[str, type[Bot]] = {}
    # Teacher-set options, validated by ``clean_options`` and passed to ``new_state``.
    options: tuple[Option, ...] = ()
    # The columns of ``state.scores()``, in the order a ranking compares them.
    score_columns: tuple[ScoreColumn, ...] = ()
    # Event types worth a line on the dashboard and the debrief's timeline.
    notable_events: frozenset[str] = frozenset()
    # Event types a lesson may be linked to, with the words a teacher reads.
    event_labels: dict[str, str] = {}
    # Event fields that name a seat the event concerns (it opens their lesson card).
    seat_fields: tuple[str, ...] = ("seat", "target", "attacker")
    # Card attributes (besides "kind") a lesson link may name, most specific first.
    link_attributes: tuple[str, ...] = ()
    # The zones the teacher's replay shows: one list per seat, and on the table.
    seat_zones: tuple[Zone, ...] = ()
    table_zones: tuple[Zone, ...] = ()
    # A true card attribute that the replay and the debrief highlight ("" for none), and
    # what the highlighted cards are, for the replay's legend (marked with gettext_noop).
    highlight: str = ""
    highlight_label: str = ""
    # The rules in a few plain sentences, shown to students in the lobby and the game.
    how_to_play: tuple[HowToPlay, ...] = ()
    # Offered on the session form: False until the game's browser board exists.
    in_class: bool = True
    # The option defaults a variant changes: ``{variant: {key: value}}``.
    variant_options: dict[str, dict] = {}
    # The game's State class, which ``new_state`` and ``from_json`` make: every game sets
    # it (the checker is not told of the None of this abstract class).
    if TYPE_CHECKING:
        state_class: type[StateT]
    else:
        state_class = None
    # The option that carries built decks (deck building), "" when the game has none:
    # a list of decks, each a list of card keys; seat s plays deck s modulo their
    # number. It is not a field of the session form: the deck builder fills it.
    deck_option: str = ""

    def cards(self, variant: str, kinds: frozenset[str] | None = None) -> list[dict]:
        """Return the card catalogue of ``variant``: one dict per card instance.

        ``kinds`` are the card kinds a match deals (``dealt_kinds``; default: the
        variant's whole deck): a card's text names only those, so a card left out of a
        session is never said to stop another."""
        raise NotImplementedError

    def check_variant(self, variant: str) -> None:
        """Raise ValueError unless ``variant`` is one of the game's variants."""
        if variant not in self.variants:
            raise ValueError(f"unknown variant {variant!r}")

    def check_table(self, num_players: int, variant: str) -> None:
        """Raise ValueError unless a match of ``variant`` may have ``num_players`` seats."""
        self.check_variant(variant)
        if not self.min_players <= num_players <= self.max_players:
            low, high = self.min_players, self.max_players
            raise ValueError(f"{self.slug} needs {low} to {high} players, not {num_players}")

    def default_options(self, variant: str) -> dict:
        """Return every option's value for ``variant`` before the teacher sets any."""
        defaults = {option.key: option.default for option in self.options}
        return {**defaults, **self.variant_options.get(variant, {})}

    def new_state(
        self, num_players: int, seed: int, variant: str | None = None, options: dict | None = None
    ) -> StateT:
        """Return a new match, dealt from ``seed``."""
        return self.state_class(self, num_players, seed, variant or self.default_variant, options)

    def from_json(self, data: dict) -> StateT:
        """Return the state that ``state.to_json()`` produced ``data`` from."""
        return self.state_class.from_json(self, data)

    def seat_role(self, num_players: int, seat: int) -> str:
        """Return the role of ``seat`` at a table of ``num_players`` ("" when every seat
        plays the same game); the simulator reports win rates per role."""
        return ""

    def dealt_kinds(self, variant: str, options: dict | None = None) -> set[str]:
        """Return the kinds of the cards a match of ``variant`` with ``options`` deals."""
        return {card["kind"] for card in self.cards(variant)}

    def bot(self, name: str) -> Bot:
        """Return a new bot of kind ``name`` (a key of ``bots``) for this game."""
        return self.bots[name](self)

    def sample_state(self, view: dict, rng: RandomSource) -> StateT:
        """Return a full state that ``view`` (one seat's) could have come from.

        What the seat cannot see (the deck's order, other seats' hidden cards) is
        drawn with ``rng``; the seat's own view of the result equals ``view``. A bot
        that searches ahead (``games.engine.search``) plays on such states: it never
        sees the true one.
        """
        raise NotImplementedError

    def evaluate(self, state: StateT) -> list[float]:
        """Return each seat's chance of winning from ``state``, in [0, 1].

        At the end: a winner's share (1/k for k winners), 0 for the others. Before the
        end this default guesses the same from the current ranking; a game may weigh
        what is under way (cards almost collected, defences held).
        """
        ranks = self.rank(state.scores())
        first = [seat for seat, rank in ranks.items() if rank == 1]
        return [1 / len(first) if seat in first else 0.0 for seat in range(len(ranks))]

    def rollout_action(
        self, state: StateT, seat: int, legal: list[dict], rng: RandomSource
    ) -> dict:
        """Return a quick guess of ``seat``'s move in a search's playout (default: random)."""
        return legal[rng.randrange(len(legal))]

    def clean_options(self, options: dict) -> dict:
        """Return ``options`` checked against ``self.options``; raise ValueError if bad.

        Built decks (``deck_option``) are checked for their shape only here: whether
        they keep the deck-building rules depends on the variant and the table size,
        so ``new_state`` checks that (``check_deck``).
        """
        known = {option.key: option for option in self.options}
        options = dict(options)
        decks = options.pop(self.deck_option, None) if self.deck_option else None
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise ValueError(f"unknown option {unknown[0]!r}")
        cleaned: dict = {key: known[key].clean(value) for key, value in options.items()}
        if decks is not None:
            cleaned[self.deck_option] = _clean_decks(decks)
        return cleaned

    def deck_catalogue(self) -> list[dict]:
        """Return the cards a built deck may hold (none: no deck building), each
        ``{"key", "name" (by language), "kind", "set", "allowed"}`` (copies a deck may
        hold at most, by the simplest rule that applies; ``check_deck`` is the judge)."""
        return []

    def starter_decks(self) -> dict[str, dict]:
        """Return the ready-made decks a deck may start from: ``{key: {"label" (marked
        with gettext_noop), "cards": [card keys]}}``."""
        return {}

    def check_deck(self, keys: list[str], variant: str, num_players: int) -> list[Text]:
        """Return every deck-building rule the deck of card ``keys`` breaks in a match
        of ``variant`` for ``num_players`` (an empty list: the deck may be played)."""
        return [Text(gettext_noop("This game has no deck building."))]

    def describe_event(
        self,
        event: dict,
        player_name: Callable[[int], str] | None = None,
        card_name: Callable[[str], str] | None = None,
    ) -> tuple[str, dict]:
        """Return ``(template, params)``: the event's log line, ready for ``gettext``."""
        raise NotImplementedError

    def event_seats(self, event: dict) -> list[int]:
        """Return the seats an event concerns, from its ``seat_fields``."""
        seats = (event.get(key) for key in self.seat_fields)
        return sorted({seat for seat in seats if isinstance(seat, int)})

    def rank(self, scores: list[dict]) -> dict[int, int]:
        """Return each seat's rank (1 = first; ties share) by the score columns in order."""
        keys = [column.key for column in self.score_columns]
        ordered = sorted(scores, key=lambda score: [-score[key] for key in keys])
        ranks, previous, rank = {}, None, 0
        for position, score in enumerate(ordered, start=1):
            key = [score[k] for k in keys]
            if key != previous:
                rank, previous = position, key
            ranks[score["seat"]] = rank
        return ranks

    def link_keys(self, card: dict) -> list[dict[str, str]]:
        """Return the attribute sets a lesson link may name for ``card``, most specific first.

        Each is a dict of some of ``link_attributes`` with the card's values; the last is
        ``{}`` (a link for every card of the kind).
        """
        present = [a for a in self.link_attributes if card.get(a)]
        keys = []
        for size in range(len(present), -1, -1):
            for subset in _subsets(present, size):
                keys.append({attribute: card[attribute] for attribute in subset})
        return keys

    def link_name(self, kind: str, attributes: dict[str, str]) -> Text | None:
        """Return the name of the cards a lesson link names (``kind`` and some of
        ``link_attributes``) when they are several cards with a name of their own: every
        card of a kind ("Attack card"), a data category; None when the name of the first
        card that matches says it ("Purpose: profiling", or "Purpose" for every Purpose
        card, the part before a colon), the default."""
        return None

    def seat_notes(self, data: dict, seat: int) -> list[Text]:
        """Return short notes on a seat in the replay (``data``: the state's ``to_json``)."""
        return []

    def card_groups(self, data: dict, seat: int) -> list[dict]:
        """Return a seat's groups of cards in the replay: ``{"title", "label", "cards"}``.

        ``title`` is a template marked with gettext_noop, in which ``%(label)s`` stands
        for the name of the card ``label``; ``cards`` are card ids.
        """
        return []

    def debrief(self) -> Debrief[StateT]:
        """Return a fresh observer of one table's replay for the debrief."""
        return Debrief()


def _clean_decks(decks: object) -> list[list[str]]:
    """Return built decks as a list of lists of card keys; raise ValueError if not one."""
    if not isinstance(decks, list | tuple) or not decks:
        raise ValueError("decks must be a non-empty list of decks")
    for deck in decks:
        if not isinstance(deck, list | tuple) or not all(isinstance(k, str) for k in deck):
            raise ValueError("a deck must be a list of card keys")
    return [list(deck) for deck in decks]


def _subsets(items: list, size: int) -> list[tuple]:
    """Return the subsets of ``items`` of ``size``, in the order of ``items``."""
    if size == 0:
        return [()]
    if len(items) < size:
        return []
    head, rest = items[0], items[1:]
    return [(head, *tail) for tail in _subsets(rest, size - 1)] + _subsets(rest, size)


def ranking(keys: list[tuple]) -> list[list[int]]:
    """Return the seats grouped by equal score ``keys`` (one tuple per seat, compared in
    order, higher first), the best group first; a group lists its seats in seat order."""
    order = sorted(range(len(keys)), key=lambda s: (tuple(-k for k in keys[s]), s))
    groups: list[list[int]] = []
    for s in order:
        if groups and keys[groups[-1][0]] == keys[s]:
            groups[-1].append(s)
        else:
            groups.append([s])
    return groups


# No seat, for ``peek_legal_actions``'s cache: every apply sets ``_legal_seat`` to it.
UNASKED = object()


class State:
    """One match: who moves, what is legal, what each seat sees, how it ends."""

    # A game's state may keep its attributes in slots of its own (or in a dict). The checker
    # reads ``__slots__ = ()`` as no attribute at all: it is told of those every state has.
    if TYPE_CHECKING:
        __slots__ = (
            "_events", "_legal_acts", "_legal_seat", "game", "n", "options", "rng", "seed",
            "variant",
        )  # fmt: skip
    else:
        __slots__ = ()

    # What every state holds: set by ``start``, or by a game's own ``__init__`` and
    # ``from_json``.
    game: Game
    n: int
    seed: int
    variant: str
    options: dict
    rng: Rng
    _legal_seat: object  # a seat number, None (the referee) or UNASKED
    _legal_acts: list[dict]
    _events: list[dict]

    if TYPE_CHECKING:
        # Every game's State is made so, and rebuilt by ``from_json``.
        def __init__(
            self,
            game: Game,
            num_players: int,
            seed: int,
            variant: str,
            options: dict | None = None,
        ) -> None: ...

        @classmethod
        def from_json(cls, game: Game, data: dict) -> Self: ...

    def start(
        self, game: Game, num_players: int, seed: int, variant: str, options: dict | None
    ) -> None:
        """Check the table and set what every new match has: its game, seat count ``n``,
        seed, variant, options (the defaults, then the teacher's, checked) and ``rng``."""
        game.check_table(num_players, variant)
        self.game, self.n, self.seed, self.variant = game, num_players, seed, variant
        self.options = {**game.default_options(variant), **game.clean_options(options or {})}
        self.rng = Rng(seed)
        self._legal_seat, self._events = UNASKED, []

    def to_move(self) -> list[int]:
        """Return the seats that may act now: none once the match is over (a driver asks
        ``is_over`` only when nobody may act)."""
        raise NotImplementedError

    def _compute_legal(self, seat: int | None) -> list[dict]:
        """Compute the legal actions of ``seat``: a game's one source of legality."""
        raise NotImplementedError

    def peek_legal_actions(self, seat: int | None) -> list[dict]:
        """Return the legal actions of ``seat`` as the state holds them: the same list as
        ``legal_actions`` without its copies, to read and never to mutate (a driver that
        plays one of many actions copies that one only). The state keeps the list of the
        last seat asked (``_legal_seat``, ``UNASKED`` after every apply, and
        ``_legal_acts``): in play one seat asks, often twice, and a dict made per apply cost
        more. Anything but a seat number or ``None`` has none."""
        if seat is self._legal_seat:  # a seat number or None: the same object
            return self._legal_acts
        # an exact int or None is the usual case: it skips the two isinstance calls
        if (
            type(seat) is not int
            and seat is not None
            and (isinstance(seat, bool) or not isinstance(seat, int))
        ):
            return []
        acts = self._legal_acts = self._compute_legal(seat)
        self._legal_seat = seat
        return acts

    # The name the games' ``apply`` and ``legal_actions`` use: one method, not a call more.
    _legal_list = peek_legal_actions

    def legal_actions(self, seat: int | None) -> list[dict]:
        """Return the actions ``seat`` (or the referee, ``None``) may take now."""
        raise NotImplementedError

    def apply(self, seat: int | None, action: dict) -> list[dict]:
        """Apply a legal action and return its events; raise IllegalAction otherwise."""
        raise NotImplementedError

    def apply_legal(self, seat: int | None, action: dict) -> list[dict]:
        """Apply ``action``, which the caller found in ``peek_legal_actions(seat)`` since
        the last apply, and return its events, to read and never to change (a game may
        return the list it keeps). A game may skip the legality check that ``apply``
        makes (a driver has just made it); by default this is ``apply``."""
        return self.apply(seat, action)

    def timers(self) -> list[dict]:
        """Return the running timers as ``{"id", "seconds", "action"}`` dicts."""
        return []

    def timer_info(self, timer_id: str) -> dict:
        """Return what a running timer waits for, and who may know of it.

        ``{"kind": str, "seat": int | None, "visible_to": list[int] | None}``: ``kind``
        and ``seat`` go to the clients with the deadline; ``visible_to`` None means every
        seat and the public view.
        """
        return {"kind": "time", "seat": None, "visible_to": None}

    def view(self, seat: int | None) -> dict:
        """Return what ``seat`` may see (``None``: the public, projector view)."""
        raise NotImplementedError

    def private_cards(self, seat: int) -> list[str]:
        """Return the ids of the cards that only ``seat`` may see now."""
        raise NotImplementedError

    def zones(self) -> dict[str, list[str]]:
        """Return every zone's card ids, to check that no card is created or lost."""
        raise NotImplementedError

    def scores(self) -> list[dict]:
        """Return one dict per seat: ``{"seat": s, <score column key>: int, ...}``."""
        raise NotImplementedError

    def is_over(self) -> bool:
        """Return True once the match has ended."""
        raise NotImplementedError

    def result(self) -> dict | None:
        """Return the ranking, scores and the tie-break level that decided (None before the end)."""
        raise NotImplementedError

    def to_json(self) -> dict:
        """Return a JSON-able dict from which ``game.from_json`` rebuilds this state."""
        raise NotImplementedError

    def copy(self) -> State:
        """Return an independent copy (a search plays ahead on copies); a game may make
        this faster than the JSON round trip."""
        return self.game.from_json(self.to_json())

    def dumps(self) -> str:
        """Return ``to_json()`` as canonical JSON text (stable key order)."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))


class FieldsState(State):
    """A State kept as plain JSON attributes named in ``fields``, beside its game, its
    seat count ``n`` and its ``rng``: ``to_json`` and ``from_json`` once for such games.
    ``slug`` and ``format`` mark what ``from_json`` accepts."""

    # Slots: a game's state declares its ``fields`` as its own ``__slots__``. Attributes in
    # slots are read at a fixed offset; in an instance dict CPython 3.11 keeps at most 29
    # inline, and past that every attribute access goes through a real dict.
    __slots__ = ("_events", "_legal_acts", "_legal_seat", "game", "n", "rng")

    slug = ""
    format = 1
    fields: tuple[str, ...] = ()

    def to_json(self) -> dict:
        """Return the whole state as JSON-able data (an independent copy)."""
        d = {
            "game": self.slug,
            "format": self.format,
            "num_players": self.n,
            "rng": str(self.rng.state),
        }
        for name in self.fields:
            d[name] = getattr(self, name)
        return json.loads(json.dumps(d))

    @classmethod
    def from_json(cls, game: Game, data: dict) -> Self:
        """Rebuild a state from ``to_json`` output."""
        d = json.loads(json.dumps(data))
        if d.get("game") != cls.slug or d.get("format") != cls.format:
            raise ValueError(f"not a {cls.slug} state of this format")
        self = cls.__new__(cls)
        self.game, self.n, self.rng = game, d["num_players"], Rng(int(d["rng"]))
        for name in cls.fields:
            setattr(self, name, d[name])
        self._legal_seat, self._events = UNASKED, []
        return self

    def copy(self) -> Self:
        """Return an independent copy: one JSON round trip of the fields (a search plays
        ahead on copies)."""
        cls = type(self)
        new = cls.__new__(cls)
        new.game, new.n, new.rng = self.game, self.n, Rng(self.rng.state)
        fields = json.loads(json.dumps({name: getattr(self, name) for name in cls.fields}))
        for name, value in fields.items():
            setattr(new, name, value)
        new._legal_seat, new._events = UNASKED, []
        return new
