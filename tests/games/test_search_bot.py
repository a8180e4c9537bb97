"""The strong bot: information-set search over states sampled from its own view.

It must imagine only states its view allows (every card it sees in place, the others
dealt from what is left of the deck), choose as a function of its view alone, see an
obvious move, and beat the friendly bot (legal and repeatable choices: every game's
strong bot, in test_search_contract).
"""

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.data_tycoon.cards import KIND, card_ids
from games.engine.driver import play
from games.engine.search import SearchBot
from tests.games.arrange import GAME, Picker, arrange
from tests.games.playout import position as _position
from tests.games.playout import without_events

QUICK = {"iterations": 24, "depth": 12}  # enough to exercise every part of the search
FAST_SETTINGS = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
LEFT_OUT = st.sampled_from([[], ["sanction"], ["time", "consent"], ["cybersecurity", "lawyer"]])


def position(seed, steps, players, variant="expert", left_out=()):
    """Return a Data-Tycoon match after ``steps`` moves of friendly and random bots."""
    return _position(
        GAME, players, seed, steps, variant=variant, options={"left_out": list(left_out)}
    )


def search(**budget):
    """Return a search bot with a small budget."""
    return SearchBot(GAME, **(budget or QUICK))


@FAST_SETTINGS
@given(
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 200),
    players=st.integers(2, 6),
    variant=st.sampled_from(list(GAME.variants)),
    left_out=LEFT_OUT,
)
def test_a_sampled_state_matches_the_view_and_holds_the_whole_deck(
    seed, steps, players, variant, left_out
):
    state = position(seed, steps, players, variant, left_out)
    deck = Counter(c for c in card_ids(variant) if KIND[c] not in left_out)
    for seat in range(players):
        view = state.view(seat)
        sample = GAME.sample_state(view, random.Random(seed + seat))
        # every card the seat sees is where it sees it, every count is the same
        assert without_events(sample.view(seat)) == without_events(view)
        assert sample.legal_actions(seat) == state.legal_actions(seat)
        zones = sample.zones()
        assert Counter(c for cards in zones.values() for c in cards) == deck
        for s in range(players):
            assert len(zones[f"hand:{s}"]) == len(state.hands[s])
            assert len(zones[f"reserve:{s}"]) == len(state.reserves[s])
            # a reserve holds only cards that can be set aside
            assert all(
                KIND[c] not in ("dataset", "purpose", "databreach") for c in sample.reserves[s]
            )
        assert len(sample.deck) == len(state.deck)


def test_the_sample_and_the_choice_depend_on_the_view_only():
    checked = 0
    for seed in range(12):
        state = position(seed, 40, 3)
        seat = state.to_move()[0] if state.to_move() else 0
        other = (seat + 1) % 3
        # another true state that this seat cannot tell apart: an opponent's hidden
        # Dataset card swapped with one in the deck, and the deck in another order
        data = state.to_json()
        theirs = [c for c in data["hands"][other] if KIND[c] == "dataset"]
        deck = [c for c in data["deck"] if KIND[c] == "dataset"]
        if state.is_over() or state.transparent[other] or not theirs or not deck:
            continue
        checked += 1
        a, b = theirs[0], deck[0]
        data["hands"][other][data["hands"][other].index(a)] = b
        data["deck"][data["deck"].index(b)] = a
        random.Random(seed).shuffle(data["deck"])
        twin = GAME.from_json(data)
        assert twin.to_json() != state.to_json()
        view = state.view(seat)
        assert twin.view(seat) == view
        one = GAME.sample_state(view, random.Random(7)).to_json()
        two = GAME.sample_state(twin.view(seat), random.Random(7)).to_json()
        assert one == two
        legal = state.legal_actions(seat)
        assert search().choose(view, legal, random.Random(3)) == search().choose(
            twin.view(seat), twin.legal_actions(seat), random.Random(3)
        )
    assert checked >= 4


def test_unseen_cards_are_dealt_at_random():
    state = position(3, 30, 4)
    seat = 0
    view = state.view(seat)
    hands = {tuple(sorted(GAME.sample_state(view, random.Random(i)).hands[1])) for i in range(20)}
    assert len(hands) > 10  # not the true hand each time, nor any fixed one


def test_a_forced_move_is_played_without_searching():
    pick = Picker()
    bot = search()
    state = arrange(hands={0: [pick(colour="red")], 1: [pick()]}, table=[])
    legal = state.legal_actions(0)
    assert len(legal) == 1
    assert bot.choose(state.view(0), legal, random.Random(1)) == legal[0]
    assert bot.last_iterations == 0


def late(pick, deck=9, **zones):
    """Return a 3-player position near the end: a short deck, the rest played (the pile)."""
    placed = set(pick.used)
    rest = [c for c in card_ids("expert") if c not in placed]
    datasets = [c for c in rest if KIND[c] == "dataset"][:deck]
    pile = [c for c in rest if c not in datasets]
    return arrange(players=3, deck=datasets, pile=pile, **zones)


def test_the_search_counters_a_sanction_on_its_treasure():
    pick = Picker()
    lawyer, sanction = pick("lawyer"), pick("sanction")
    treasure = (pick("purpose"), pick.many(6, colour="red"))
    state = late(
        pick,
        hands={0: [sanction, pick()], 1: [pick(), pick()], 2: [pick(), pick()]},
        reserves={1: [lawyer]},
        treasures={1: [treasure]},
    )
    state.apply(0, {"type": "attack", "card": sanction, "target": 1})
    legal = state.legal_actions(1)
    assert {"type": "accept"} in legal and {"type": "counter", "kind": "lawyer"} in legal
    bot = search(iterations=60)
    assert bot.choose(state.view(1), legal, random.Random(0)) == {
        "type": "counter",
        "kind": "lawyer",
    }
    assert bot.last_iterations > 0


def test_the_search_builds_a_treasure_before_its_last_turn_ends():
    pick = Picker()
    purpose = pick("purpose")
    state = late(
        pick,
        deck=0,
        hands={1: [pick()], 2: [pick()]},  # its last card is played: no turn of its own left
        purposes={0: [purpose]},
        collections={0: pick.many(6, colour="blue", sensitive=False)},
        stage="after",
    )
    legal = state.legal_actions(0)
    build = {"type": "build", "purpose": purpose, "basis": "blue"}
    assert build in legal and {"type": "end_turn"} in legal
    assert search(iterations=60).choose(state.view(0), legal, random.Random(0)) == build


def test_the_search_wins_more_than_its_share_against_the_friendly_bot():
    """A regression guard at a quarter of the budget, on 32 seeded 4-player games (an even
    bot wins 8): the strength figure is the simulator's (docs/rules). Twelve games were
    too few: the search won 1 of the first twelve deals and 5 to 7 of each next twelve."""
    games, wins = 32, 0.0
    for seed in range(games):
        seat = seed % 4
        bots = [GAME.bot("heuristic") for _ in range(4)]
        bots[seat] = search(iterations=200)
        state = GAME.new_state(4, 700 + seed, "expert", {"time_mode": "turns"})
        play(state, bots, random.Random(seed))
        winners = state.result()["winners"]
        wins += (seat in winners) / len(winners)
    assert wins >= 11, f"the search won {wins} of {games} games"
