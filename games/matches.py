"""Write path of a match: create it, apply an action as its one writer, replay it.

Every accepted action goes through ``apply_action``: under a row lock on the match
(``SELECT ... FOR UPDATE`` where the database has it; SQLite serialises writers with
IMMEDIATE transactions) and a compare-and-set on the version, the engine applies the
action, the action is appended to the log and the snapshot and version are updated in
one transaction. Two processes therefore never interleave moves on one match.

A match is paused while something holds it (``MatchHold``: the teacher's table or
session pause, a lesson card waiting to be read). Holds are taken and released here,
under the same row lock, and ``apply_action`` checks them once, so the write path
refuses every action (a player's, a bot's, a timer's) while any hold exists.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import InterfaceError, OperationalError, connection, transaction
from django.db.models import QuerySet

from games import clock
from games.commit import CommitUnanswered
from games.engine import IllegalAction
from games.engine.base import State
from games.models import Match, MatchAction, MatchHold, MatchTimer
from games.prepared import PreparedInsert, PreparedQuery, PreparedUpdate
from games.registry import get_game

logger = logging.getLogger(__name__)

# What a game's ``from_json`` raises on a snapshot it cannot read: another FORMAT, a
# field missing or of another type.
UNREADABLE = (ValueError, KeyError, TypeError, IndexError, AttributeError)

# The protocol's error codes of an action refused while the match is held.
PAUSED = "paused"
LESSON_PAUSE = "lesson_pause"


def _match_to_write(match_id: int) -> QuerySet[Match]:
    return Match.objects.select_for_update().filter(pk=match_id).order_by()


def _timers_of(match_id: int) -> QuerySet[MatchTimer]:
    return MatchTimer.objects.filter(match_id=match_id)


def _match_at_version(match_id: int, version: int) -> QuerySet[Match]:
    return Match.objects.filter(pk=match_id, version=version)


# Read and written at every move (games.prepared).
MATCH_TO_WRITE = PreparedQuery(_match_to_write)
TIMERS_OF = PreparedQuery(_timers_of)
ACTION_LOGGED = PreparedInsert(MatchAction)
MATCH_MOVED = PreparedUpdate(_match_at_version)


class StaleVersion(Exception):
    """The client acted on a version that is no longer the match's."""

    def __init__(self, expected: int, current: int) -> None:
        self.expected = expected
        self.current = current
        super().__init__(f"version {expected} is stale; the match is at {current}")


class MatchPaused(Exception):
    """The match is held still: no action (not even a timer's expiry) is accepted.

    ``reason`` is the protocol's error code: ``lesson_pause`` while a lesson card holds
    the match, else ``paused`` (the teacher paused the table or the session).
    """

    def __init__(self, reason: str = PAUSED) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Applied:
    """What an accepted action produced; ``timers``: the match's running timers after
    it, soonest first."""

    match: Match
    state: Any
    events: list[dict]
    version: int
    timers: list[MatchTimer] = field(default_factory=list)


def new_seed() -> int:
    """Return a random seed for a new match (stored, so the match can be replayed)."""
    return secrets.randbits(62)


def create_match(
    game_slug: str,
    variant: str,
    num_seats: int,
    seed: int | None = None,
    options: dict | None = None,
) -> Match:
    """Deal a new match and store its first snapshot at version 0."""
    game = get_game(game_slug)
    seed = new_seed() if seed is None else seed
    state = game.new_state(num_seats, seed, variant, options or None)
    with transaction.atomic():
        match = Match.objects.create(
            game=game_slug,
            variant=variant,
            seed=seed,
            num_seats=num_seats,
            options=options or {},
            snapshot=state.to_json(),
        )
        sync_timers(match, state)
    return match


def sync_timers(match: Match, state: State, had_timers: bool = True) -> list[MatchTimer]:
    """Record the due time of each timer that just appeared; forget the ones that ended;
    return the match's running timers, soonest first.

    A timer runs from the moment its id first appears in ``state.timers()``; the
    caller holds the match's write lock (or just created it). ``had_timers`` False: the
    stored snapshot this state was applied to had no running timer, so none is stored
    (every snapshot written comes through here) and, with none now, nothing is read.
    """
    running = {timer["id"]: timer for timer in state.timers()}
    if not had_timers and not running:
        return []
    stored = TIMERS_OF.objects(match.pk)
    ended = [timer.pk for timer in stored if timer.timer_id not in running]
    if ended:
        MatchTimer.objects.filter(pk__in=ended).delete()
    kept = [timer for timer in stored if timer.timer_id in running]
    known = {timer.timer_id for timer in kept}
    now = clock.now()
    created = [
        MatchTimer(
            match=match,
            timer_id=timer_id,
            seconds=timer["seconds"],
            due_at=now + timedelta(seconds=timer["seconds"]),
            action=timer["action"],
        )
        for timer_id, timer in running.items()
        if timer_id not in known
    ]
    if created:
        MatchTimer.objects.bulk_create(created)
    return sorted([*kept, *created], key=lambda timer: (timer.due_at, timer.pk or 0))


class UnreadableState(Exception):
    """A match's stored state cannot be read by this release, and its log cannot be
    replayed to the end with this release's rules either."""


def load_state(match: Match, snapshot: dict | None = None) -> State:
    """Return the engine state of match's snapshot (``snapshot``: the match's, read apart).

    A snapshot this release cannot read (a game's ``FORMAT`` changed with no migration
    of the stored states, docs/adding-a-game.md) is rebuilt from the match's seed and
    action log with today's rules, as the debrief replays a match, and stored again:
    the game goes on where it was. Raise UnreadableState when those rules refuse a
    logged move too."""
    try:
        return get_game(match.game).from_json(match.snapshot if snapshot is None else snapshot)
    except UNREADABLE as error:
        return _rebuilt(match, error)


def _rebuilt(match: Match, error: Exception) -> State:
    """Return match's state replayed from its log up to its version, and store it in
    the place of the unreadable snapshot (unless another move stored a newer one)."""
    replayed = replay_stored(match, upto=match.version)
    if replayed.refused is not None or replayed.reached != match.version:
        raise UnreadableState(
            f"match {match.pk}: its stored state cannot be read ({error!r}), and today's "
            f"rules stop its replay at move {replayed.reached} of {match.version}"
        ) from error
    snapshot = replayed.state.to_json()
    stored = Match.objects.filter(pk=match.pk, version=match.version).update(snapshot=snapshot)
    match.snapshot = snapshot
    logger.warning(
        "Match %s: its stored state could not be read (%r); rebuilt from its %s moves "
        "with today's rules%s",
        match.pk,
        error,
        match.version,
        "" if stored else " (not stored again: a newer move is)",
    )
    return replayed.state


def apply_action(
    match_id: int, seat: int | None, action: dict, expected_version: int | None = None
) -> Applied:
    """Apply action for seat as the match's one writer; return what it produced.

    Raise StaleVersion when expected_version is given and is not the current one,
    MatchPaused while the match has a hold, IllegalAction when the engine refuses; in
    every case nothing is written. The running timers' records follow the new state.
    Raise CommitUnanswered when the connection was lost during the COMMIT: the move
    may be stored or not.
    """
    with committed():
        match = MATCH_TO_WRITE.first(match_id)
        if match is None:
            raise Match.DoesNotExist(f"no match {match_id}")
        if expected_version is not None and expected_version != match.version:
            raise StaleVersion(expected_version, match.version)
        if match.status == Match.Status.FINISHED:
            raise IllegalAction("game_over", "The game is over.")
        if match.status == Match.Status.PAUSED:
            raise MatchPaused(pause_reason(match))
        state = load_state(match)
        _refuse_lookalike(state, seat, action)
        had_timers = bool(state.timers())
        events = state.apply(seat, action)
        version = match.version + 1
        ACTION_LOGGED.insert(
            match_id=match.pk, version=version, seat=seat, action=action, events=events
        )
        fields: dict[str, Any] = {"version": version, "snapshot": state.to_json()}
        if state.is_over():
            fields.update(
                status=Match.Status.FINISHED, result=state.result(), finished_at=clock.now()
            )
        # The compare-and-set guards databases without row locks as well.
        updated = MATCH_MOVED.update(match.pk, match.version, updated_at=clock.now(), **fields)
        if updated != 1:
            raise StaleVersion(match.version, Match.objects.get(pk=match.pk).version)
        for name, value in fields.items():
            setattr(match, name, value)
        timers = sync_timers(match, state, had_timers)
    return Applied(match=match, state=state, events=events, version=version, timers=timers)


@contextmanager
def committed() -> Iterator[None]:
    """A transaction, as ``transaction.atomic``, whose COMMIT that loses its connection
    raises CommitUnanswered: the database may have stored it before the answer was lost.
    A COMMIT refused on a sound connection (SQLite's lock) stored nothing: its error
    stays as it is, and so does one inside a caller's transaction (no COMMIT here)."""
    outermost, sent = not connection.in_atomic_block, None
    try:
        with transaction.atomic():
            yield
            if outermost:
                sent = connection.connection  # the body is done: the COMMIT goes now
    except (OperationalError, InterfaceError) as error:
        if sent is not None and (sent is not connection.connection or not connection.is_usable()):
            raise CommitUnanswered(str(error)) from error
        raise


def stored_move(
    match_id: int, seat: int | None, version: int | None, action: dict | None = None
) -> Applied | None:
    """Return the move ``seat`` made at ``version`` as ``apply_action`` returned it, when
    it is the match's last one (the match is at ``version + 1``; ``None``: at any
    version) and, with ``action`` given, that action; else None.

    For the second try of a move whose first try lost its database connection during
    the COMMIT: the move may have been stored with the commit's answer lost. The second
    try, refused as stale, then finds its own move and finishes what follows it (the
    table's states, the followers, the scheduling) instead of leaving that undone."""
    with transaction.atomic():
        match = MATCH_TO_WRITE.first(match_id)
        if match is None or (version is not None and match.version != version + 1):
            return None
        entry = MatchAction.objects.filter(match_id=match_id, version=match.version).first()
        if entry is None or entry.seat != seat:
            return None
        if action is not None and not same_json(entry.action, action):
            return None
        timers = sorted(TIMERS_OF.objects(match_id), key=lambda timer: (timer.due_at, timer.pk))
    return Applied(
        match=match,
        state=load_state(match),
        events=entry.events,
        version=match.version,
        timers=timers,
    )


def same_json(a: Any, b: Any) -> bool:
    """Tell whether two JSON values are the same, types included: Python's ``==`` holds
    for ``1``, ``1.0`` and ``true``, which JSON tells apart."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(value, b[key]) for key, value in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(map(same_json, a, b))
    return a == b


def _refuse_lookalike(state: Any, seat: int | None, action: Any) -> None:
    """Refuse an action equal to a legal one only by Python's ``==`` (a seat sent as
    ``1.0`` or ``true``): the engine would index a list with it, or store a changed
    action in the log. A client sends one of its legal actions unchanged."""
    legal = state.legal_actions(seat)
    if action in legal and not any(same_json(action, allowed) for allowed in legal):
        raise IllegalAction("illegal_action", "This move is not allowed now.")


@dataclass(frozen=True)
class Replayed:
    """A match's log replayed with this release's rules: the state reached, the last
    version replayed, the version of the first logged move these rules refuse (None:
    they took every move asked for), and a copy of the state after version ``keep``
    when it was asked for and reached."""

    state: State
    reached: int
    refused: int | None
    kept: State | None = None


def replay_stored(match: Match, upto: int | None = None, keep: int | None = None) -> Replayed:
    """Replay match's seed and action log (up to version ``upto``) with this release's
    rules, stopping before the first move they refuse; keep a copy of the state after
    version ``keep`` (0: as dealt).

    A match played before an upgrade that changed its game's rules (a window that now
    opens, a card that now does otherwise) has moves in its log that the new rules may
    refuse: what replays a stored match for people (the debrief, its replay page) shows
    it as far as the rules of today allow, and says where it stops, rather than fail."""
    actions = match.actions.order_by("version")
    if upto is not None:
        actions = actions.filter(version__lte=upto)
    state = get_game(match.game).new_state(
        match.num_seats, match.seed, match.variant, match.options or None
    )
    kept = state.copy() if keep == 0 else None
    reached = 0
    for version, seat, action in actions.values_list("version", "seat", "action"):
        try:
            state.apply(seat, action)
        except IllegalAction:
            return Replayed(state, reached, version, kept)
        reached = version
        if version == keep:
            kept = state.copy()
    return Replayed(state, reached, None, kept)


def replay_match(match: Match, upto: int | None = None) -> State:
    """Rebuild match's state from its seed and action log (up to version upto); raise
    IllegalAction when this release's rules refuse a logged move (``replay_stored``
    stops there instead)."""
    replayed = replay_stored(match, upto)
    if replayed.refused is not None:
        raise IllegalAction(
            "illegal_action", f"today's rules refuse move {replayed.refused} of match {match.pk}"
        )
    return replayed.state


# Pauses. The match's holds are the pause; Match.status (PAUSED) and Match.paused_at
# summarise them for queries and are written with them, under the match's row lock.

# How long a lesson card holds a match when nobody dismisses it; then the sweeper lets
# go of it (as a teacher who ended the lesson pause would).
LESSON_HOLD_SECONDS = 6 * 3600


@dataclass(frozen=True)
class Released:
    """What letting go of holds left: the match, whether it runs again (no hold left:
    its timers moved later by the pause), the kinds of hold it still has, and the seats
    its remaining lesson holds wait for."""

    match: Match
    resumed: bool
    kinds: frozenset[str]
    waiting: list[int]


def pause_reason(match: Match) -> str:
    """Return the protocol's error code for an action refused by the match's holds."""
    kinds = set(match.holds.values_list("kind", flat=True))
    return LESSON_PAUSE if MatchHold.Kind.LESSON in kinds else PAUSED


def hold(match_id: int, kind: str) -> Match:
    """Take the teacher's hold of ``kind`` (``table`` or ``session``) on a match: it
    pauses and its timers stop. A hold the match has already, or a finished match,
    changes nothing."""
    now = clock.now()
    with transaction.atomic():
        match = _lock(match_id)
        if match.status != Match.Status.FINISHED:
            MatchHold.objects.get_or_create(
                match=match, kind=kind, moment=None, defaults={"created_at": now}
            )
            _pause(match, now)
    return match


def release(match_id: int, kind: str) -> Released:
    """Let go of the teacher's hold of ``kind``; the match resumes if no hold is left."""
    now = clock.now()
    with transaction.atomic():
        match = _lock(match_id)
        match.holds.filter(kind=kind).delete()
        return _released(match, now)


def hold_for_lessons(match_id: int, moments: list[dict]) -> Match:
    """Hold the match until the seats shown each lesson card dismissed it.

    ``moments``: ``{"moment", "event", "lesson", "seats", "waiting"}``, each waiting for
    at least one seat. A finished match takes no hold.
    """
    now = clock.now()
    expires_at = now + timedelta(seconds=LESSON_HOLD_SECONDS)
    # inside a caller's transaction, all or none with it: no savepoint's round trips
    with transaction.atomic(savepoint=False):
        match = _lock(match_id)
        if match.status != Match.Status.FINISHED:
            MatchHold.objects.bulk_create(
                MatchHold(
                    match=match,
                    kind=MatchHold.Kind.LESSON,
                    moment=entry["moment"],
                    event=entry["event"],
                    lesson=entry["lesson"],
                    seats=entry["seats"],
                    waiting=entry["waiting"],
                    created_at=now,
                    expires_at=expires_at,
                )
                for entry in moments
            )
            _pause(match, now)
    return match


def dismiss_lessons(
    match_id: int, moment: int | None, seat: int | None, everyone: bool = False
) -> Released | None:
    """A seat dismissed the lesson card of ``moment`` (``everyone``: the teacher ended
    every lesson card's hold). Return what is left, or None when nothing changed (no
    such hold, or the seat was not waited for)."""
    now = clock.now()
    with transaction.atomic():
        match = _lock(match_id)
        changed = []
        for entry in match.holds.filter(kind=MatchHold.Kind.LESSON):
            if everyone:
                entry.waiting = []
            elif entry.moment == moment and seat in entry.waiting:
                entry.waiting = [other for other in entry.waiting if other != seat]
            else:
                continue
            changed.append(entry)
        if not changed:
            return None
        for entry in changed:
            if entry.waiting:
                entry.save(update_fields=["waiting"])
            else:
                entry.delete()
        return _released(match, now)


def expired_holds() -> list[int]:
    """Return the ids of the matches that have a hold whose time ran out."""
    expired = MatchHold.objects.filter(expires_at__lte=clock.now())
    return sorted(set(expired.values_list("match_id", flat=True)))


def release_expired(match_id: int) -> Released | None:
    """Let go of the match's holds whose time ran out; None when it has none."""
    now = clock.now()
    with transaction.atomic():
        match = _lock(match_id)
        deleted, _detail = match.holds.filter(expires_at__lte=now).delete()
        if not deleted:
            return None
        return _released(match, now)


def _lock(match_id: int) -> Match:
    return Match.objects.select_for_update().get(pk=match_id)


def _pause(match: Match, now: datetime) -> None:
    """Mark a running match paused (its first hold): its timers stop from ``now``."""
    if match.status == Match.Status.RUNNING:
        match.status, match.paused_at = Match.Status.PAUSED, now
        match.save(update_fields=["status", "paused_at", "updated_at"])


def _released(match: Match, now: datetime) -> Released:
    """Resume a paused match that has no hold left, its timers moved later by the pause."""
    holds = list(match.holds.all())
    resumed = not holds and match.status == Match.Status.PAUSED
    if resumed:
        pause = now - (match.paused_at or now)
        for timer in MatchTimer.objects.filter(match=match):
            timer.due_at += pause
            timer.save(update_fields=["due_at"])
        match.status, match.paused_at = Match.Status.RUNNING, None
        match.save(update_fields=["status", "paused_at", "updated_at"])
    waiting = sorted({seat for entry in holds for seat in entry.waiting})
    return Released(match, resumed, frozenset(entry.kind for entry in holds), waiting)
