"""What the teacher's live dashboard shows: every table, its seats, turns, scores, news."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection

from django.template.loader import render_to_string
from django.utils import translation

from classroom.kept import Kept
from classroom.models import ClassSession, Seat, SeatMove, Table
from games.describe import card_namer, event_line, translate
from games.models import Match, MatchAction, MatchHold
from games.registry import get_game
from live.messages import TableSnapshot, forget_table_of, lesson_pause_of

NEWS_PER_TABLE = 6
# The actions read for a table's news, newest first: (from, to) of each read.
NEWS_READS = ((0, 15), (15, 60))

# What apps above live play add to the dashboard's context (the lessons app: the lesson
# cards' mode and the students' quiz progress), registered from their
# AppConfig.ready(), so that live play imports none of them.
SECTIONS: list[Callable[[ClassSession], dict]] = []


def register_section(section: Callable[[ClassSession], dict]) -> None:
    """Add ``section(session) -> context`` to every render of the dashboard."""
    if section not in SECTIONS:
        SECTIONS.append(section)


def _score_text(game, score: dict) -> str:
    """Return one seat's score as "treasures 1 · datasets 4", in the game's columns."""
    return " · ".join(f"{translate(c.short)} {score[c.key]}" for c in game.score_columns)


def _news(table, snap, language: str) -> list[str]:
    """Return the table's latest notable events as plain-language lines, newest first."""
    game = get_game(table.match.game)
    if not game.notable_events:
        return []
    card_name = card_namer(table.match.game, table.match.variant, language)
    lines = []
    logged = (
        MatchAction.objects.filter(match_id=table.match_id)
        .order_by("-version")
        .values_list("events", flat=True)
    )
    # The last 15 actions hold the news most of the time: the 45 before them are read
    # only when they do not.
    for first, last in NEWS_READS:
        for events in logged[first:last]:
            for event in reversed(events):
                if event.get("type") in game.notable_events:
                    line = event_line(table.match.game, event, snap.name_of, card_name)
                    if line is not None:
                        lines.append(line)
            if len(lines) >= NEWS_PER_TABLE:
                return lines[:NEWS_PER_TABLE]
    return lines


def _lesson_pause(snap) -> dict | None:
    """Return a table's lesson pause for the dashboard: the lessons and who still reads."""
    pause = snap.lesson_pause
    if not pause:
        return None
    waiting = sorted({seat for moment in pause["moments"] for seat in moment["waiting"]})
    return {
        "titles": [moment["lesson"]["title"] for moment in pause["moments"]],
        "waiting": ", ".join(snap.name_of(seat) for seat in waiting),
    }


# Each table's part of the dashboard (its item and its HTML), kept by everything it
# shows: a render reads and draws again only the tables that changed since (a move, a
# seat's presence, a pause). A teacher's dashboard is redrawn after every move of the
# class, four times a second at most; drawing every table each time cost about 30 ms
# of a server's CPU a render (49 queries, every match's snapshot parsed), more than the
# moves themselves once every class's teacher watched.
_kept_tables: Kept[dict] = Kept(most=2048)


def forget_kept_tables() -> None:
    """Forget the tables this process keeps (a test's rolled-back rows)."""
    _kept_tables.forget()


def _table_key(session: ClassSession, table: Table, seats: list, holds: list, language: str):
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


def _table_item(session: ClassSession, table: Table, seats: list, holds: list, language):
    """Return a table's part of the dashboard: its item, with its HTML in ``html``."""
    match = table.match
    game = get_game(match.game)
    # Read here, not kept on the match: the kept item holds the match.
    snapshot = Match.objects.values_list("snapshot", flat=True).get(pk=match.pk)
    state = game.from_json(snapshot)
    paused = match.status == Match.Status.PAUSED
    snap = TableSnapshot(table, match, state, seats, paused, lesson_pause_of(holds))
    over = state.is_over()
    to_move = set() if over else set(state.to_move())
    scores = {score["seat"]: _score_text(game, score) for score in state.scores()}
    result = state.result() if over else None
    winners = [snap.name_of(s) for s in (result or {}).get("winners", [])]
    item = {
        "table": table,
        "version": match.version,
        "paused": paused,
        "over": over,
        "winners": ", ".join(winners),
        "winner_count": len(winners),
        "seats": [
            {
                "seat": seat,
                "name": seat.display_name,
                "bot_kind": seat.bot_kind,
                "connected": seat.is_connected,
                "to_move": seat.number in to_move,
                "score": scores.get(seat.number, ""),
            }
            for seat in seats
        ],
        "news": _news(table, snap, language),
        "lesson_pause": _lesson_pause(snap),
    }
    item["html"] = render_to_string(
        "classroom/fragments/live_table.html", {"item": item, "session": session}
    )
    return item


def table_items(
    session: ClassSession, language: str, table_ids: Collection[int] | None = None
) -> list[dict]:
    """Return the dashboard's item of each of the session's tables (only those of
    ``table_ids`` when given), with its HTML in ``html``, in table order.

    The tables with their matches (not their snapshots), their seats and the paused
    matches' holds are read in three queries; a table that changed since this process
    last drew it is then read and drawn (its snapshot, its latest events)."""
    tables = session.tables.order_by("number").select_related("match").defer("match__snapshot")
    seats_of = Seat.objects.filter(table__session=session)
    if table_ids is not None:
        tables = tables.filter(pk__in=table_ids)
        seats_of = seats_of.filter(table_id__in=table_ids)
    tables = list(tables)
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in seats_of.select_related("participant").order_by("table_id", "number"):
        seats[seat.table_id].append(seat)
    holds: dict[int, list[MatchHold]] = defaultdict(list)
    paused = [table.match_id for table in tables if table.match.status == Match.Status.PAUSED]
    if paused:
        for hold in MatchHold.objects.filter(match_id__in=paused):
            holds[hold.match_id].append(hold)
    items = []
    with translation.override(language):
        for table in tables:
            forget_table_of(table.match)  # no table-match cycle left for the collector
            here, held = seats[table.pk], holds[table.match_id]
            items.append(
                _kept_tables.get(
                    _table_key(session, table, here, held, language),
                    lambda table=table, here=here, held=held: _table_item(
                        session, table, here, held, language
                    ),
                )
            )
    return items


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
        "moves": list(moves),
        "join_requests": list(session.pending_join_requests()),
        "students": list(session.active_participants()),
    }
    for section in SECTIONS:
        context.update(section(session))
    return context
