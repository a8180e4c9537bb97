"""The newcomer's page-guided strategy, simulated over the engine and the live bots:
with the seed the browser test deals (tests/browser/test_newcomer.py), it builds a
Data-Treasure in a few turns. When a rules or bot change breaks the browser test, this
fast test says so first, and why."""

from django.conf import settings

from tests.games.newcomer import NEWCOMER_SEED, NEWCOMER_TURNS, play_newcomer, quickest_seeds


def test_the_browser_tests_seed_builds_a_treasure_in_a_few_turns():
    game = play_newcomer(NEWCOMER_SEED, settings.LIVE_BOT_KIND)
    assert game.built, game.stuck
    assert game.turns == NEWCOMER_TURNS, game.moves
    assert game.waited == 0  # no prompt the page-guided newcomer would leave to run out
    # DATA! first, then captures and the kept Purpose, and the build last
    assert game.moves[0] == {"type": "call_data"}
    assert game.moves[-1]["type"] == "build"


def test_the_strategy_builds_in_most_beginner_games():
    """Not a lucky seed only: the page's moves lead a newcomer to a treasure."""
    seeds = range(200)
    built = quickest_seeds(seeds, settings.LIVE_BOT_KIND)
    assert len(built) >= 0.9 * len(seeds)
    turns = sorted(game.turns for game in built)
    assert turns[len(turns) // 2] <= 15  # half of them within 15 turns (12 today)
