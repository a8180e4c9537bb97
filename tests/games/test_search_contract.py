"""What every game's strong bot must do, whatever the game: from any position of a
random game, choose only a legal action, and the same one again from the same seed (the
bots of a live table are replayed from the match's seed)."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.registry import all_games
from tests.games.playout import position

QUICK = {"iterations": 24, "depth": 12}  # enough to exercise every part of the search
# Moves before the position: a Data Thief game is over after about a hundred.
LONGEST = {"data_thief": 80}
SEARCHING = [game for game in all_games() if "search" in game.bots]


def test_three_games_have_a_strong_bot():
    assert {game.slug for game in SEARCHING} >= {"data_tycoon", "data_thief", "data_monsters"}


@pytest.mark.parametrize("game", SEARCHING, ids=lambda game: game.slug)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_search_plays_only_legal_actions_and_repeats_itself(game, data):
    seed = data.draw(st.integers(0, 10**6), label="seed")
    steps = data.draw(st.integers(0, LONGEST.get(game.slug, 200)), label="steps")
    players = data.draw(st.integers(game.min_players, game.max_players), label="players")
    variant = data.draw(st.sampled_from(sorted(game.variants)), label="variant")
    state = position(game, players, seed, steps, variant=variant)
    if not state.to_move():
        return  # the game ended within ``steps``
    seat = state.to_move()[0]
    view, legal = state.view(seat), state.legal_actions(seat)
    action = game.bots["search"](game, **QUICK).choose(view, legal, random.Random(seed))
    assert action in legal
    assert game.bots["search"](game, **QUICK).choose(view, legal, random.Random(seed)) == action
