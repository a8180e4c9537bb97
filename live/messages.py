"""The table protocol's messages, built from the stored match: ``hello``, ``state``
(with its deadline, log lines and lesson pause) and the players of ``presence``.

Two ways in: a socket that connects, resyncs or missed a version builds its own seat's
messages from the stored table (``load_table``, ``state_message``); after an accepted
action the write path builds every listening seat's ``state`` once, from the state it
has just applied (``action_states``), and sends each to its seat's sockets.

Game-agnostic: everything goes through the engine protocol (``view``,
``legal_actions``, ``to_move``, ``timer_info``) and the game's text module, so a new
game plugs in without a change here. Read-only: the writes are in live.write.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

import orjson
from django.conf import settings
from django.db.models import QuerySet
from django.utils import translation

from classroom.kept import Kept
from classroom.models import ClassSession, Seat, Table
from classroom.presence import seat_players, table_seats
from games import clock
from games.describe import card_namer, catalogue_in, dealt_kinds, event_line
from games.engine.base import State
from games.matches import Applied, load_state
from games.models import Match, MatchAction, MatchHold, MatchTimer
from games.prepared import PreparedQuery


def json_bytes(message: object) -> bytes:
    """Return a protocol message (or a part of one) as compact JSON (orjson: a state is
    written after every action; a view may have integer keys, written as text)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)


def state_with_log(state: bytes, log: bytes) -> bytes:
    """Return a state written by ``json_bytes`` with its ``log`` (JSON too) joined: a
    state is a JSON object without a "log", so the log goes in before its last brace."""
    return b"".join((state[:-1], b',"log":', log, b"}"))


def iso(moment: datetime) -> str:
    """Return a UTC time as ISO 8601 with milliseconds and a Z."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def bot_kinds(seats: Iterable[Seat]) -> dict[int, str]:
    """Return ``{seat number: bot kind}`` of the seats among ``seats`` a bot plays now."""
    return {seat.number: seat.bot_kind for seat in seats if seat.bot_kind}


@dataclass
class TableSnapshot:
    """A table as stored now: its match, engine state, seats, pause and running timers."""

    table: Table
    match: Match
    state: State
    seats: list[Seat]
    paused: bool
    lesson_pause: dict | None = None
    timers: list[MatchTimer] = field(default_factory=list)

    def bot_plays(self, seat_number: int) -> bool:
        """Tell whether a bot plays the seat now (a bot's seat, or one handed to a bot)."""
        return seat_number in self.bot_seats()

    def bot_seats(self) -> dict[int, str]:
        """Return ``{seat number: bot kind}`` of the seats a bot plays now."""
        return bot_kinds(self.seats)

    def name_of(self, seat_number: int) -> str:
        """Return the nickname (or bot name) at a seat."""
        for seat in self.seats:
            if seat.number == seat_number:
                return seat.display_name
        return str(seat_number + 1)


def load_table(table_id: int) -> TableSnapshot:
    """Read a table, its match and its seats from the database."""
    table = Table.objects.select_related("match", "session").get(pk=table_id)
    match = table.match
    forget_table_of(match)
    return _snapshot(table, match)


# A match's table as its one-to-one field caches it on the match, when the table was read
# with its match: table and match then refer to each other, a cycle that only the garbage
# collector frees, with the match's snapshot (thousands of objects).
_match_table_cache = Table.match.field.remote_field


def forget_table_of(match: Match) -> None:
    """Break the table-match cycle of a table read with its match (``select_related``)."""
    if _match_table_cache.is_cached(match):
        _match_table_cache.delete_cached_value(match)


@dataclass
class ActionTable:
    """The table an action is played at, read once, before the action, for the write path
    and the apps that follow it: with its seats and their students, and its session
    (class, teacher) as this process keeps it (``kept_session``); not its match, which
    the write path reads under the match's lock. After the commit, ``current`` tells
    whether the match was still the one written (no other action or pause since)."""

    table: Table
    seats: list[Seat]
    current: bool = True

    def seat(self, number: int | None) -> Seat | None:
        """Return the seat with this number, or None (for None too)."""
        for seat in self.seats:
            if seat.number == number:
                return seat
        return None


# What an action needs of its table's session (its id, language, class and teacher) does
# not change while the session lasts: each process keeps the sessions it reads, so that a
# move reads only its seats. The kept session's state and times are not kept current:
# live play reads those from the match (its holds are the pauses; an ended session's
# matches are finished).
_kept_sessions: Kept[ClassSession] = Kept()


def kept_session(session_id: int) -> ClassSession:
    """Return the session with its class and teacher, as this process keeps it."""
    return _kept_sessions.get(
        session_id,
        lambda: ClassSession.objects.select_related("school_class__teacher").get(pk=session_id),
    )


def forget_kept_sessions() -> None:
    """Forget the sessions this process keeps (a test's rolled-back rows)."""
    _kept_sessions.forget()


def _seats_at_match(match_id: int) -> QuerySet[Seat]:
    return (
        Seat.objects.select_related("participant", "table")
        .filter(table__match_id=match_id)
        .order_by("number")
    )


def _seats_at_table(table_id: int) -> QuerySet[Seat]:
    return (
        Seat.objects.select_related("participant", "table")
        .filter(table_id=table_id)
        .order_by("number")
    )


def _match_now(match_id: int) -> QuerySet[Match, tuple[int, str, datetime | None]]:
    return (
        Match.objects.filter(pk=match_id).order_by().values_list("version", "status", "paused_at")
    )


# Read at every move (games.prepared); seats come in the order of their numbers.
SEATS_AT_MATCH = PreparedQuery(_seats_at_match)
SEATS_AT_TABLE = PreparedQuery(_seats_at_table)
MATCH_NOW = PreparedQuery(_match_now)


def action_table(*, match_id: int | None = None, table_id: int | None = None) -> ActionTable | None:
    """Read the table of a match (or the table ``table_id``) before an action (None: no
    table, or a table whose session is gone).

    One query: the table's seats with their students, each row joined to the table; its
    session, class and teacher as this process keeps them (read once per session).
    """
    if table_id is None:
        assert match_id is not None, "action_table takes a match_id or a table_id"
        seats = SEATS_AT_MATCH.objects(match_id)
    else:
        seats = SEATS_AT_TABLE.objects(table_id)
    table: Table | None
    if seats:
        table = seats[0].table
        for seat in seats:
            seat.table = table  # one table object, as the followers and the states expect
    else:  # a table with no seats yet, or no table
        table = Table.objects.filter(
            **({"match_id": match_id} if table_id is None else {"pk": table_id})
        ).first()
        if table is None:
            return None
    try:
        table.session = kept_session(table.session_id)
    except ClassSession.DoesNotExist:  # deleted meanwhile
        return None
    return ActionTable(table, seats)


def stored_version(match_id: int) -> int:
    """Return the match's stored version (a refused move's answer names it)."""
    rows = MATCH_NOW.rows(match_id)
    if not rows:
        raise Match.DoesNotExist(f"no match {match_id}")
    return rows[0][0]


def mark_current(found: ActionTable, applied: Applied) -> None:
    """After an action's commit, tell whether its match is still the one written (no
    other action or pause since): one read of the match's version, status and pause."""
    written = applied.match
    rows = MATCH_NOW.rows(written.pk)
    stored = rows[0] if rows else None
    found.current = stored == (written.version, written.status, written.paused_at)


def load_applied(applied: Applied, found: ActionTable | None = None) -> TableSnapshot | None:
    """Return the table of a match that has just accepted an action (None: no table).

    ``found``: what ``action_table`` read for the action, with ``mark_current`` done
    after the commit (read and marked here when not given). The engine state and
    running timers are the ones the write path applied and recorded, not read again,
    unless the match changed since the action was written (another action, a pause:
    then the stored ones are newer). A lesson pause that the apps following the action
    took meanwhile is in ``applied.match`` (``lessons.moments``).
    """
    if found is None:
        found = action_table(match_id=applied.match.pk)
        if found is None:
            return None
        mark_current(found, applied)
    # The match is not set on the table: a one-to-one field's setter caches each on the
    # other (``forget_table_of``).
    if not found.current:
        return _snapshot(found.table, Match.objects.get(pk=applied.match.pk), seats=found.seats)
    return _snapshot(found.table, applied.match, applied.state, applied.timers, found.seats)


def _snapshot(
    table: Table,
    match: Match | None = None,
    state: State | None = None,
    timers: list[MatchTimer] | None = None,
    seats: list[Seat] | None = None,
) -> TableSnapshot:
    if seats is None:
        seats = table_seats(table.pk)
    if match is None:
        match = table.match
    # The match's holds are its pause (the teacher's, a lesson's): see games.matches.
    paused = match.status == Match.Status.PAUSED
    pause = lesson_pause_of(list(match.holds.all())) if paused else None
    if timers is None:
        timers = list(MatchTimer.objects.filter(match=match).order_by("due_at", "pk"))
    if state is None:
        state = load_state(match)
    return TableSnapshot(table, match, state, seats, paused, pause, timers)


def players(snap: TableSnapshot, language: str | None = None) -> list[dict]:
    """Return the table's players for a ``hello`` message, in ``language`` (a bot's name
    and a removed student's are translated), else in the active one."""
    if language is None:
        return seat_players(snap.seats)
    with translation.override(language):
        return seat_players(snap.seats)


def deck(snap: TableSnapshot) -> tuple[str, str, frozenset[str]]:
    """Return the table's deck: its game, variant and the card kinds its match deals."""
    match = snap.match
    return match.game, match.variant, dealt_kinds(match.game, match.variant, match.options)


def hello_message(snap: TableSnapshot, seat: int | None, language: str) -> dict:
    """Return the ``hello`` message: who sits where, and the card catalogue (its texts in
    ``language``, worded for the cards this match deals)."""
    game, variant, kinds = deck(snap)
    return {
        "type": "hello",
        "table": snap.table.pk,
        "match": snap.match.pk,
        "seat": seat,
        "players": players(snap, language),
        "game": snap.match.game,
        "variant": snap.match.variant,
        "catalogue": catalogue_in(game, variant, language, kinds),
        "language": language,
    }


def deadline(snap: TableSnapshot, seat: int | None) -> dict | None:
    """Return the soonest timer ``seat`` (None: the public) may know of, with its due time.

    The game says who may know of a timer (``state.timer_info``): a call window that
    would give away a drawn card, for one, is known to its player only.
    """
    running = {timer["id"] for timer in snap.state.timers()}
    for timer in snap.timers:
        if timer.timer_id not in running:
            continue
        info = snap.state.timer_info(timer.timer_id)
        if info["visible_to"] is not None and seat not in info["visible_to"]:
            continue
        return {
            "timer": timer.timer_id,
            "kind": info["kind"],
            "seat": info["seat"],
            "at": iso(timer.due_at),
            "seconds": timer.seconds,
        }
    return None


# The most actions whose events one state message describes.
MAX_LOGGED_ACTIONS = 20


def log_lines(snap: TableSnapshot, language: str, since: int | None = None) -> list[str]:
    """Return the events of the actions after version ``since`` (default: the last
    action's) as plain-language lines in ``language``."""
    version = snap.match.version
    if version == 0:
        return []
    first = version if since is None else max(since + 1, version - MAX_LOGGED_ACTIONS + 1)
    entries = MatchAction.objects.filter(
        match=snap.match, version__gte=first, version__lte=version
    ).order_by("version")
    return event_lines(snap, [event for entry in entries for event in entry.events], language)


def event_lines(snap: TableSnapshot, events: list[dict], language: str) -> list[str]:
    """Return events as plain-language lines in ``language`` (those the game describes)."""
    card_name = card_namer(snap.match.game, snap.match.variant, language)
    with translation.override(language):
        lines = [event_line(snap.match.game, event, snap.name_of, card_name) for event in events]
    return [line for line in lines if line is not None]


def state_message(
    snap: TableSnapshot, seat: int | None, language: str, since: int | None = None
) -> dict:
    """Return the ``state`` message of one seat (None: the public view).

    ``since``: the version this socket was sent last; the log then covers every action
    after it (at most MAX_LOGGED_ACTIONS), else only the last action.
    """
    return {**seat_state(snap, seat), "log": log_lines(snap, language, since)}


def audience(snap: TableSnapshot) -> list[int | None]:
    """Return the seats whose sockets hear of a new version: every seat a student holds,
    and the public view (None) of the projector.

    Not only the seats counted as connected: a count can lag behind a socket (a missed
    heartbeat during a database stall zeroes it), and a socket left without its states
    would freeze on the screen.
    """
    students = [seat.number for seat in snap.seats if seat.participant_id is not None]
    return [*students, None]


def audience_key(seat: int | None) -> str:
    """Return the key of a seat's state in the write path's ``table.states`` message
    (the channel layer's messages take text keys only; "public": the projector's)."""
    return "public" if seat is None else str(seat)


def action_states(snap: TableSnapshot, applied: Applied) -> tuple[dict, dict[str, list[str]]]:
    """Return what the sockets of a table need after one accepted action, built once:
    ``({seat: state message without its log}, {language: the log lines})``, for every
    seat of ``audience`` and every language of the platform.

    The log is the action's events; when another action was stored before the table was
    read (the states are then of a newer version), the log of every action since.
    """
    states = {seat: seat_state(snap, seat) for seat in audience(snap)}
    languages = [code for code, _name in settings.LANGUAGES]
    if snap.match.version == applied.version:
        logs = {code: event_lines(snap, applied.events, code) for code in languages}
    else:
        logs = {code: log_lines(snap, code, since=applied.version - 1) for code in languages}
    return states, logs


def seat_state(snap: TableSnapshot, seat: int | None) -> dict:
    """Return the ``state`` message of one seat without its ``log`` (the only part in a
    language)."""
    view = snap.state.view(seat)
    may_act = (
        seat is not None
        and not snap.paused
        and not snap.bot_plays(seat)  # handed to a bot: the bot acts, not the socket
        and seat in snap.state.to_move()
    )
    return {
        "type": "state",
        "version": snap.match.version,
        "seat": seat,
        "view": view,
        "legal_actions": snap.state.legal_actions(seat) if may_act else [],
        "deadline": deadline(snap, seat),
        "paused": snap.paused,
        "over": snap.state.is_over(),
        "result": snap.state.result() if snap.state.is_over() else None,
        "lesson_pause": lesson_pause_message(snap.lesson_pause),
        "server_time": iso(clock.now()),
    }


def lesson_pause(match_id: int) -> dict | None:
    """Return the match's lesson pause, or None: ``{"moments": [{"moment", "event",
    "lesson", "seats", "waiting"}]}``, ``waiting`` the human seats yet to dismiss.

    The lesson pause is the match's lesson holds (games.models.MatchHold), in the order
    they were taken.
    """
    return lesson_pause_of(list(MatchHold.objects.filter(match_id=match_id)))


def lesson_pause_of(holds: list[MatchHold]) -> dict | None:
    """Return the lesson pause of a match's holds, or None (``lesson_pause``)."""
    moments = [hold.as_moment() for hold in holds if hold.kind == MatchHold.Kind.LESSON]
    return {"moments": moments} if moments else None


def in_language(state: dict, language: str) -> dict:
    """Return a ``state`` message with its lesson pause's cards in ``language``: a lesson
    hold keeps each card in every language (``lesson["languages"]``), which stays here."""
    pause = state.get("lesson_pause")
    if not pause:
        return state
    moments = []
    for moment in pause["moments"]:
        lesson = dict(moment["lesson"])
        languages = lesson.pop("languages", None) or {}
        moments.append({**moment, "lesson": languages.get(language, lesson)})
    return {**state, "lesson_pause": {**pause, "moments": moments}}


def lesson_pause_message(pause: dict | None) -> dict | None:
    """Return the ``lesson_pause`` field of a ``state`` message."""
    if not pause:
        return None
    waiting = sorted({seat for moment in pause["moments"] for seat in moment["waiting"]})
    return {"waiting": waiting, "moments": pause["moments"]}
