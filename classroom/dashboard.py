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


def tables_context(session: ClassSession, language: str) -> dict:
    """Return the dashboard fragment's context: tables with seats, and pending device moves."""
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
                }
            )
    moves = SeatMove.objects.filter(
        participant__session=session, status=SeatMove.Status.PENDING
    ).select_related("participant")
    return {"session": session, "tables": tables, "moves": list(moves)}
