"""The table protocol's messages, built from the stored match: ``hello``, ``state``
(with its deadline, log lines and lesson pause) and the players of ``presence``.

Game-agnostic: everything goes through the engine protocol (``view``,
``legal_actions``, ``to_move``, ``timers``) and the game's text module, so a new game
plugs in without a change here. Read-only: the writes are in live.write.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from django.utils import timezone, translation

from classroom.models import Seat, Table
from games.describe import card_namer, catalogue, event_line
from games.matches import load_state
from games.models import Match, MatchAction, MatchHold, MatchTimer


def iso(moment: datetime) -> str:
    """Return a UTC time as ISO 8601 with milliseconds and a Z."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class TableSnapshot:
    """A table as stored now: its match, engine state, seats and pause."""

    table: Table
    match: Match
    state: object
    seats: list[Seat]
    paused: bool
    lesson_pause: dict | None = None

    def bot_plays(self, seat_number: int) -> bool:
        """Tell whether a bot plays the seat now (a bot's seat, or one handed to a bot)."""
        return any(seat.number == seat_number and seat.bot_kind for seat in self.seats)

    def name_of(self, seat_number: int) -> str:
        """Return the nickname (or bot name) at a seat."""
        for seat in self.seats:
            if seat.number == seat_number:
                return seat.display_name
        return str(seat_number + 1)


def load_table(table_id: int) -> TableSnapshot:
    """Read a table, its match and its seats from the database."""
    table = Table.objects.select_related("match", "session").get(pk=table_id)
    seats = list(table.seats.select_related("participant").order_by("number"))
    match = table.match
    # The match's holds are its pause (the teacher's, a lesson's): see games.matches.
    paused = match.status == Match.Status.PAUSED
    pause = _lesson_pause(list(match.holds.all())) if paused else None
    return TableSnapshot(table, match, load_state(match), seats, paused, pause)


def players(snap: TableSnapshot) -> list[dict]:
    """Return the table's players for ``hello`` and ``presence`` messages."""
    return [
        {
            "seat": seat.number,
            "name": seat.display_name,
            "bot": seat.bot_kind or None,
            "connected": seat.is_connected,
        }
        for seat in snap.seats
    ]


def hello_message(snap: TableSnapshot, seat: int | None, language: str) -> dict:
    """Return the ``hello`` message: who sits where, and the card catalogue."""
    return {
        "type": "hello",
        "table": snap.table.pk,
        "match": snap.match.pk,
        "seat": seat,
        "players": players(snap),
        "game": snap.match.game,
        "variant": snap.match.variant,
        "catalogue": catalogue(snap.match.game, snap.match.variant),
        "language": language,
    }


def deadline(snap: TableSnapshot, seat: int | None) -> dict | None:
    """Return the soonest timer ``seat`` (None: the public) may know of, with its due time.

    The game says who may know of a timer (``state.timer_info``): a call window that
    would give away a drawn card, for one, is known to its player only.
    """
    running = {timer["id"] for timer in snap.state.timers()}
    for timer in MatchTimer.objects.filter(match=snap.match).order_by("due_at", "pk"):
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
    card_name = card_namer(snap.match.game, snap.match.variant, language)
    events = [event for entry in entries for event in entry.events]
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
        "log": log_lines(snap, language, since),
        "paused": snap.paused,
        "over": snap.state.is_over(),
        "result": snap.state.result() if snap.state.is_over() else None,
        "lesson_pause": lesson_pause_message(snap.lesson_pause),
        "server_time": iso(timezone.now()),
    }


def lesson_pause(match_id: int) -> dict | None:
    """Return the match's lesson pause, or None: ``{"moments": [{"moment", "event",
    "lesson", "seats", "waiting"}]}``, ``waiting`` the human seats yet to dismiss.

    The lesson pause is the match's lesson holds (games.models.MatchHold), in the order
    they were taken.
    """
    return _lesson_pause(list(MatchHold.objects.filter(match_id=match_id)))


def _lesson_pause(holds: list[MatchHold]) -> dict | None:
    moments = [hold.as_moment() for hold in holds if hold.kind == MatchHold.Kind.LESSON]
    return {"moments": moments} if moments else None


def lesson_pause_message(pause: dict | None) -> dict | None:
    """Return the ``lesson_pause`` field of a ``state`` message."""
    if not pause:
        return None
    waiting = sorted({seat for moment in pause["moments"] for seat in moment["waiting"]})
    return {"waiting": waiting, "moments": pause["moments"]}
