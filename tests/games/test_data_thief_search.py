"""Data Thief's strong bot: the shared search over states sampled from one seat's view.

The sample must put every card the seat sees where it sees it, deal the rest of the two
piles (general cards to the managers' hands, face-down measures and the general pile;
attack cards to the thief's hand and pile), and depend on the view alone.
"""

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.data_thief.cards import ALL_CARDS, KIND, NATURES, fits
from games.engine.search import SearchBot
from tests.games.playout import position as _position
from tests.games.playout import without_events
from tests.games.test_data_thief_rules import GAME, Picker, thief_turn

QUICK = {"iterations": 24, "depth": 12}
FAST_SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def position(seed, steps, players, variant="standard", thief="bot"):
    """Return a Data Thief match after ``steps`` moves of friendly and random bots."""
    return _position(GAME, players, seed, steps, variant=variant, options={"thief": thief})


@FAST_SETTINGS
@given(
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 80),
    players=st.integers(2, 5),
    variant=st.sampled_from(list(GAME.variants)),
    thief=st.sampled_from(["bot", "student"]),
)
def test_a_sampled_state_matches_the_view_and_holds_every_card(
    seed, steps, players, variant, thief
):
    state = position(seed, steps, players, variant, thief)
    every_card = Counter(card["id"] for card in ALL_CARDS)
    for seat in range(players):
        view = state.view(seat)
        sample = GAME.sample_state(view, random.Random(seed + seat))
        assert without_events(sample.view(seat)) == without_events(view)
        assert sample.legal_actions(seat) == state.legal_actions(seat)
        zones = sample.zones()
        assert Counter(c for cards in zones.values() for c in cards) == every_card
        for s in range(players):
            assert len(sample.hands[s]) == len(state.hands[s])
            # the thief's hand holds attacks, a manager's general cards
            assert all((KIND[c] == "attack") == (s == sample.thief) for c in sample.hands[s])
            for nature in NATURES:
                for card in sample.boards[s][nature]:
                    if sample.face_down(card):
                        assert KIND[card] == "measure" and fits(card, nature)
        assert sample.scores() == state.scores()


def test_the_sample_and_the_choice_depend_on_the_view_only():
    checked = 0
    for seed in range(20):
        state = position(seed, 14, 3)
        if state.is_over() or not state.to_move():
            continue
        seat = state.to_move()[0]
        other = next(s for s in state.managers() if s != seat)
        # another true state this seat cannot tell apart: another manager's hand card
        # swapped with one of the general pile, the pile in another order
        data = state.to_json()
        if not data["hands"][other] or not data["deck"]:
            continue
        checked += 1
        a, b = data["hands"][other][0], data["deck"][0]
        data["hands"][other][0] = b
        data["deck"][0] = a
        random.Random(seed).shuffle(data["deck"])
        twin = GAME.from_json(data)
        assert twin.to_json() != state.to_json()
        view = state.view(seat)
        assert twin.view(seat) == view
        one = GAME.sample_state(view, random.Random(7)).to_json()
        assert one == GAME.sample_state(twin.view(seat), random.Random(7)).to_json()
        legal = state.legal_actions(seat)
        bot = SearchBot(GAME, **QUICK)
        assert bot.choose(view, legal, random.Random(3)) == SearchBot(GAME, **QUICK).choose(
            twin.view(seat), twin.legal_actions(seat), random.Random(3)
        )
    assert checked >= 5


def test_a_face_down_measure_is_dealt_at_random_among_those_that_fit():
    pick = Picker()
    lock = pick("measure", measure="locked_cabinet")
    bins = pick("attack", attack="bin_raiding")
    state = thief_turn(pick, hands={1: [bins]}, boards={0: {"paper": [pick("data"), lock]}})
    view = state.view(1)  # the thief's: the measure is a back
    assert view["players"][0]["boards"]["paper"][1] == {"kind": "measure", "face_down": True}
    dealt = {GAME.sample_state(view, random.Random(i)).boards[0]["paper"][1] for i in range(30)}
    assert len(dealt) > 5
    assert all(KIND[c] == "measure" and fits(c, "paper") for c in dealt)


def test_the_thief_attacks_the_board_no_revealed_measure_guards():
    """Two paper boards of the same worth: the one a revealed shredder guards is a sure
    failure (the attack is kept by the manager: 10 points), the other is open."""
    pick = Picker()
    bins = pick("attack", attack="bin_raiding")
    shredder = pick("measure", measure="shredder")
    guarded = {"paper": [pick("data", category="sensitive"), shredder]}
    open_board = {"paper": [pick("data", category="sensitive")]}
    state = thief_turn(
        pick, players=3, hands={2: [bins]}, boards={0: guarded, 1: open_board}, revealed=[shredder]
    )
    legal = state.legal_actions(2)
    assert {"type": "attack", "card": bins, "target": 0, "board": "paper"} in legal
    choice = SearchBot(GAME, iterations=60).choose(state.view(2), legal, random.Random(0))
    assert choice == {"type": "attack", "card": bins, "target": 1, "board": "paper"}
