"""The write path of live play: an action applied as the match's one writer, what
follows it (the table, the dashboard, the apps that listen to stored actions, the
scheduling of bots and timers) and the dismissal of lesson pauses.

The consumers (live.consumers), the Celery tasks' work (live.background) and the
lessons app's views call these synchronous functions. The sockets never re-read the
match after an action: the states they send are built here, once per seat.
"""

from __future__ import annotations

import asyncio
import logging

from django.core.cache import cache

from classroom.broadcast import (
    dashboard_group,
    send_group,
    send_groups,
    table_group,
)
from classroom.models import Table
from classroom.services import SERVICE_ERRORS, describe
from games.matches import (
    Applied,
    Released,
    StaleVersion,
    apply_action,
    dismiss_lessons,
    expired_holds,
    release_expired,
    stored_move,
)
from games.models import Match, MatchHold
from games.signals import action_stored
from live import messages
from live.scheduling import schedule

logger = logging.getLogger(__name__)


def act(
    match_id: int,
    seat: int | None,
    action: dict,
    expected_version: int | None,
    loop: asyncio.AbstractEventLoop | None = None,
    *,
    found: messages.ActionTable | None = None,
    resent: bool = False,
) -> Applied:
    """Apply an action as the match's one writer, then tell the table and schedule.

    The match's table, its session and seats are read once, before the action
    (``found``: the caller read them already, ``messages.action_table``, to check the
    seat may play). After the commit, ``games.signals.action_stored`` tells the apps
    that follow the games (the lessons app records the lesson moments and, in the
    "pause" lesson mode, holds the match until the players shown a lesson card dismiss
    it: ``apply_action`` raises MatchPaused while the match has any hold). Then each
    seat's new ``state`` is built once, here, and sent to the table in one message with
    the followers' messages, which each socket handles after its state. ``loop``: the
    event loop of the socket that called this from the server's database thread; the
    messages are then sent there without this thread waiting for them
    (``classroom.broadcast.send_groups``).

    ``resent``: the second try of a move whose first try lost its database connection
    (``classroom.services.running_again``). When the first was stored after all (its
    commit's answer lost), the move is found in the log rather than refused as stale,
    and what follows it is done now.
    """
    _require_redis()
    if found is None:
        found = messages.action_table(match_id=match_id)
    try:
        applied = apply_action(match_id, seat, action, expected_version)
    except StaleVersion:
        stored = None
        if resent and expected_version is not None:
            stored = finish_stored(match_id, seat, expected_version, action, found=found, loop=loop)
        if stored is None:
            raise
        return stored
    return after_move(applied, found, loop)


def finish_stored(
    match_id: int,
    seat: int | None,
    version: int | None,
    action: dict | None = None,
    *,
    found: messages.ActionTable | None = None,
    loop: asyncio.AbstractEventLoop | None = None,
) -> Applied | None:
    """Do what follows the move ``seat`` made at ``version`` (``None``: at any version;
    ``action``: only that action) when it is the match's last one
    (``games.matches.stored_move``) and return it; else None.

    For a move tried again after a lost database connection: the first try's commit
    may have stored it and lost its answer. A socket's move is then refused as stale; a
    bot's action is not known without the state it was chosen in, and a timer's record
    is gone with its expiry."""
    applied = stored_move(match_id, seat, version, action)
    if applied is None:
        return None
    logger.warning(
        "match %s: move %s was stored before its answer was lost", match_id, applied.version
    )
    if found is None:
        found = messages.action_table(match_id=match_id)
    return after_move(applied, found, loop)


def after_move(
    applied: Applied,
    found: messages.ActionTable | None,
    loop: asyncio.AbstractEventLoop | None = None,
) -> Applied:
    """Tell the table and the followers of a stored move, and schedule what follows it
    (``act``); return ``applied``."""
    match_id = applied.match.pk
    # The move is stored: a service failing from here on must not make it look refused.
    # A socket that misses a state notices the gap at the next one and reads the table
    # itself; the sweeper schedules the bots and timers again within LIVE_SWEEP_SECONDS.
    try:
        if found is not None:
            messages.mark_current(found, applied)
        followers = _tell_followers(applied.match, applied.events, found)
        snap = messages.load_applied(applied, found) if found is not None else None
        if snap is None:
            schedule(applied.match, state=applied.state, timers=applied.timers)
            return applied
        table = snap.table.pk
        send_groups(
            [
                _states(snap, applied, followers),
                (
                    dashboard_group(snap.table.session_id),
                    {"type": "dashboard.changed", "reason": "move", "table": table},
                ),
            ],
            loop=loop,
        )
        schedule(snap.match, state=snap.state, bots=snap.bot_seats(), timers=snap.timers)
    except SERVICE_ERRORS as error:
        logger.warning("match %s: after the move was stored: %s", match_id, describe(error))
    return applied


def _states(
    snap: messages.TableSnapshot, applied: Applied, followers: list[dict]
) -> tuple[str, dict]:
    """Return the table's ``table.states`` message: each listening seat's new state (the
    projector's: the public one), built once here and written as JSON text, the log in
    every language (JSON text too), and ``then``: the followers' table messages (a
    lesson card), which each socket handles after its state, the move they are about.

    One message to the table's group, not one per seat's group or per follower: the
    channel layer writes a group message once per server process that has sockets in
    the group, so a move costs the server two group sends (this and the dashboard's)
    and Redis one delivery per process. Each socket sends on its own seat's state only,
    with its language's log joined to the text (``TableConsumer.table_states``): no
    process unpacks the states into objects or writes them to JSON again per socket.
    """
    states, logs = messages.action_states(snap, applied)
    return (
        table_group(snap.table.pk),
        {
            "type": "table.states",
            "version": snap.match.version,
            "texts": {
                messages.audience_key(seat): messages.json_bytes(state)
                for seat, state in states.items()
            },
            "logs": {code: messages.json_bytes(lines) for code, lines in logs.items()},
            # A lesson pause's cards are in every language: a socket picks its own.
            "cards": snap.lesson_pause is not None,
            "then": followers,
        },
    )


def _tell_followers(
    match: Match, events: list[dict], found: messages.ActionTable | None
) -> list[dict]:
    """Send ``action_stored`` (with the match's table and seats when it has a table);
    return the table messages its receivers give back."""
    table, seats = (found.table, found.seats) if found is not None else (None, None)
    replies = []
    for receiver, response in action_stored.send_robust(
        Match, match=match, events=events, table=table, seats=seats
    ):
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
            replies.extend(response)
    return replies


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
