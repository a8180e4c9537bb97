"""A stored state this release cannot read (a game's FORMAT changed with no migration of
the snapshots) is rebuilt from the match's log with today's rules, stored again, and the
game goes on; when those rules refuse a logged move too, the match says so and nothing
is written (games.matches.load_state)."""

import logging
import random
from collections.abc import Callable

import pytest

from games.matches import UnreadableState, apply_action, create_match, load_state
from games.models import Match, MatchAction
from games.registry import all_games
from tests.live.helpers import random_step

pytestmark = pytest.mark.django_db

GAMES = sorted(game.slug for game in all_games())


def played_match(slug: str, moves: int = 12) -> Match:
    game = next(game for game in all_games() if game.slug == slug)
    match = create_match(slug, game.default_variant, game.min_players, seed=3)
    rng = random.Random(3)
    for _ in range(moves):
        random_step(match, rng)
    assert match.version == moves and match.status != Match.Status.FINISHED
    return match


def from_a_later_release(snapshot: dict) -> dict:
    """The snapshot as a release with another FORMAT for the game would have stored it."""
    return {**snapshot, "format": snapshot["format"] + 1}


def without_a_field(snapshot: dict) -> dict:
    """The snapshot less a field this release's state holds."""
    kept = dict(snapshot)
    del kept[next(key for key in snapshot if key not in ("game", "format"))]
    return kept


@pytest.mark.parametrize("spoil", [from_a_later_release, without_a_field])
@pytest.mark.parametrize("slug", GAMES)
def test_an_unreadable_state_is_rebuilt_from_the_log_and_play_goes_on(
    slug: str, spoil: Callable[[dict], dict], caplog: pytest.LogCaptureFixture
) -> None:
    match = played_match(slug)
    stored = match.snapshot
    Match.objects.filter(pk=match.pk).update(snapshot=spoil(stored))
    match.refresh_from_db()
    with caplog.at_level(logging.WARNING, logger="games.matches"):
        state = load_state(match)
    assert state.to_json() == stored
    match.refresh_from_db()
    assert match.snapshot == stored  # stored again: the next read needs no replay
    warnings = [r.getMessage() for r in caplog.records if r.name == "games.matches"]
    assert len(warnings) == 1 and f"rebuilt from its {match.version} moves" in warnings[0]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    # the next move is played on the rebuilt state
    Match.objects.filter(pk=match.pk).update(snapshot=spoil(stored))
    movers = state.to_move()
    seat = movers[0] if movers else None
    action = state.legal_actions(seat)[0]
    applied = apply_action(match.pk, seat, action, expected_version=match.version)
    assert applied.version == match.version + 1
    state.apply(seat, action)
    assert Match.objects.get(pk=match.pk).snapshot == state.to_json()


def test_a_newer_move_s_snapshot_is_not_replaced_by_the_rebuilt_one() -> None:
    match = played_match("data_tycoon")
    stored = match.snapshot
    Match.objects.filter(pk=match.pk).update(snapshot=from_a_later_release(stored))
    match.refresh_from_db()
    # another process stored the next move between this read and the rebuild
    random_step(Match.objects.get(pk=match.pk), random.Random(5))
    Match.objects.filter(pk=match.pk).update(snapshot={"newer": True})
    assert load_state(match).to_json() == stored
    assert Match.objects.get(pk=match.pk).snapshot == {"newer": True}


def test_an_unreadable_state_whose_log_today_s_rules_refuse_writes_nothing() -> None:
    match = played_match("data_tycoon")
    MatchAction.objects.filter(match=match, version=5).update(action={"type": "earlier"})
    spoiled = from_a_later_release(match.snapshot)
    Match.objects.filter(pk=match.pk).update(snapshot=spoiled)
    match.refresh_from_db()
    with pytest.raises(UnreadableState, match="stop its replay at move 4 of 12"):
        load_state(match)
    with pytest.raises(UnreadableState):
        apply_action(match.pk, 0, {"type": "end_turn"})
    match.refresh_from_db()
    assert (match.version, match.snapshot) == (12, spoiled)
    assert match.actions.count() == 12
