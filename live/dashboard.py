"""What the teacher's live dashboard shows: every table, its seats, turns, scores, news."""

from __future__ import annotations

from django.utils import translation

from classroom.models import ClassSession, SeatMove
from games.describe import card_namer, event_line, translate
from games.registry import get_game

NEWS_PER_TABLE = 6


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


def lessons_context(session: ClassSession) -> dict:
    """Return the lesson cards' mode and the students' quiz progress for the dashboard."""
    from lessons.actions import Mode, lesson_mode
    from lessons.results import student_progress

    progress = student_progress(session)
    return {
        "lesson_mode": lesson_mode(session),
        "lesson_modes": Mode.choices,
        "quiz_progress": [student for student in progress if student.total],
        "quiz_finished": sum(1 for student in progress if student.finished),
        "quiz_students": len(progress),
    }


def tables_context(session: ClassSession, language: str) -> dict:
    """Return the dashboard fragment's context: tables with seats, pending device moves,
    lesson pauses and the quiz progress."""
    from games import live

    tables = []
    with translation.override(language):
        for table in session.tables.order_by("number"):
            snap = live.load_table(table.pk)
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
                    "seats": seats,
                    "news": _news(table, snap, language),
                    "lesson_pause": _lesson_pause(snap),
                }
            )
    moves = SeatMove.objects.filter(
        participant__session=session, status=SeatMove.Status.PENDING
    ).select_related("participant")
    context = {"session": session, "tables": tables, "moves": list(moves)}
    context.update(lessons_context(session))
    return context
