"""Who sits where at a table, as its sockets show it (the protocol's ``players``)."""

from __future__ import annotations

from django.conf import settings
from django.utils import translation

from classroom.models import Seat


def seat_players(seats: list[Seat]) -> list[dict]:
    """Return the players of a table's seats (names in the active language: a bot's name
    and a removed student's are translated)."""
    return [
        {
            "seat": seat.number,
            "name": seat.display_name,
            "bot": seat.bot_kind or None,
            "connected": seat.is_connected,
        }
        for seat in seats
    ]


def table_seats(table_id: int) -> list[Seat]:
    """Return a table's seats with their students, in seat order."""
    return list(
        Seat.objects.filter(table_id=table_id).select_related("participant").order_by("number")
    )


def players_in_every_language(table_id: int) -> dict[str, list[dict]]:
    """Return a table's players in each language of the platform, read once: a
    ``presence`` message carries them, so that no socket at the table reads them again."""
    seats = table_seats(table_id)
    players = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            players[code] = seat_players(seats)
    return players
