"""Queueing the background work of a match: its timers' expiries and its bots' moves.

Only queues (Celery tasks by name, deduplicated through the cache); the work the tasks
do is in live.background, the tasks themselves in live.tasks.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from celery import current_app
from django.conf import settings
from django.core.cache import cache

from classroom.models import Table
from games import clock
from games.engine.base import State
from games.matches import load_state
from games.models import Match, MatchTimer
from live.messages import bot_kinds


def bot_seats(match: Match) -> dict[int, str]:
    """Return ``{seat number: bot kind}`` of the seats a bot plays now."""
    table = Table.objects.filter(match=match).first()
    if table is None:
        return {}
    return bot_kinds(table.seats.select_related("participant"))


def send_task(name: str, args: tuple, **options: Any) -> None:
    """Queue a Celery task by name on the current Celery app (the project's, config.celery).

    By name, so that queueing needs neither the task module nor the project's app. The
    live tasks keep no result: sent by name, Celery would not know it and would subscribe
    to each task's result in Redis (and unsubscribe when the result object goes). The
    arguments' text for monitoring is given: Celery's own (``saferepr``) is a tenth of
    the CPU of queueing a task, and these are a few numbers and an id.
    """
    current_app.send_task(
        name, args=args, ignore_result=True, argsrepr=repr(args), kwargsrepr="{}", **options
    )


def schedule(
    match: Match,
    again: bool = False,
    state: State | None = None,
    bots: dict[int, str] | None = None,
    timers: Iterable[MatchTimer] | None = None,
) -> None:
    """Schedule the match's running timers (once each) and the bot moves now due.

    ``again`` queues every timer's task anew (after a pause moved the due times).
    ``state``, ``bots`` (``bot_seats``) and ``timers`` (the running ones), when the
    caller has them at the match's version, spare reading them again.
    """
    if match.status != Match.Status.RUNNING:
        return
    if timers is None:
        timers = MatchTimer.objects.filter(match=match)
    for timer in timers:
        # The broker's countdown runs on the system clock: count it on the live clock.
        countdown = clock.until(timer.due_at)
        key = f"live:timer:{match.pk}:{timer.timer_id}"
        if again:
            cache.delete(key)
        if cache.add(key, 1, max(int(countdown) + 120, 60)):
            send_task(
                "live.tasks.fire_timer",
                (match.pk, timer.timer_id, match.seed),
                countdown=countdown,
            )
    schedule_bots(match, again=again, state=state, bots=bots)


def schedule_bots(
    match: Match,
    delay: float | None = None,
    again: bool = False,
    state: State | None = None,
    bots: dict[int, str] | None = None,
    *,
    movers: list[int] | None = None,
) -> int:
    """Schedule one move of each bot seat that may act now; return how many.

    ``again`` forgets earlier schedules of this version (a pause made them void).
    ``movers``: the seats that may act at the match's version (``state.to_move()``),
    when the caller knows them.
    """
    if match.status != Match.Status.RUNNING:
        return 0
    bots = bot_seats(match) if bots is None else bots
    if not bots:
        return 0
    if movers is None:
        movers = (load_state(match) if state is None else state).to_move()
    delay = settings.BOT_DELAY_SECONDS if delay is None else delay
    scheduled = 0
    for seat in movers:
        # The key keeps one pending move per seat and version; it expires soon after
        # the move was due, so the sweeper re-schedules a move lost in a crash.
        key = f"live:bot:{match.pk}:{match.version}:{seat}"
        if again:
            cache.delete(key)
        if seat in bots and cache.add(key, 1, int(delay) + 5):
            send_task(
                "live.tasks.bot_move", (match.pk, seat, match.version, match.seed), countdown=delay
            )
            scheduled += 1
    return scheduled


def on_tables_changed(
    sender: type[Table], tables: Iterable[Table], again: bool = False, **kwargs: Any
) -> None:
    """Receive classroom.signals.tables_changed: schedule the tables' bots and timers."""
    for table in tables:
        table.match.refresh_from_db()
        schedule(table.match, again=again)
