"""What the teacher's live dashboard shows: every table, its seats, turns, scores, news."""

from __future__ import annotations

from collections.abc import Callable

from django.utils import translation

from classroom.models import ClassSession, SeatMove
from games.describe import card_namer, event_line, translate
from games.registry import get_game
from live.messages import load_table

NEWS_PER_TABLE = 6

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
    for entry in table.match.actions.order_by("-version")[:60]:
        for event in reversed(entry.events):
            if event.get("type") in game.notable_events:
                line = event_line(table.match.game, event, snap.name_of, card_name)
                if line is not None:
                    lines.append(line)
        if len(lines) >= NEWS_PER_TABLE:
            break
    return lines[:NEWS_PER_TABLE]


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


def tables_context(session: ClassSession, language: str) -> dict:
    """Return the dashboard fragment's context: tables with seats, pending device moves
    and join requests, the students (removed ones left out), lesson pauses, and what the
    registered sections add (the quiz progress)."""
    tables = []
    with translation.override(language):
        for table in session.tables.order_by("number"):
            snap = load_table(table.pk)
            state = snap.state
            over = state.is_over()
            to_move = set() if over else set(state.to_move())
            game = get_game(snap.match.game)
            scores = {score["seat"]: _score_text(game, score) for score in state.scores()}
            result = state.result() if over else None
            seats = [
                {
                    "seat": seat,
                    "name": seat.display_name,
                    "bot_kind": seat.bot_kind,
                    "connected": seat.is_connected,
                    "to_move": seat.number in to_move,
                    "score": scores.get(seat.number, ""),
                }
                for seat in snap.seats
            ]
            winners = [snap.name_of(s) for s in (result or {}).get("winners", [])]
            tables.append(
                {
                    "table": table,
                    "version": snap.match.version,
                    "paused": snap.paused,
                    "over": over,
                    "winners": ", ".join(winners),
                    "winner_count": len(winners),
                    "seats": seats,
                    "news": _news(table, snap, language),
                    "lesson_pause": _lesson_pause(snap),
                }
            )
    # Who asks is shown by a device label (hash of the device id, browser family),
    # so that the teacher can tell the child's own device from a stranger's.
    moves = SeatMove.objects.filter(
        participant__session=session, participant__kicked=False, status=SeatMove.Status.PENDING
    ).select_related("participant")
    context = {
        "session": session,
        "tables": tables,
        "moves": list(moves),
        "join_requests": list(session.pending_join_requests()),
        "students": list(session.active_participants()),
    }
    for section in SECTIONS:
        context.update(section(session))
    return context
