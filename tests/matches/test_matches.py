"""The match write path: one writer per match, an append-only log, replay."""

import random
import threading

import pytest
from django.db import close_old_connections

from games.engine import IllegalAction
from games.matches import StaleVersion, apply_action, create_match, load_state, replay_match
from games.models import Match, MatchAction

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
