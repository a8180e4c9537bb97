"""Write path of a match: create it, apply an action as its one writer, replay it.

Every accepted action goes through ``apply_action``: under a row lock on the match
(``SELECT ... FOR UPDATE`` where the database has it; SQLite serialises writers with
IMMEDIATE transactions) and a compare-and-set on the version, the engine applies the
action, the action is appended to the log and the snapshot and version are updated in
one transaction. Two processes therefore never interleave moves on one match.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.engine import IllegalAction
from games.engine.replay import replay
from games.models import Match, MatchAction, MatchTimer
from games.registry import get_game


class StaleVersion(Exception):
    """The client acted on a version that is no longer the match's."""

    def __init__(self, expected: int, current: int):
        self.expected = expected
        self.current = current
        super().__init__(f"version {expected} is stale; the match is at {current}")


class MatchPaused(Exception):
    """The match is paused: no action (not even a timer's expiry) is accepted."""


@dataclass(frozen=True)
class Applied:
    """What an accepted action produced."""

    match: Match
    state: Any
    events: list[dict]
    version: int


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


def sync_timers(match: Match, state) -> list[MatchTimer]:
    """Record the due time of each timer that just appeared; forget the ones that ended.

    A timer runs from the moment its id first appears in ``state.timers()``; the
    caller holds the match's write lock (or just created it).
    """
    running = {timer["id"]: timer for timer in state.timers()}
    MatchTimer.objects.filter(match=match).exclude(timer_id__in=list(running)).delete()
    known = set(MatchTimer.objects.filter(match=match).values_list("timer_id", flat=True))
    now = timezone.now()
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
    MatchTimer.objects.bulk_create(created)
    return created


def set_paused(match_id: int, paused: bool) -> Match:
    """Pause or resume a match; on resume its timers are pushed back by the pause."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.status == Match.Status.FINISHED:
            return match
        now = timezone.now()
        if paused and match.status != Match.Status.PAUSED:
            match.status, match.paused_at = Match.Status.PAUSED, now
            match.save(update_fields=["status", "paused_at", "updated_at"])
        elif not paused and match.status == Match.Status.PAUSED:
            pause = now - (match.paused_at or now)
            for timer in MatchTimer.objects.filter(match=match):
                timer.due_at += pause
                timer.save(update_fields=["due_at"])
            match.status, match.paused_at = Match.Status.RUNNING, None
            match.save(update_fields=["status", "paused_at", "updated_at"])
    return match


def load_state(match: Match):
    """Return the engine state of match's snapshot."""
    return get_game(match.game).from_json(match.snapshot)


def apply_action(
    match_id: int, seat: int | None, action: dict, expected_version: int | None = None
) -> Applied:
    """Apply action for seat as the match's one writer; return what it produced.

    Raise StaleVersion when expected_version is given and is not the current one,
    MatchPaused while the match is paused, IllegalAction when the engine refuses; in
    every case nothing is written. The running timers' records follow the new state.
    """
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if expected_version is not None and expected_version != match.version:
            raise StaleVersion(expected_version, match.version)
        if match.status == Match.Status.FINISHED:
            raise IllegalAction("game_over", "The game is over.")
        if match.status == Match.Status.PAUSED:
            raise MatchPaused()
        state = load_state(match)
        events = state.apply(seat, action)
        version = match.version + 1
        MatchAction.objects.create(
            match=match, version=version, seat=seat, action=action, events=events
        )
        fields: dict[str, Any] = {"version": version, "snapshot": state.to_json()}
        if state.is_over():
            fields.update(
                status=Match.Status.FINISHED, result=state.result(), finished_at=timezone.now()
            )
        # The compare-and-set guards databases without row locks as well.
        updated = Match.objects.filter(pk=match.pk, version=match.version).update(
            updated_at=timezone.now(), **fields
        )
        if updated != 1:
            raise StaleVersion(match.version, Match.objects.get(pk=match.pk).version)
        for name, value in fields.items():
            setattr(match, name, value)
        sync_timers(match, state)
    return Applied(match=match, state=state, events=events, version=version)


def replay_match(match: Match, upto: int | None = None):
    """Rebuild match's state from its seed and action log (up to version upto)."""
    actions = match.actions.order_by("version")
    if upto is not None:
        actions = actions.filter(version__lte=upto)
    log = [(entry.seat, entry.action) for entry in actions]
    return replay(
        get_game(match.game),
        match.num_seats,
        match.seed,
        match.variant,
        log,
        match.options or None,
    )
