"""Background work of live play: bot moves, timer expiries, and the sweeper.

Every task is idempotent, so a task delivered twice, late, or after a restart does
no harm: a bot move carries the version it was scheduled for (a newer version means
a newer schedule exists), and a timer that already ended is refused by the engine
(``stale_timer``). The sweeper (Celery beat every few seconds, and once when a worker
starts) fires the timers that are due and re-schedules the bots that should act, so
a restart, even after kill -9 of every process, resumes every match.
"""

import logging

from celery import shared_task
from celery.signals import worker_ready
from django.db.models import Q
from django.utils import timezone

from games import live
from games.engine import IllegalAction
from games.matches import MatchPaused, StaleVersion
from games.models import Match, MatchTimer

logger = logging.getLogger(__name__)


@shared_task(name="games.tasks.bot_move", ignore_result=True)
def bot_move(match_id: int, seat: int, version: int) -> bool:
    """Play a bot seat's move if the match is still at ``version``."""
    try:
        return live.play_bot(match_id, seat, version)
    except (StaleVersion, MatchPaused, Match.DoesNotExist):
        return False


@shared_task(name="games.tasks.fire_timer", ignore_result=True)
def fire_timer(match_id: int, timer_id: str) -> bool:
    """Send a timer's expiry action to the engine if the timer still runs and is due."""
    timer = MatchTimer.objects.filter(match_id=match_id, timer_id=timer_id).first()
    if timer is None:
        return False  # the timer ended (answered in time) or fired already
    if timer.due_at > timezone.now():
        return False  # pushed back by a pause: the sweeper fires it when due
    try:
        live.act(match_id, None, timer.action, None)
    except IllegalAction as refusal:
        if refusal.code != "stale_timer":
            logger.warning("timer %s of match %s refused: %s", timer_id, match_id, refusal.code)
        return False
    except MatchPaused:
        return False
    return True


@shared_task(name="games.tasks.sweep", ignore_result=True)
def sweep() -> dict:
    """Fire every due timer and re-schedule bots where a bot should act; return counts."""
    fired = 0
    due = MatchTimer.objects.filter(
        due_at__lte=timezone.now(), match__status=Match.Status.RUNNING
    ).values_list("match_id", "timer_id")
    for match_id, timer_id in list(due):
        fired += bool(fire_timer(match_id, timer_id))
    bots = 0
    waiting = Match.objects.filter(status=Match.Status.RUNNING).filter(
        Q(table__seats__participant__isnull=True) | Q(table__seats__bot_takeover=True)
    )
    for match in waiting.distinct():
        bots += live.schedule_bots(match, delay=0)
    return {"fired": fired, "bots": bots}


@worker_ready.connect
def sweep_on_start(sender=None, **kwargs):
    """Resume every match as soon as a worker is up (after a restart)."""
    from config.celery import app

    app.send_task("games.tasks.sweep")
