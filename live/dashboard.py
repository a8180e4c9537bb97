"""What the teacher's live dashboard shows: every table, its seats, turns, scores, news."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Collection
from typing import Any, NamedTuple

from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.utils import translation

from classroom.models import ClassSession, Seat, SeatMove, Table
from classroom.services import is_service_failure
from games.describe import card_namer, event_line, translate
from games.engine.base import Game
from games.matches import load_state
from games.models import Match, MatchAction, MatchHold
from games.prepared import PreparedQuery
from games.registry import get_game
from live.messages import TableSnapshot, forget_table_of, lesson_pause_of

logger = logging.getLogger(__name__)

NEWS_PER_TABLE = 6

# What apps above live play add to the dashboard's context (the lessons app: the lesson
# cards' mode and the students' quiz progress), registered from their
# AppConfig.ready(), so that live play imports none of them.
SECTIONS: list[Callable[[ClassSession], dict]] = []


def register_section(section: Callable[[ClassSession], dict]) -> None:
    """Add ``section(session) -> context`` to every render of the dashboard."""
    if section not in SECTIONS:
        SECTIONS.append(section)


def _score_texts(game: Game, scores: list[dict]) -> dict[int, str]:
    """Return each seat's score as "treasures 1 · datasets 4", in the game's columns (each
    column's word translated once for every seat)."""
    columns = [(translate(column.short), column.key) for column in game.score_columns]
    return {
        score["seat"]: " · ".join(f"{word} {score[key]}" for word, key in columns)
        for score in scores
    }


class NewsBasis(NamedTuple):
    """What a table's news lines were read from: its match (a primary key SQLite gave
    again is another match: the seed tells), its players' names, and its version."""

    match_id: int
    seed: int
    names: tuple[str, ...]
    version: int


def _news(
    table: Table, snap: TableSnapshot, language: str, kept: dict | None
) -> tuple[list[str], NewsBasis]:
    """Return the table's latest notable events as plain-language lines, newest first,
    and what they were read from.

    ``kept``: the table's part drawn before. When it showed the same match with the
    same names, only the actions stored since are read, and their lines go on top of
    its lines; else (or when that read is full) the latest actions are read: the events
    of 15, and of 45 more when those hold too few lines."""
    match = table.match
    names = tuple(seat.display_name for seat in snap.seats)
    basis = NewsBasis(match.pk, match.seed, names, match.version)
    game = get_game(match.game)
    if not game.notable_events:
        return [], basis
    card_name = card_namer(match.game, match.variant, language)

    def lines_of(rows: list[tuple]) -> list[str]:
        lines = []
        for (events,) in rows:
            for event in reversed(events):
                if event.get("type") in game.notable_events:
                    line = event_line(match.game, event, snap.name_of, card_name)
                    if line is not None:
                        lines.append(line)
        return lines

    before = kept["news_basis"] if kept is not None else None
    if (
        kept is not None
        and before is not None
        and before[:3] == basis[:3]
        and before.version <= basis.version
    ):
        rows = NEWS_SINCE.rows(match.pk, before.version)
        if len(rows) < NEWS_SINCE_ACTIONS:
            return (lines_of(rows) + kept["news"])[:NEWS_PER_TABLE], basis
    lines = []
    for read in NEWS_READS:
        lines += lines_of(read.rows(match.pk))
        if len(lines) >= NEWS_PER_TABLE:
            break
    return lines[:NEWS_PER_TABLE], basis


def _lesson_pause(snap: TableSnapshot) -> dict | None:
    """Return a table's lesson pause for the dashboard: the lessons and who still reads."""
    pause = snap.lesson_pause
    if not pause:
        return None
    waiting = sorted({seat for moment in pause["moments"] for seat in moment["waiting"]})
    return {
        "titles": [moment["lesson"]["title"] for moment in pause["moments"]],
        "waiting": ", ".join(snap.name_of(seat) for seat in waiting),
    }


# Each table's part of the dashboard (its item and its HTML) as this process last drew
# it, by table and language, with all it showed (``_table_key``): a render reads and
# draws again only the tables that changed since (a move, a seat's presence, a pause).
# Drawing every table at every redraw cost about 30 ms of a server's CPU a render of a
# 30-student session (49 queries, every match's snapshot parsed), more than the class's
# moves themselves once every class's teacher watched. At most DRAWN_TABLES are kept
# (the tables of sessions that ended go when it is reached: all are drawn again).
DRAWN_TABLES = 4096
_drawn: dict[tuple[int, str], tuple[tuple, dict]] = {}


def forget_kept_tables() -> None:
    """Forget the tables this process drew (a test's rolled-back rows)."""
    _drawn.clear()


def _tables_of(session_id: int) -> QuerySet[Table]:
    return (
        Table.objects.filter(session_id=session_id)
        .select_related("match")
        .defer("match__snapshot")
        .order_by("number")
    )


def _seats_of(session_id: int) -> QuerySet[Seat]:
    return (
        Seat.objects.filter(table__session_id=session_id)
        .select_related("participant")
        .order_by("table_id", "number")
    )


def _seats_at(session_id: int, *table_ids: int) -> QuerySet[Seat]:
    return (
        Seat.objects.filter(table_id__in=table_ids, table__session_id=session_id)
        .select_related("participant", "table__match")
        .defer("table__match__snapshot")
        .order_by("table_id", "number")
    )


def _snapshots_of(*match_ids: int) -> QuerySet[Match, tuple[int, Any]]:
    return Match.objects.filter(pk__in=match_ids).values_list("pk", "snapshot")


def _session_with_class(session_id: int) -> QuerySet[ClassSession]:
    return ClassSession.objects.filter(pk=session_id).select_related("school_class")


def _events_logged(match_id: int) -> QuerySet[MatchAction, tuple[Any]]:
    return MatchAction.objects.filter(match_id=match_id).order_by("-version").values_list("events")


# Read at every redraw of a teacher's dashboard (games.prepared); the news of a table
# that changed reads the events of its last 15 actions, and of the 45 before them only
# when those hold too few.
SESSION_WITH_CLASS = PreparedQuery(_session_with_class)
TABLES_OF_SESSION = PreparedQuery(_tables_of)
SEATS_OF_SESSION = PreparedQuery(_seats_of)
# A redraw of the tables that moved reads only those: their seats with the tables and
# their matches in one query, their snapshots in one (a class at a human pace moves two
# or three of its eight tables a second, and every seat of the session was read at every
# redraw). Each length of the list of tables is a query of its own, prepared when first
# used; more tables than TABLES_READ_APART are read with the whole session's.
TABLES_READ_APART = 16
SEATS_AT_TABLES = {
    count: PreparedQuery(_seats_at, arity=1 + count) for count in range(1, TABLES_READ_APART + 1)
}
SNAPSHOTS_OF_MATCHES = {
    count: PreparedQuery(_snapshots_of, arity=count) for count in range(1, TABLES_READ_APART + 1)
}
NEWS_READS = (
    PreparedQuery(lambda match_id: _events_logged(match_id)[:15]),
    PreparedQuery(lambda match_id: _events_logged(match_id)[15:60]),
)
# A table drawn before reads only the actions stored since (most often one or two).
NEWS_SINCE_ACTIONS = 15
NEWS_SINCE = PreparedQuery(
    lambda match_id, version: _events_logged(match_id).filter(version__gt=version)[
        :NEWS_SINCE_ACTIONS
    ]
)


def session_with_class(session_id: int) -> ClassSession | None:
    """Return the session with its class (None: it was deleted), for a redraw."""
    return SESSION_WITH_CLASS.first(session_id)


def _table_key(
    session: ClassSession, table: Table, seats: list[Seat], holds: list[MatchHold], language: str
) -> tuple:
    """Return all that a table's part of the dashboard shows, as a key: the match's
    version and pause, its lesson holds and who they wait for, each seat's player,
    bot and presence, the session's state and the language."""
    match = table.match
    return (
        table.pk,
        table.number,
        table.paused,
        session.is_open,
        language,
        match.pk,
        match.seed,  # a match whose primary key was used before (SQLite) is another one
        match.game,
        match.variant,
        match.version,
        match.status,
        match.paused_at,
        tuple((hold.pk, tuple(hold.waiting)) for hold in holds),
        tuple(
            (
                seat.pk,
                seat.number,
                seat.participant_id,
                seat.participant.nickname if seat.participant else None,
                seat.participant.kicked if seat.participant else None,
                seat.bot,
                seat.bot_takeover,
                seat.is_connected,
            )
            for seat in seats
        ),
    )


def _table_item(
    session: ClassSession,
    table: Table,
    seats: list[Seat],
    holds: list[MatchHold],
    language: str,
    *,
    snapshot: dict,
    kept: dict | None,
) -> dict:
    """Return a table's part of the dashboard: its item, with its HTML in ``html``
    (``snapshot``: its match's, read apart: the item kept holds the match; ``kept``: the
    table's item drawn before, if any, whose news lines are kept)."""
    match = table.match
    game = get_game(match.game)
    state = load_state(match, snapshot)
    paused = match.status == Match.Status.PAUSED
    snap = TableSnapshot(table, match, state, seats, paused, lesson_pause_of(holds))
    over = state.is_over()
    to_move = set() if over else set(state.to_move())
    scores = _score_texts(game, state.scores())
    result = state.result() if over else None
    winners = [snap.name_of(s) for s in (result or {}).get("winners", [])]
    item = {
        "table": table,
        "version": match.version,
        "paused": paused,
        "over": over,
        "winners": ", ".join(winners),
        "winner_count": len(winners),
        "seats": _seat_rows(seats, to_move, scores),
        "lesson_pause": _lesson_pause(snap),
    }
    item["news"], item["news_basis"] = _news(table, snap, language, kept)
    item["html"] = render_to_string(
        "classroom/fragments/live_table.html", {"item": item, "session": session}
    )
    return item


def _seat_rows(seats: list[Seat], to_move: set[int], scores: dict[int, str]) -> list[dict]:
    return [
        {
            "seat": seat,
            "name": seat.display_name,
            "bot_kind": seat.bot_kind,
            "connected": seat.is_connected,
            "to_move": seat.number in to_move,
            "score": scores.get(seat.number, ""),
        }
        for seat in seats
    ]


def _undrawn_item(session: ClassSession, table: Table, seats: list[Seat]) -> dict:
    """Return the part of a table whose game could not be drawn (the error is logged):
    its players and a line that says so, from what needs no game state, so that the
    teacher keeps the other tables and this one's seats and controls."""
    match = table.match
    item = {
        "table": table,
        "version": match.version,
        "paused": match.status == Match.Status.PAUSED,
        "over": False,
        "undrawn": True,
        "winners": "",
        "winner_count": 0,
        "seats": _seat_rows(seats, set(), {}),
        "lesson_pause": None,
        "news": [],
        "news_basis": None,
    }
    item["html"] = render_to_string(
        "classroom/fragments/live_table.html", {"item": item, "session": session}
    )
    return item


def _tables_and_seats(
    session_id: int, table_ids: Collection[int] | None
) -> tuple[list[Table], dict[int, list[Seat]]]:
    """Return the session's tables (only those of ``table_ids`` when given) in table
    order, with their matches (not their snapshots), and their seats by table."""
    seats: dict[int, list[Seat]] = defaultdict(list)
    if table_ids is None or len(table_ids) > TABLES_READ_APART:
        tables = TABLES_OF_SESSION.objects(session_id)
        if table_ids is not None:
            tables = [table for table in tables if table.pk in table_ids]
        for seat in SEATS_OF_SESSION.objects(session_id):
            seats[seat.table_id].append(seat)
        return tables, seats
    tables = []
    for seat in SEATS_AT_TABLES[len(table_ids)].objects(session_id, *table_ids):
        if seat.table_id not in seats:  # a table gone, or not the session's: none
            tables.append(seat.table)
        seats[seat.table_id].append(seat)
    tables.sort(key=lambda table: table.number)
    return tables, seats


def _snapshots(match_ids: list[int]) -> dict[int, dict]:
    """Return the snapshots of these matches by id (a prepared query when they are few:
    the ORM's building of the query cost more than the reading)."""
    if len(match_ids) > TABLES_READ_APART:
        return dict(_snapshots_of(*match_ids))
    return dict(SNAPSHOTS_OF_MATCHES[len(match_ids)].rows(*match_ids))


def table_items(
    session: ClassSession, language: str, table_ids: Collection[int] | None = None
) -> list[dict]:
    """Return the dashboard's item of each of the session's tables (only those of
    ``table_ids`` when given), with its HTML in ``html``, in table order.

    The session's tables with their matches (not their snapshots) and seats are read in
    two prepared queries (with ``table_ids``, those tables' seats with their tables in
    one), the paused matches' holds in one more; the tables that changed since this
    process last drew them are then read (their snapshots in one query, their latest
    events) and drawn."""
    tables, seats = _tables_and_seats(session.pk, table_ids)
    holds: dict[int, list[MatchHold]] = defaultdict(list)
    paused = [table.match_id for table in tables if table.match.status == Match.Status.PAUSED]
    if paused:
        for hold in MatchHold.objects.filter(match_id__in=paused):
            holds[hold.match_id].append(hold)
    keys = {
        table.pk: _table_key(session, table, seats[table.pk], holds[table.match_id], language)
        for table in tables
    }
    # The items are gathered here, not read back from ``_drawn`` at the end: the page's
    # own view draws in another thread than the sockets (live.sockets.in_drawing_thread)
    # and may empty it meanwhile.
    drawn: dict[int, dict] = {}
    changed = []
    kept: dict[int, dict] = {}
    for table in tables:
        before = _drawn.get((table.pk, language))
        if before is not None and before[0] == keys[table.pk]:
            drawn[table.pk] = before[1]
        else:
            changed.append(table)
            if before is not None:
                kept[table.pk] = before[1]
    if changed:
        snapshots = _snapshots([table.match_id for table in changed])
        if len(_drawn) + len(changed) > DRAWN_TABLES:
            _drawn.clear()
        with translation.override(language):
            for table in changed:
                try:
                    item = _table_item(
                        session,
                        table,
                        seats[table.pk],
                        holds[table.match_id],
                        language,
                        snapshot=snapshots[table.match_id],
                        kept=kept.get(table.pk),
                    )
                except Exception as error:
                    if is_service_failure(error):
                        raise
                    # A defect in one game's drawing, or a state this release cannot
                    # read: logged once a version (the item is kept as any other).
                    logger.exception(
                        "Table %s (match %s, move %s) could not be drawn on the dashboard",
                        table.pk,
                        table.match_id,
                        table.match.version,
                    )
                    item = _undrawn_item(session, table, seats[table.pk])
                _drawn[table.pk, language] = (keys[table.pk], item)
                drawn[table.pk] = item
    for table in tables:
        forget_table_of(table.match)  # no table-match cycle left for the collector
    return [drawn[table.pk] for table in tables]


def tables_context(session: ClassSession, language: str) -> dict:
    """Return the dashboard fragment's context: tables with seats, pending device moves
    and join requests, the students (removed ones left out), lesson pauses, and what the
    registered sections add (the quiz progress)."""
    items = table_items(session, language)
    # Who asks is shown by a device label (hash of the device id, browser family),
    # so that the teacher can tell the child's own device from a stranger's.
    moves = SeatMove.objects.filter(
        participant__session=session, participant__kicked=False, status=SeatMove.Status.PENDING
    ).select_related("participant")
    context = {
        "session": session,
        "tables": items,
        # An ended session has no request to answer (do_end_session closes them).
        "moves": list(moves) if session.is_open else [],
        "join_requests": list(session.pending_join_requests()),
        "students": list(session.active_participants()),
    }
    for section in SECTIONS:
        context.update(section(session))
    return context
