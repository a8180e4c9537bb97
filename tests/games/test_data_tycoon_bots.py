"""The bots: they see only their own view, and the heuristic clearly beats random play."""

import json
import random

import pytest

from games.engine.driver import play
from tests.games.arrange import GAME, Picker, arrange

HEURISTIC = GAME.bots["heuristic"]
RANDOM = GAME.bots["random"]
GAMES = 1000
MIN_WIN_RATE = 0.70


def test_heuristic_beats_random_in_two_player_expert_games():
    wins = 0
    for seed in range(GAMES):
        heuristic_seat = seed % 2  # half the games on each seat
        bots = [RANDOM(), RANDOM()]
        bots[heuristic_seat] = HEURISTIC()
        state = GAME.new_state(2, seed, "expert", {"time_mode": "turns"})
        play(state, bots, random.Random(seed))
        wins += state.result()["winners"] == [heuristic_seat]  # a shared win is no win
    rate = wins / GAMES
    print(f"heuristic sole wins against random: {rate:.1%} of {GAMES} games")
    assert rate >= MIN_WIN_RATE


class Spy:
    """Wrap a bot and record what it was shown."""

    needs_view = True

    def __init__(self, bot):
        self.bot, self.seen = bot, []

    def choose(self, view, legal_actions, rng):
        self.seen.append((view, legal_actions))
        return self.bot.choose(json.loads(json.dumps(view)), legal_actions, rng)


def test_a_bot_gets_only_its_own_seats_view_and_legal_actions():
    state = GAME.new_state(3, 5, "expert")
    spies = [Spy(HEURISTIC()) for _ in range(3)]
    original_choose = Spy.choose

    def checked(self, view, legal_actions, rng):
        seat = spies.index(self)
        assert view == state.view(seat) and legal_actions == state.legal_actions(seat)
        return original_choose(self, view, legal_actions, rng)

    Spy.choose = checked
    try:
        play(state, spies, random.Random(5))
    finally:
        Spy.choose = original_choose
    assert all(spy.seen for spy in spies)


def choice(state, seat):
    """Return the heuristic bot's choice for ``seat``."""
    return HEURISTIC().choose(state.view(seat), state.legal_actions(seat), random.Random(0))


def test_heuristic_calls_data_and_databreach():
    pick = Picker()
    purpose = pick("purpose")
    win = {"id": "w9", "kind": "call_data", "seat": 0, "seconds": 15}
    state = arrange(
        hands={0: [purpose, pick()], 1: [pick()]}, undeclared={0: [purpose]}, windows=[win]
    )
    assert choice(state, 0) == {"type": "call_data"}
    breach = pick("databreach")
    win = {"id": "w9", "kind": "call_databreach", "seat": 0, "seconds": 15}
    state = arrange(
        hands={0: [breach, pick()], 1: [pick()]}, undeclared={0: [breach]}, windows=[win]
    )
    assert choice(state, 0) == {"type": "call_databreach"}


def test_heuristic_counters_builds_and_sanctions_the_leader():
    pick = Picker()
    lawyer, sanction = pick("lawyer"), pick("sanction")
    treasure = (pick("purpose"), pick.many(6, colour="red"))
    state = arrange(
        players=3,
        hands={0: [sanction, pick()], 1: [pick()], 2: [pick()]},
        reserves={2: [lawyer]},
        treasures={2: [treasure]},
    )
    assert choice(state, 0) == {"type": "attack", "card": sanction, "target": 2}
    state.apply(0, choice(state, 0))
    assert choice(state, 2) == {"type": "counter", "kind": "lawyer"}

    purpose = pick("purpose")
    state = arrange(
        hands={0: [pick(), pick()], 1: [pick()]},
        purposes={0: [purpose]},
        collections={0: pick.many(6, colour="blue")},
    )
    assert choice(state, 0)["type"] == "build"


def test_heuristic_prefers_capturing_sensitive_cards():
    pick = Picker()
    red = pick(colour="red", sensitive=False)
    simple, sensitive = pick(colour="red", sensitive=False), pick(colour="red", sensitive=True)
    state = arrange(hands={0: [red], 1: [pick()]}, table=[simple, sensitive])
    assert choice(state, 0) == {"type": "play", "card": red, "capture": sensitive}


@pytest.mark.parametrize("variant", list(GAME.variants))
@pytest.mark.parametrize("players", range(2, 7))
def test_mixed_bots_finish_every_variant_and_table_size(variant, players):
    for seed in range(3):
        bots = [HEURISTIC() if s % 2 == seed % 2 else RANDOM() for s in range(players)]
        state = GAME.new_state(players, seed, variant)
        play(state, bots, random.Random(seed), expire=0.05)
        assert state.is_over() and state.result()["winners"]
