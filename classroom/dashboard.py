"""What the teacher's live dashboard shows: every table, its seats, turns, scores, news."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext, gettext_lazy

from classroom.models import ClassSession, SeatMove

# Event types worth a line on the dashboard, per game (the rest is in each table's log).
NOTABLE_EVENTS = {
    "data_tycoon": {
        "treasure_built",
        "treasure_split",
        "attack",
        "countered",
        "treasures_lost",
        "databreach_called",
        "databreach_discovered",
        "frozen",
        "skips",
        "time_up",
        "game_over",
    },
}
SCORE_LABELS = {
    "treasures": gettext_lazy("treasures"),
    "sensitive": gettext_lazy("sensitive"),
    "datasets": gettext_lazy("datasets"),
}
NEWS_PER_TABLE = 6


def _score_text(score: dict) -> str:
    """Return one seat's score as "treasures 1 · datasets 4"."""
    parts = [f"{SCORE_LABELS.get(k, k)} {v}" for k, v in score.items() if k != "seat"]
    return " · ".join(parts)


def _news(table, snap, language: str) -> list[str]:
    """Return the table's latest notable events as plain-language lines, newest first."""
    from games import live

    notable = NOTABLE_EVENTS.get(table.match.game, set())
    text = live.text_module(table.match.game)
    if text is None or not notable:
        return []
    cards = live.catalogue(table.match.game, table.match.variant)

    def card_name(card_id):
        names = cards.get(card_id, {}).get("name", {})
        return names.get(language) or names.get("en") or str(card_id)

    lines = []
    for entry in table.match.actions.order_by("-version")[:60]:
        for event in reversed(entry.events):
            if event.get("type") in notable:
                template, params = text.describe_event(event, snap.name_of, card_name)
                lines.append(gettext(template) % params)
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
            scores = {}
            if hasattr(state, "scores"):
                scores = {s["seat"]: _score_text(s) for s in state.scores()}
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
