"""The Conspiranoia bots: legal moves only, their own view only, and the heuristic beats random."""

import json
import random

import pytest

from games.conspiranoia.rules import Conspiranoia
from games.engine.bots import Bot
from games.engine.driver import play
from tests.games.test_conspiranoia_rules import LIFE, Picker, arrange, find

GAME = Conspiranoia()
HEURISTIC = GAME.bots["heuristic"]
RANDOM = GAME.bots["random"]
GAMES = 300
MIN_WIN_RATE = 0.65  # measured: about 0.75 in two-player standard games


class Checked(Bot):
    """Wrap a bot: check it gets its own seat's view and legal actions, and answers with one."""

    def __init__(self, bot, state, seat):
        self.bot, self.state, self.seat, self.moves = bot, state, seat, 0
        self.needs_view = True

    def choose(self, view, legal_actions, rng):
        assert view == self.state.view(self.seat)
        assert legal_actions == self.state.legal_actions(self.seat)
        action = self.bot.choose(json.loads(json.dumps(view)), legal_actions, rng)
        assert action in legal_actions
        self.moves += 1
        return action


def test_heuristic_beats_random_in_two_player_standard_games():
    wins = 0
    for seed in range(GAMES):
        heuristic_seat = seed % 2  # half the games on each seat
        bots = [RANDOM(), RANDOM()]
        bots[heuristic_seat] = HEURISTIC()
        state = GAME.new_state(2, seed, "standard")
        play(state, bots, random.Random(seed))
        result = state.result()
        assert result is not None
        wins += result["winners"] == [heuristic_seat]
    rate = wins / GAMES
    print(f"heuristic wins against random: {rate:.1%} of {GAMES} games")
    assert rate >= MIN_WIN_RATE


@pytest.mark.parametrize("variant", list(GAME.variants))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_both_bots_play_only_legal_moves_from_their_own_view(variant, players):
    for seed in range(2):
        state = GAME.new_state(players, seed, variant)
        kinds = [HEURISTIC if (s + seed) % 2 else RANDOM for s in range(players)]
        bots = [Checked(kind(), state, s) for s, kind in enumerate(kinds)]
        play(state, bots, random.Random(seed), expire=0.05)
        assert state.is_over()
        result = state.result()
        assert result is not None and result["winners"]
        assert all(bot.moves for bot in bots)


def choice(state, seat):
    """Return the heuristic bot's choice for ``seat``."""
    return HEURISTIC().choose(state.view(seat), state.legal_actions(seat), random.Random(0))


def test_heuristic_defends_with_the_most_points_and_spends_table_cards_first():
    pick = Picker()
    attack = [*pick.many(2, "attack"), pick("avatar", "greys")]
    table = [pick("attack"), *pick.many(3, "defence")]
    defence = [pick("defence"), pick("avatar", "shapeshifters"), pick("special_attack")]
    state = arrange(hands={0: attack, 1: defence}, table=table)
    state.apply(0, find(state, 0, "attack", [*attack, table[0]], target=1))
    action = choice(state, 1)
    assert action["type"] == "defend" and action["points"] == 6
    assert defence[0] not in action["cards"]  # three table Defence cards and its Avatar


def test_heuristic_doubles_with_its_avatar_and_prefers_what_no_defence_stops():
    pick = Picker()
    hand = [pick("attack"), pick("avatar", "greys"), pick("special_attack")]
    table = [*pick.many(2, "attack"), *pick.many(2, "special_attack")]
    state = arrange(hands={0: hand, 1: [pick("defence")]}, table=table)
    action = choice(state, 0)
    assert action["type"] == "special_attack" and action["points"] == 12


def test_heuristic_knocks_out_when_it_can_and_otherwise_hits_the_weakest():
    pick = Picker()
    special = pick.many(3, "special_attack")
    state = arrange(
        players=3, hands={0: special, 1: [pick("bonus")], 2: [pick("bonus")]}, life={1: 6, 2: 4}
    )
    assert choice(state, 0)["target"] == 2
    state = arrange(
        players=3, hands={0: special, 1: [pick("bonus")], 2: [pick("bonus")]}, life={1: 6, 2: 10}
    )
    assert choice(state, 0)["target"] == 1  # 6 points take seat 1 out
    state = arrange(
        players=3, hands={0: special, 1: [pick("bonus")], 2: [pick("bonus")]}, life={1: 16, 2: 12}
    )
    assert choice(state, 0)["target"] == 2


def test_heuristic_heals_when_low_and_keeps_defence_cards_otherwise():
    pick = Picker()
    hand = [pick("defence"), *pick.many(2, "attack")]
    table = [*pick.many(2, "defence"), pick("attack")]
    state = arrange(hands={0: hand, 1: [pick("bonus")]}, table=table, life={0: 5})
    assert choice(state, 0)["type"] == "heal"
    state = arrange(hands={0: hand, 1: [pick("bonus")]}, table=table, life={0: LIFE - 1})
    action = choice(state, 0)
    assert action["type"] == "attack" and hand[0] not in action["cards"]


def test_heuristic_discards_what_helps_the_opponents_least():
    pick = Picker()
    defence, special, own = pick("defence"), pick("special_attack"), pick("avatar", "greys")
    state = arrange(hands={0: [defence, special, own], 1: [pick("bonus")]})
    assert choice(state, 0) == {"type": "discard", "card": own}
    # The Avatar card of a player who is out of the game is of no use to anyone.
    dead = pick("avatar", "investigators")
    hands = {0: [defence, dead, pick("avatar", "shapeshifters")], 1: [pick("bonus")]}
    state = arrange(players=3, hands=hands, life={2: 0}, out=[2])
    assert choice(state, 0) == {"type": "discard", "card": dead}
