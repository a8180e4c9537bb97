"""Live play at a table: the table protocol's messages, the write path, scheduling.

Game-agnostic: everything here goes through the engine protocol (``view``,
``legal_actions``, ``to_move``, ``timers``, ``apply``), the game's bots and its
text module (``games.<slug>.text.describe_event``), so a new game plugs in without
a change here. The consumers (games/consumers.py) and the Celery tasks
(games/tasks.py) call these synchronous functions.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime

from django.conf import settings
from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone, translation

from classroom.actions import do_forget_stale_connections
from classroom.broadcast import dashboard_group, send_group, table_group
from classroom.models import Seat, Table
from config.unavailable import SERVICE_ERRORS, describe
from games import clock
from games.describe import card_namer, catalogue, event_line
from games.engine import IllegalAction
from games.matches import (
    Applied,
    MatchPaused,
    Released,
    apply_action,
    dismiss_lessons,
    expired_holds,
    load_state,
    release_expired,
)
from games.models import Match, MatchAction, MatchHold, MatchTimer
from games.registry import get_game
from games.signals import action_stored

logger = logging.getLogger(__name__)


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


# The write path and what follows it


def act(match_id: int, seat: int | None, action: dict, expected_version: int | None) -> Applied:
    """Apply an action as the match's one writer, then tell the table and schedule.

    After the commit, ``games.signals.action_stored`` tells the apps that follow the
    games (the lessons app records the lesson moments and, in the "pause" lesson mode,
    holds the match until the players shown a lesson card dismiss it: ``apply_action``
    raises MatchPaused while the match has any hold). Their messages go to the table
    after the table has heard of the move.
    """
    _require_redis()
    applied = apply_action(match_id, seat, action, expected_version)
    # The move is stored: a service failing from here on must not make it look refused.
    # Sockets that miss the news catch up at their next state; the sweeper schedules
    # the bots and timers again within LIVE_SWEEP_SECONDS.
    try:
        messages = _tell_followers(applied.match, applied.events)
        after_change(applied.match)
        table = Table.objects.filter(match=applied.match).only("pk").first()
        for message in messages if table is not None else []:
            send_group(table_group(table.pk), message)
    except SERVICE_ERRORS as error:
        logger.warning("match %s: after the move was stored: %s", match_id, describe(error))
    return applied


def _tell_followers(match: Match, events: list[dict]) -> list[dict]:
    """Send ``action_stored``; return the table messages its receivers give back."""
    messages = []
    for receiver, response in action_stored.send_robust(Match, match=match, events=events):
        if isinstance(response, SERVICE_ERRORS):
            raise response
        if isinstance(response, Exception):
            logger.error(
                "match %s: %s failed after a move",
                match.pk,
                getattr(receiver, "__qualname__", receiver),
                exc_info=response,
            )
        elif response:
            messages.extend(response)
    return messages


# A key nobody writes: reading it asks Redis whether it answers, within the cache's
# read timeout.
REDIS_PROBE_KEY = "live:probe"


def _require_redis() -> None:
    """Raise a service error before the move is stored when Redis does not answer.

    After the commit the table hears of the move, and its bots and timers are queued,
    through Redis: a move stored during a Redis stall would reach nobody, so it is
    refused (the player is told it was not stored) rather than played in silence.
    """
    cache.get(REDIS_PROBE_KEY)


def after_change(match: Match) -> None:
    """Notify the table and the dashboard of the match's version; schedule bots and timers."""
    table = Table.objects.filter(match=match).only("pk", "session_id").first()
    if table is not None:
        send_group(table_group(table.pk), {"type": "table.changed", "version": match.version})
        send_group(
            dashboard_group(table.session_id),
            {"type": "dashboard.changed", "reason": "move", "table": table.pk},
        )
    schedule(match)


# Lesson moments (issue 5): the GDPR lesson an event opens, shown to the seats involved


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


def dismiss_lesson(
    match_id: int, moment: int | None, seat: int | None, everyone: bool = False
) -> dict | None:
    """A seat dismissed a lesson card (``everyone``: the teacher, for the whole table).

    Return ``{"moment", "waiting", "over"}`` when the lesson pause changed, else None
    (no pause, or this seat was not waited for). When nobody is left waiting the match
    resumes, unless the teacher paused the table or the session meanwhile (their hold
    stays until they resume).
    """
    if not MatchHold.objects.filter(match_id=match_id, kind=MatchHold.Kind.LESSON).exists():
        return None  # "show" mode: the card closes on the page, nothing to do here
    released = dismiss_lessons(match_id, moment, seat, everyone)
    if released is None:
        return None
    return _lesson_pause_changed(match_id, moment, released)


def release_expired_lesson_pauses() -> int:
    """Let go of the lesson holds that nobody dismissed within LESSON_HOLD_SECONDS, as
    the teacher's "End the lesson pause" would; return how many matches changed."""
    changed = 0
    for match_id in expired_holds():
        released = release_expired(match_id)
        if released is not None:
            _lesson_pause_changed(match_id, None, released)
            changed += 1
    return changed


def _lesson_pause_changed(match_id: int, moment: int | None, released: Released) -> dict:
    """Tell the table and the dashboard who is still waited for; schedule a resumed match."""
    over = MatchHold.Kind.LESSON not in released.kinds
    if released.resumed:
        schedule(released.match, again=True)
    table = Table.objects.filter(match_id=match_id).only("pk", "session_id").first()
    if table is not None:
        send_group(
            table_group(table.pk),
            {
                "type": "table.lesson_dismissed",
                "moment": moment,
                "waiting": released.waiting,
                "over": over,
            },
        )
        send_group(
            dashboard_group(table.session_id),
            {"type": "dashboard.changed", "reason": "lesson", "table": table.pk},
        )
    return {"moment": moment, "waiting": released.waiting, "over": over}


def bot_seats(match: Match) -> dict[int, str]:
    """Return ``{seat number: bot kind}`` of the seats a bot plays now."""
    table = Table.objects.filter(match=match).first()
    if table is None:
        return {}
    seats = table.seats.select_related("participant")
    return {seat.number: seat.bot_kind for seat in seats if seat.bot_kind}


def send_task(name: str, args: tuple, **options) -> None:
    """Queue a Celery task of the platform's app by name (whatever app is "current")."""
    from config.celery import app

    app.send_task(name, args=args, **options)


def schedule(match: Match, again: bool = False) -> None:
    """Schedule the match's running timers (once each) and the bot moves now due.

    ``again`` queues every timer's task anew (after a pause moved the due times).
    """
    if match.status != Match.Status.RUNNING:
        return
    for timer in MatchTimer.objects.filter(match=match):
        # The broker's countdown runs on the system clock: count it on the live clock.
        countdown = clock.until(timer.due_at)
        key = f"live:timer:{match.pk}:{timer.timer_id}"
        if again:
            cache.delete(key)
        if cache.add(key, 1, max(int(countdown) + 120, 60)):
            send_task(
                "games.tasks.fire_timer",
                (match.pk, timer.timer_id, match.seed),
                countdown=countdown,
            )
    schedule_bots(match, again=again)


def schedule_bots(match: Match, delay: float | None = None, again: bool = False) -> int:
    """Schedule one move of each bot seat that may act now; return how many.

    ``again`` forgets earlier schedules of this version (a pause made them void).
    """
    if match.status != Match.Status.RUNNING:
        return 0
    bots = bot_seats(match)
    if not bots:
        return 0
    state = load_state(match)
    delay = settings.BOT_DELAY_SECONDS if delay is None else delay
    scheduled = 0
    for seat in state.to_move():
        # The key keeps one pending move per seat and version; it expires soon after
        # the move was due, so the sweeper re-schedules a move lost in a crash.
        key = f"live:bot:{match.pk}:{match.version}:{seat}"
        if again:
            cache.delete(key)
        if seat in bots and cache.add(key, 1, int(delay) + 5):
            send_task(
                "games.tasks.bot_move", (match.pk, seat, match.version, match.seed), countdown=delay
            )
            scheduled += 1
    return scheduled


def play_bot(match_id: int, seat: int, version: int, seed: int | None = None) -> bool:
    """Play one bot move at ``seat`` if the match is still at ``version``; tell if played.

    ``seed`` (the match's) guards against a task outliving its match: a database may
    give a deleted match's id to a new one.
    """
    import random

    match = Match.objects.get(pk=match_id)
    if seed is not None and match.seed != seed:
        return False
    if match.version != version or match.status != Match.Status.RUNNING:
        return False  # a newer schedule exists, or the resume will schedule again
    kind = bot_seats(match).get(seat)
    state = load_state(match)
    if not kind or seat not in state.to_move():
        return False
    game = get_game(match.game)
    legal = state.legal_actions(seat)
    bot = game.bots[kind]()
    view = state.view(seat) if getattr(bot, "needs_view", True) else None
    rng = random.Random(f"{match.seed}:{version}:{seat}")
    action = bot.choose(view, legal, rng)
    act(match_id, seat, action, version)
    return True


def fire_timer(match_id: int, timer_id: str, seed: int | None = None) -> bool:
    """Send a timer's expiry action to the engine if the timer still runs and is due."""
    timers = MatchTimer.objects.filter(match_id=match_id, timer_id=timer_id)
    if seed is not None:  # the match the task was queued for, not a new one with its id
        timers = timers.filter(match__seed=seed)
    timer = timers.first()
    if timer is None:
        return False  # the timer ended (answered in time) or fired already
    if timer.due_at > clock.now():
        # Early: a pause pushed the timer back, or the worker ran the task a little
        # before its eta (Celery's timer may). Queue it again for the due time, so that
        # the expiry never waits for the sweeper.
        send_task(
            "games.tasks.fire_timer",
            (match_id, timer_id, seed),
            countdown=clock.until(timer.due_at),
        )
        return False
    try:
        act(match_id, None, timer.action, None)
    except IllegalAction as refusal:
        if refusal.code != "stale_timer":
            logger.warning("timer %s of match %s refused: %s", timer_id, match_id, refusal.code)
        return False
    except MatchPaused:
        return False
    return True


def sweep() -> dict:
    """Let go of expired lesson holds, fire every due timer, re-schedule bots where a bot
    should act, and zero stale socket counts; return counts."""
    released = release_expired_lesson_pauses()
    due = MatchTimer.objects.filter(
        due_at__lte=clock.now(), match__status=Match.Status.RUNNING
    ).values_list("match_id", "timer_id")
    fired = sum(fire_timer(match_id, timer_id) for match_id, timer_id in list(due))
    with_bots = Match.objects.filter(status=Match.Status.RUNNING).filter(
        Q(table__seats__participant__isnull=True) | Q(table__seats__bot_takeover=True)
    )
    bots = sum(schedule_bots(match, delay=0) for match in with_bots.distinct())
    stale = do_forget_stale_connections()
    return {
        "released": released,
        "fired": fired,
        "bots": bots,
        "stale_connections": stale,
    }
