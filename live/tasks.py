"""Background work of live play: bot moves, timer expiries, and the sweeper.

Every task is idempotent, so a task delivered twice, late, or after a restart does
no harm: a bot move carries the version it was scheduled for (a newer version means
a newer schedule exists), and a timer that already ended is refused by the engine
(``stale_timer``). Both carry the match's seed too, so a task that outlived its match
never acts on a new match that got the same id. The sweeper (Celery beat every few
seconds, and once when a worker starts) fires the timers that are due on the live
clock (games.clock), re-schedules the bots that should act and lets go of expired
lesson holds, so a restart, even after kill -9 of every process, resumes every match.
The work itself is in ``live.background``.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from celery import shared_task
from celery.signals import worker_process_init, worker_ready

from classroom.broadcast import send_from_own_loop
from classroom.services import SERVICE_ERRORS, describe
from games.commit import CommitUnanswered
from games.matches import MatchPaused, StaleVersion
from games.models import Match
from live import background
from live.scheduling import send_task

if TYPE_CHECKING:
    from celery.worker.consumer import Consumer

logger = logging.getLogger(__name__)


@contextlib.contextmanager
def serving_live_play() -> Iterator[None]:
    """Mark the worker's thread as serving live play while a task runs: a bot's move, a
    timer or the sweep is short statements, and its statements have a deadline
    (config/postgresql/base.py reads the mark), where the debrief's are not."""
    thread = threading.current_thread()
    # A mark of our own on the Thread object, unknown to its type.
    before = getattr(thread, "serves_live_play", False)
    thread.serves_live_play = True  # type: ignore[attr-defined]
    try:
        yield
    finally:
        thread.serves_live_play = before  # type: ignore[attr-defined]


@shared_task(name="live.tasks.bot_move", ignore_result=True)
def bot_move(match_id: int, seat: int, version: int, seed: int | None = None) -> bool:
    """Play a bot seat's move if the match (of ``seed``) is still at ``version``."""
    try:
        with serving_live_play():
            return background.play_bot(match_id, seat, version, seed)
    except (StaleVersion, MatchPaused, Match.DoesNotExist):
        return False
    except CommitUnanswered as error:
        # Stored or not: the sweeper finds out from the database and goes on from there.
        logger.warning("bot move of match %s of unknown outcome: %s", match_id, error)
        return False
    except SERVICE_ERRORS as error:
        # Redis or the database failed before the move was stored (a stored move's
        # followers never raise): the sweeper plans the move again from the database.
        logger.warning("bot move of match %s not played: %s", match_id, describe(error))
        return False


@shared_task(name="live.tasks.fire_timer", ignore_result=True)
def fire_timer(match_id: int, timer_id: str, seed: int | None = None) -> bool:
    """Send a timer's expiry action to the engine if the timer still runs and is due."""
    try:
        with serving_live_play():
            return background.fire_timer(match_id, timer_id, seed)
    except CommitUnanswered as error:  # stored or not: the sweeper finds out
        logger.warning("timer %s of match %s of unknown outcome: %s", timer_id, match_id, error)
        return False
    except SERVICE_ERRORS as error:  # the sweeper fires a due timer that is still stored
        logger.warning("timer %s of match %s not fired: %s", timer_id, match_id, describe(error))
        return False


@shared_task(name="live.tasks.sweep", ignore_result=True)
def sweep() -> dict:
    """Let go of expired lesson holds, fire every due timer, re-schedule bots where a bot
    should act and zero stale socket counts; return counts (none if Redis or the
    database failed on the way)."""
    try:
        with serving_live_play():
            return background.sweep()
    except SERVICE_ERRORS as error:
        # Every step is idempotent and beat runs the sweeper again in a few seconds: what
        # this one did not reach, the next one does.
        logger.warning("sweep stopped short: %s", describe(error))
        return {}


@worker_ready.connect
def sweep_on_start(sender: Consumer | None = None, **kwargs: Any) -> None:
    """Resume every match as soon as a worker is up (after a restart)."""
    send_task("live.tasks.sweep", ())


# Each worker process sends the tables' messages from one event loop of its own, over
# kept Redis connections (classroom.broadcast.OwnLoop).
worker_process_init.connect(send_from_own_loop, dispatch_uid="live.send_from_own_loop")
