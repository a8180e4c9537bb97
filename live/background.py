"""The work of live play's Celery tasks (live.tasks): a bot's move, a timer's expiry,
and the sweeper that resumes every match after a restart.
"""

from __future__ import annotations

import logging
import random

from django.db.models import Q

from classroom.actions import do_forget_stale_connections
from classroom.models import Seat
from classroom.services import again_on_lost_connection, running_again
from games import clock
from games.engine import IllegalAction
from games.matches import MatchPaused, UnreadableState, load_state
from games.models import Match, MatchTimer
from games.registry import get_game
from live import scheduling
from live.messages import bot_kinds
from live.write import act, finish_stored, release_expired_lesson_pauses

logger = logging.getLogger(__name__)


@again_on_lost_connection  # version-checked: safe to run twice
def play_bot(match_id: int, seat: int, version: int, seed: int | None = None) -> bool:
    """Play one bot move at ``seat`` if the match is still at ``version``; tell if played.

    ``seed`` (the match's) guards against a task outliving its match: a database may
    give a deleted match's id to a new one.
    """
    match = Match.objects.get(pk=match_id)
    if seed is not None and match.seed != seed:
        return False
    if match.version == version + 1 and running_again():
        # The first try lost its connection: during its COMMIT, the move may be stored.
        return finish_stored(match_id, seat, version) is not None
    if match.version != version or match.status != Match.Status.RUNNING:
        return False  # a newer schedule exists, or the resume will schedule again
    kind = scheduling.bot_seats(match).get(seat)
    state = load_state(match)
    if not kind or seat not in state.to_move():
        return False
    game = get_game(match.game)
    legal = state.legal_actions(seat)
    bot = game.bot(kind)
    view = state.view(seat) if getattr(bot, "needs_view", True) else None
    rng = random.Random(f"{match.seed}:{version}:{seat}")
    action = bot.choose(view, legal, rng)
    act(match_id, seat, action, version)
    return True


def fire_timer(match_id: int, timer_id: str, seed: int | None = None) -> bool:
    """Send a timer's expiry action to the engine if the timer still runs and is due."""
    action = due_timer_action(match_id, timer_id, seed)
    return action is not None and expire(match_id, timer_id, action)


@again_on_lost_connection  # a read
def due_timer_action(match_id: int, timer_id: str, seed: int | None = None) -> dict | None:
    """Return the expiry action of the timer if it still runs and is due, else None."""
    timers = MatchTimer.objects.filter(match_id=match_id, timer_id=timer_id)
    if seed is not None:  # the match the task was queued for, not a new one with its id
        timers = timers.filter(match__seed=seed)
    timer = timers.first()
    if timer is None:
        return None  # the timer ended (answered in time) or fired already
    if timer.due_at > clock.now():
        # Early: a pause pushed the timer back, or the worker ran the task a little
        # before its eta (Celery's timer may). Queue it again for the due time, so that
        # the expiry never waits for the sweeper.
        scheduling.send_task(
            "live.tasks.fire_timer",
            (match_id, timer_id, seed),
            countdown=clock.until(timer.due_at),
        )
        return None
    return timer.action


@again_on_lost_connection  # an expiry is played once: its timer ends with it
def expire(match_id: int, timer_id: str, action: dict) -> bool:
    """Play the expiry ``action`` of timer ``timer_id`` as the referee; tell if played."""
    if running_again() and finish_stored(match_id, None, None, action) is not None:
        return True  # the first try's COMMIT stored it and lost its answer
    try:
        act(match_id, None, action, None)
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
    ).values_list("match_id", "match__seed", "timer_id")
    fired = 0
    for match_id, seed, timer_id in list(due):
        if (match_id, seed) in _unreadable:
            continue
        try:
            fired += fire_timer(match_id, timer_id)
        except UnreadableState:
            _leave_alone(match_id, seed)
    bots = sweep_bots()
    stale = do_forget_stale_connections()
    return {
        "released": released,
        "fired": fired,
        "bots": bots,
        "stale_connections": stale,
    }


# The matches (id and seed) whose state this release can neither read nor rebuild
# (games.matches.UnreadableState): logged once, then left out of this worker's sweeps,
# so that one such match does not stop the timers and bots of every other.
_unreadable: set[tuple[int, int | None]] = set()


def _leave_alone(match_id: int, seed: int | None) -> None:
    logger.exception(
        "Match %s cannot go on: this worker's sweeps leave its timers and bots alone", match_id
    )
    _unreadable.add((match_id, seed))


# The seats that may act in each running match with bots, by the match's version, as
# this worker last read them: the sweeper asks every few seconds, and most matches have
# not moved since (a human's turn); only a match at a new version is read and parsed.
_movers: dict[int, tuple[int, int | None, list[int]]] = {}


def sweep_bots() -> int:
    """Schedule the bot moves now due in every running match with a bot seat (a task
    lost in a crash, a match resumed by a restart); return how many were queued.

    Two reads for all the matches (the matches without their snapshots, their bot
    seats); a snapshot is read and parsed only for a match at a version this worker has
    not seen.
    """
    matches = list(
        Match.objects.filter(status=Match.Status.RUNNING)
        .filter(Q(table__seats__participant__isnull=True) | Q(table__seats__bot_takeover=True))
        .distinct()
        .defer("snapshot", "result")
    )
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table__match__in=matches).select_related("table"):
        seats.setdefault(seat.table.match_id, []).append(seat)
    running = {match.pk for match in matches}
    for gone in [match_id for match_id in _movers if match_id not in running]:
        del _movers[gone]
    scheduled = 0
    for match in matches:
        bots = bot_kinds(seats.get(match.pk, []))
        if not bots:
            continue
        if (match.pk, match.seed) in _unreadable:
            continue
        known = _movers.get(match.pk)
        if known is None or known[:2] != (match.version, match.seed):
            try:
                known = (match.version, match.seed, load_state(match).to_move())
            except UnreadableState:
                _leave_alone(match.pk, match.seed)
                continue
            _movers[match.pk] = known
        scheduled += scheduling.schedule_bots(match, delay=0, bots=bots, movers=known[2])
    return scheduled
