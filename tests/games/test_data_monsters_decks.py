"""Built laboratory decks in Data Monsters: the ``lab_decks`` option deals a deck the deck
builder made to each seat, from card instances the catalogue holds; a deck that breaks a
deck-building rule is refused."""

import random
from collections import Counter

import pytest

from games.data_monsters import cards
from games.data_monsters.cards import BY_ID, ENTRIES, check_deck
from games.data_monsters.rules import NEEDS_CLASS, DataMonsters
from games.engine.base import Game, State

GAME = DataMonsters()

# A legal deck of 22 cards mixing both sets, with the most copies each card allows.
MIXED = [
    *["junior_krol"] * 2,
    "chief_krol",
    *["junior_lambert"] * 2,
    "chief_lambert",
    *["python_script"] * 3,
    *["sql_query"] * 3,
    *["ab_test"] * 2,
    *["statistical_model"] * 2,
    *["open_dataset"] * 2,
    *["anonymisation"] * 2,
    "complaint",
    "scope_creep",
]


def own_cards(state, seat):
    """Return every laboratory card id a seat holds in a fresh match (deck and hand)."""
    return state.decks[state.pile[seat]] + state.hands[seat]


def test_the_mixed_deck_keeps_the_rules():
    assert len(MIXED) == 22
    assert check_deck(MIXED) == []
    assert GAME.check_deck(MIXED, "standard", 2) == []


def test_a_built_deck_is_dealt_to_every_seat():
    state = GAME.new_state(3, 7, "standard", {"lab_decks": [MIXED]})
    assert state.sets == ["built"] * 3
    for seat in range(3):
        held = own_cards(state, seat)
        assert Counter(BY_ID[c]["key"] for c in held) == Counter(MIXED)
        assert {BY_ID[c]["slot"] for c in held} == {seat + 1}


def test_decks_are_played_in_turn_by_the_seats():
    startup = cards.starter_keys("startup")
    state = GAME.new_state(3, 7, "quick", {"lab_decks": [MIXED, startup]})
    for seat, deck in enumerate([MIXED, startup, MIXED]):
        assert Counter(BY_ID[c]["key"] for c in own_cards(state, seat)) == Counter(deck)


def test_every_built_card_exists_in_the_catalogue_and_nothing_is_lost():
    state = GAME.new_state(4, 11, "standard", {"lab_decks": [MIXED]})
    catalogue = {card["id"] for card in GAME.cards("standard")}
    zones = [c for zone in state.zones().values() for c in zone]
    assert len(zones) == len(set(zones)) == len(catalogue)
    assert set(zones) == catalogue


def test_the_most_copies_of_every_card_fit_in_every_slot():
    assert ENTRIES
    for entry in ENTRIES.values():
        for slot in range(1, cards.SLOTS + 1):
            ids = cards.deck_ids([entry["key"]] * cards.allowed_copies(entry), slot)
            assert all(i in BY_ID for i in ids), entry["key"]


def test_the_starter_sets_keep_their_ids():
    ids = cards.starter("startup", 1)
    assert ids[0] == "1s-junior_krol-1"
    assert len(ids) == cards.STARTER_SIZE["startup"] == len(cards.starter_keys("startup"))
    assert all(BY_ID[c]["set"] == "startup" and BY_ID[c]["slot"] == 1 for c in ids)


def test_a_built_deck_is_shuffled_deterministically_by_the_seed():
    def order(seed):
        state = GAME.new_state(2, seed, "standard", {"lab_decks": [MIXED]})
        return own_cards(state, 0)

    assert order(5) == order(5)
    assert order(5) != order(6)
    # shuffled: not the order the deck was given in
    assert [BY_ID[c]["key"] for c in order(5)] != MIXED


def test_a_built_match_survives_its_json_and_plays_to_the_end():
    state = GAME.new_state(2, 3, "quick", {"lab_decks": [MIXED]})
    again = GAME.from_json(state.to_json())
    assert again.dumps() == state.dumps()
    bots = [GAME.bot("heuristic"), GAME.bot("heuristic")]
    rng = random.Random(1)
    for _ in range(3000):
        if state.is_over():
            break
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(state.view(seat), state.legal_actions(seat), rng))
    assert state.is_over()


@pytest.mark.parametrize(
    "deck",
    [
        MIXED[:19],  # too few
        [*MIXED, "junior_krol"],  # a third copy
        ["chief_krol", *MIXED],  # a second copy of a "one" card
        ["python_script", *MIXED],  # a fourth "many" copy
        ["no_such_card", *MIXED],
    ],
)
def test_a_deck_that_breaks_a_rule_is_refused(deck):
    assert check_deck(deck)
    with pytest.raises(ValueError, match="breaks the rules"):
        GAME.new_state(2, 1, "standard", {"lab_decks": [deck]})


@pytest.mark.parametrize("decks", [[], "junior_krol", [["junior_krol", 3]], [None]])
def test_a_deck_option_of_the_wrong_shape_is_refused(decks):
    with pytest.raises(ValueError):
        GAME.clean_options({"lab_decks": decks})


def test_the_office_game_takes_no_built_deck():
    assert GAME.check_deck(MIXED, "office", 2)
    with pytest.raises(ValueError):
        GAME.new_state(2, 1, "office", {"lab_decks": [MIXED]})


def test_the_too_many_card_message_names_the_card_in_every_language():
    (problem,) = check_deck(["chief_krol", *MIXED])
    assert problem.params["card"] == ENTRIES["chief_krol"]["name"]
    assert problem.params["allowed"] == 1 and problem.params["count"] == 2
    assert problem.plural  # "1 copy", "2 copies": a plural in every language


def test_a_game_without_deck_building_says_so():
    game: Game[State] = Game()
    assert game.deck_option == "" and game.deck_catalogue() == []
    assert game.check_deck(["x"], "standard", 2)
    with pytest.raises(ValueError):
        game.clean_options({"lab_decks": [["x"]]})


def test_the_deck_builder_catalogue_and_starter_decks():
    catalogue = {card["key"]: card for card in GAME.deck_catalogue()}
    assert set(catalogue) == set(ENTRIES)
    assert catalogue["chief_krol"]["allowed"] == 1
    assert catalogue["python_script"]["allowed"] == 3
    assert catalogue["ab_test"]["allowed"] == 2
    starters = GAME.starter_decks()
    assert set(starters) == {"startup", "enterprise"}
    for deck in starters.values():
        assert GAME.check_deck(deck["cards"], "standard", 4) == []


def test_every_requirement_is_a_monster_class():
    """docs/rules/data_monsters.md: a requirement names a class, never an equipment
    card; each class has its refusal's sentence."""
    required = [(card["id"], need) for card in cards.ALL_CARDS for need in card.get("requires", ())]
    assert required
    assert [(card, need) for card, need in required if need not in NEEDS_CLASS] == []
