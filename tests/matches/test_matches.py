"""The match write path: one writer per match, an append-only log, replay."""

import random
import threading
from collections.abc import Callable
from datetime import timedelta
from types import ModuleType

import pytest
from django.db import close_old_connections

from games.engine import IllegalAction
from games.matches import (
    LESSON_HOLD_SECONDS,
    LESSON_PAUSE,
    PAUSED,
    MatchPaused,
    StaleVersion,
    apply_action,
    create_match,
    dismiss_lessons,
    expired_holds,
    hold,
    hold_for_lessons,
    load_state,
    release,
    release_expired,
    replay_match,
)
from games.models import Match, MatchAction, MatchHold, MatchTimer

GAME = "data_tycoon"


def first_mover_action(match: Match, rng: random.Random) -> tuple[int | None, dict]:
    """Pick a legal action of someone who may act now (or the referee's expiry)."""
    state = load_state(match)
    movers = state.to_move()
    if movers:
        seat = movers[0]
        return seat, rng.choice(state.legal_actions(seat))
    return None, rng.choice(state.legal_actions(None))


@pytest.mark.django_db
def test_create_match_stores_the_dealt_snapshot_at_version_zero():
    match = create_match(GAME, "expert", 3, seed=11)

    assert match.version == 0
    assert match.snapshot == load_state(match).to_json()
    assert match.actions.count() == 0


@pytest.mark.django_db
def test_an_accepted_action_appends_to_the_log_and_bumps_the_version():
    match = create_match(GAME, "standard", 2, seed=5)
    seat, action = first_mover_action(match, random.Random(0))

    applied = apply_action(match.pk, seat, action, expected_version=0)

    match.refresh_from_db()
    assert applied.version == match.version == 1
    entry = MatchAction.objects.get(match=match)
    assert (entry.version, entry.seat, entry.action, entry.events) == (
        1,
        seat,
        action,
        applied.events,
    )
    assert match.snapshot == applied.state.to_json()


@pytest.mark.django_db
def test_a_stale_version_is_refused_and_changes_nothing():
    match = create_match(GAME, "standard", 2, seed=5)
    seat, action = first_mover_action(match, random.Random(0))
    apply_action(match.pk, seat, action, expected_version=0)
    match.refresh_from_db()
    before = match.snapshot
    seat, action = first_mover_action(match, random.Random(1))

    with pytest.raises(StaleVersion) as refused:
        apply_action(match.pk, seat, action, expected_version=0)

    match.refresh_from_db()
    assert refused.value.current == 1
    assert match.version == 1
    assert match.snapshot == before
    assert match.actions.count() == 1


def replace_numbers(action: dict, by: Callable[[int], object]) -> dict:
    """Return the action with each integer field replaced by ``by(value)``."""
    return {
        key: by(value) if isinstance(value, int) and not isinstance(value, bool) else value
        for key, value in action.items()
    }


@pytest.mark.django_db
def test_an_action_equal_to_a_legal_one_only_by_pythons_equality_is_refused():
    """``{"target": 1.0}`` or ``{"target": true}`` equals ``{"target": 1}`` in Python: the
    engine indexed a list with the float (a crash) and stored the bool in the log."""
    match = create_match(GAME, "standard", 2, seed=5)
    rng = random.Random(3)
    tried = 0
    for _ in range(400):
        state = load_state(match)
        if state.is_over():
            break
        seat, action = first_mover_action(match, rng)
        numbered = [a for a in state.legal_actions(seat) if any(type(v) is int for v in a.values())]
        for legal in numbered:
            for by in (float, bool):
                lookalike = replace_numbers(legal, by)
                if lookalike != legal:  # bool(2) is not 2
                    continue
                with pytest.raises(IllegalAction) as refused:
                    apply_action(match.pk, seat, lookalike, expected_version=match.version)
                assert refused.value.code == "illegal_action"
                tried += 1
        apply_action(match.pk, seat, action, expected_version=match.version)
        match.refresh_from_db()
    assert tried > 0, "no legal action with a number came up"
    assert not match.actions.filter(action__target=True).exists()
    assert replay_match(match).to_json() == match.snapshot


@pytest.mark.django_db
def test_an_illegal_action_is_refused_and_changes_nothing():
    match = create_match(GAME, "standard", 2, seed=5)
    state = load_state(match)
    idle = next(seat for seat in range(2) if seat not in state.to_move())

    with pytest.raises(IllegalAction):
        apply_action(match.pk, idle, {"type": "no_such_action"}, expected_version=0)

    match.refresh_from_db()
    assert match.version == 0
    assert match.actions.count() == 0
    assert match.snapshot == state.to_json()


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_actions_on_one_version_never_both_apply():
    match = create_match(GAME, "expert", 2, seed=3)
    seat, action = first_mover_action(match, random.Random(2))
    barrier = threading.Barrier(4)
    outcomes: list[str] = []

    def act() -> None:
        barrier.wait()
        try:
            apply_action(match.pk, seat, action, expected_version=0)
            outcomes.append("applied")
        except (StaleVersion, IllegalAction):
            outcomes.append("refused")
        finally:
            close_old_connections()

    threads = [threading.Thread(target=act) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert sorted(outcomes) == ["applied", "refused", "refused", "refused"]
    match.refresh_from_db()
    assert match.version == 1
    assert list(match.actions.values_list("version", flat=True)) == [1]


@pytest.mark.django_db
def test_a_whole_game_finishes_and_replay_from_the_log_rebuilds_it():
    match = create_match(GAME, "expert", 3, seed=21)
    rng = random.Random(21)
    for _ in range(5000):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
        seat, action = first_mover_action(match, rng)
        apply_action(match.pk, seat, action, expected_version=match.version)
    match.refresh_from_db()

    assert match.status == Match.Status.FINISHED
    assert match.result == load_state(match).result()
    assert match.finished_at is not None
    assert replay_match(match).to_json() == match.snapshot
    with pytest.raises(IllegalAction):
        apply_action(match.pk, 0, {"type": "pass"})


# Pauses: a match is held still while it has any hold (games.models.MatchHold).


def held_match(clock: ModuleType, seconds: int = 15) -> tuple[Match, MatchTimer]:
    """Return a fresh match with one running timer due ``seconds`` from now."""
    match = create_match(GAME, "standard", 2, seed=5)
    timer = MatchTimer.objects.create(
        match=match,
        timer_id="w9",
        seconds=seconds,
        due_at=clock.now() + timedelta(seconds=seconds),
        action={"type": "expire", "timer": "w9"},
    )
    return match, timer


@pytest.mark.django_db
def test_a_held_match_refuses_every_action_with_the_reason_and_writes_nothing(clock):
    match, _timer = held_match(clock)
    seat, action = first_mover_action(match, random.Random(0))
    hold(match.pk, MatchHold.Kind.TABLE)
    with pytest.raises(MatchPaused) as refused:
        apply_action(match.pk, seat, action, expected_version=0)
    assert refused.value.reason == PAUSED
    with pytest.raises(MatchPaused):
        apply_action(match.pk, None, {"type": "expire", "timer": "w9"})  # a timer's too

    moment = {"moment": 7, "event": "attack", "lesson": {"slug": "x"}, "seats": [0, 1]}
    hold_for_lessons(match.pk, [{**moment, "waiting": [1]}])
    with pytest.raises(MatchPaused) as refused:
        apply_action(match.pk, seat, action, expected_version=0)
    assert refused.value.reason == LESSON_PAUSE  # the lesson card says what to do
    match.refresh_from_db()
    assert match.version == 0 and match.actions.count() == 0
    assert match.status == Match.Status.PAUSED


@pytest.mark.django_db
def test_the_match_runs_again_when_its_last_hold_goes_with_timers_moved_by_the_pause(clock):
    match, timer = held_match(clock)
    hold(match.pk, MatchHold.Kind.TABLE)
    hold(match.pk, MatchHold.Kind.TABLE)  # taken already: nothing changes
    assert match.holds.count() == 1
    clock.advance(10)
    hold(match.pk, MatchHold.Kind.SESSION)
    clock.advance(10)
    released = release(match.pk, MatchHold.Kind.TABLE)
    assert not released.resumed and released.kinds == {MatchHold.Kind.SESSION}
    assert MatchTimer.objects.get(pk=timer.pk).due_at == timer.due_at  # still stopped
    clock.advance(10)
    released = release(match.pk, MatchHold.Kind.SESSION)
    assert released.resumed and released.kinds == set()

    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING and match.paused_at is None
    moved = (MatchTimer.objects.get(pk=timer.pk).due_at - timer.due_at).total_seconds()
    # the whole pause, from the first hold to the last release (plus the test's real seconds)
    assert 30 <= moved < 40
    seat, action = first_mover_action(match, random.Random(0))
    assert apply_action(match.pk, seat, action, expected_version=0).version == 1


@pytest.mark.django_db
def test_lesson_holds_wait_for_their_seats_then_let_go(clock):
    match, timer = held_match(clock)
    lesson = {"event": "attack", "lesson": {"slug": "sanctions"}, "seats": [0, 1]}
    hold_for_lessons(
        match.pk,
        [{**lesson, "moment": 7, "waiting": [0, 1]}, {**lesson, "moment": 8, "waiting": [1]}],
    )
    assert dismiss_lessons(match.pk, 8, 0) is None  # seat 0 is not waited for there
    assert dismiss_lessons(match.pk, 9, 1) is None  # no such card
    released = dismiss_lessons(match.pk, 7, 1)
    assert released is not None
    assert not released.resumed and released.waiting == [0, 1]
    released = dismiss_lessons(match.pk, 8, 1)
    assert released is not None
    assert not released.resumed and released.waiting == [0]
    assert [hold.moment for hold in match.holds.all()] == [7]
    clock.advance(60)
    released = dismiss_lessons(match.pk, 7, 0)
    assert released is not None
    assert released.resumed and released.waiting == [] and not match.holds.exists()
    moved = (MatchTimer.objects.get(pk=timer.pk).due_at - timer.due_at).total_seconds()
    assert 60 <= moved < 70  # the pause, plus the test's real seconds


@pytest.mark.django_db
def test_a_lesson_hold_expires_but_the_teachers_hold_does_not(clock):
    match, _timer = held_match(clock)
    moment = {"moment": 7, "event": "attack", "lesson": {}, "seats": [0], "waiting": [0]}
    hold_for_lessons(match.pk, [moment])
    hold(match.pk, MatchHold.Kind.SESSION)
    # The clock is the system's plus an offset: leave a margin for a slow machine.
    clock.advance(LESSON_HOLD_SECONDS - 60)
    assert expired_holds() == []
    assert release_expired(match.pk) is None
    clock.advance(60)
    assert expired_holds() == [match.pk]
    released = release_expired(match.pk)
    assert released is not None
    assert not released.resumed and released.kinds == {MatchHold.Kind.SESSION}
    clock.advance(10 * LESSON_HOLD_SECONDS)
    assert expired_holds() == []  # the teacher resumes when they choose
    assert release(match.pk, MatchHold.Kind.SESSION).resumed


@pytest.mark.django_db
def test_a_finished_match_takes_no_hold(clock):
    match, _timer = held_match(clock)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    hold(match.pk, MatchHold.Kind.TABLE)
    hold_for_lessons(
        match.pk, [{"moment": 1, "event": "x", "lesson": {}, "seats": [0], "waiting": [0]}]
    )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and not match.holds.exists()


@pytest.mark.django_db
def test_an_applied_action_carries_the_running_timers_as_stored():
    """The write path sends and schedules the timers apply_action recorded, without
    reading them again: they must be exactly the stored ones, soonest first."""
    match = create_match(GAME, "expert", 4, seed=3)
    rng = random.Random(2)
    checked = 0
    for _action in range(150):
        match.refresh_from_db()
        if match.status != Match.Status.RUNNING:
            break
        applied = apply_action(match.pk, *first_mover_action(match, rng), match.version)
        stored = list(MatchTimer.objects.filter(match=match).order_by("due_at", "pk"))
        running = {timer["id"] for timer in applied.state.timers()}
        assert [t.pk for t in applied.timers] == [t.pk for t in stored]
        assert {t.timer_id for t in applied.timers} == running
        checked += bool(running)
    assert checked > 0  # some actions opened a timer
