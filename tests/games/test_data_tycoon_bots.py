"""The bots: they see only their own view, and the heuristic clearly beats random play."""

import json
import random

import pytest

from games.engine.bots import Bot
from games.engine.driver import play
from games.engine.rng import RandomSource
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


class Spy(Bot):
    """Wrap a bot and record what it was shown."""

    needs_view = True

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.seen: list[tuple[dict | None, list[dict]]] = []

    def choose(self, view: dict | None, legal_actions: list[dict], rng: RandomSource) -> dict:
        self.seen.append((view, legal_actions))
        return self.bot.choose(json.loads(json.dumps(view)), legal_actions, rng)


def test_a_bot_gets_only_its_own_seats_view_and_legal_actions(monkeypatch):
    state = GAME.new_state(3, 5, "expert")
    spies = [Spy(HEURISTIC()) for _ in range(3)]
    original_choose = Spy.choose

    def checked(self, view, legal_actions, rng):
        seat = spies.index(self)
        assert view == state.view(seat) and legal_actions == state.legal_actions(seat)
        return original_choose(self, view, legal_actions, rng)

    monkeypatch.setattr(Spy, "choose", checked)
    play(state, list(spies), random.Random(5))  # a list of Bot: the driver only reads it
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


def test_heuristic_freezes_a_rival_close_to_a_treasure_with_a_purpose_it_cannot_use_soon():
    pick = Picker()
    spare, waiting = pick("purpose"), pick("purpose")
    rival_purpose = pick("purpose")
    hand = [spare, pick(colour="red", sensitive=False)]
    mine = [pick(colour="green", sensitive=False), pick(colour="yellow", sensitive=False)]
    # the rival holds a Purpose and 5 blue cards, none to spare: a freeze breaks that treasure
    state = arrange(
        hands={0: hand, 1: [pick()]},
        purposes={0: [waiting], 1: [rival_purpose]},
        collections={0: mine, 1: pick.many(5, colour="blue")},
    )
    assert choice(state, 0) == {"type": "attack", "card": spare, "target": 1}
    # a rival far from any treasure is not worth the Purpose: it is kept
    state = arrange(
        hands={0: hand, 1: [pick()]},
        purposes={0: [waiting]},
        collections={0: mine, 1: [pick(colour=colour) for colour in ("red", "blue", "green")]},
    )
    assert choice(state, 0) == {"type": "keep", "card": spare}


def attacked(pick, attack, **zones):
    """Return the position after seat 0 throws an ``attack`` card at seat 1."""
    card = pick(attack)
    state = arrange(hands={0: [card, pick()], 1: [pick()]}, **zones)
    state.apply(0, {"type": "attack", "card": card, "target": 1})
    return state


def test_heuristic_keeps_its_only_lawyer_for_a_sanction_and_lets_a_complaint_through():
    pick = Picker()
    zones = {
        "reserves": {1: [pick("lawyer")]},
        "collections": {1: pick.many(3, colour="green")},
        "treasures": {1: [(pick("purpose"), pick.many(6, colour="red"))]},
    }
    assert choice(attacked(pick, "complaint", **zones), 1) == {"type": "accept"}
    assert choice(attacked(pick, "sanction", **zones), 1) == {"type": "counter", "kind": "lawyer"}


def test_heuristic_spends_a_counter_only_on_an_attack_that_costs_something():
    pick = Picker()
    # two frozen simple cards are all a Complaint could take: not worth the Lawyer
    harmless = attacked(
        pick,
        "complaint",
        reserves={1: [pick("lawyer")]},
        frozen={1: pick.many(2, sensitive=False)},
    )
    assert choice(harmless, 1) == {"type": "accept"}
    # three sensitive cards and no treasure to protect: the Lawyer stops the Complaint
    costly = attacked(
        pick,
        "complaint",
        reserves={1: [pick("lawyer")]},
        collections={1: pick.many(3, sensitive=True)},
    )
    assert choice(costly, 1) == {"type": "counter", "kind": "lawyer"}


def test_heuristic_reads_an_open_hand_to_pick_the_target_without_a_counter():
    pick = Picker()
    sanction = pick("sanction")
    # both rivals play with an open hand; the leader (seat 1) visibly holds a Lawyer
    state = arrange(
        players=3,
        hands={0: [sanction, pick()], 1: [pick("lawyer"), pick()], 2: [pick(), pick()]},
        treasures={
            1: [(pick("purpose"), pick.many(6, colour="red", sensitive=True))],
            2: [(pick("purpose"), pick.many(6, colour="blue", sensitive=False))],
        },
        transparent=[0, 2, 2],
    )
    assert choice(state, 0) == {"type": "attack", "card": sanction, "target": 2}


def test_heuristic_takes_the_card_an_open_hand_would_capture_next():
    pick = Picker()
    mine = pick(colour="green", sensitive=False)
    # two green love and health cards are worth the same to me, but the rival's open hand
    # (a blue health card) can take only the health one: take that one first
    love = pick(colour="green", sign="love")
    health = pick(colour="green", sign="health")
    hands = {0: [mine], 1: [pick(colour="blue", sign="health")]}
    for table in ([love, health], [health, love]):
        state = arrange(hands=hands, table=table, transparent=[0, 1])
        assert choice(state, 0) == {"type": "play", "card": mine, "capture": health}
