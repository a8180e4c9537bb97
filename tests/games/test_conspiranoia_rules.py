"""Unit tests of every Conspiranoia rule: each example line of the rule book, each decision
of docs/rules/conspiranoia.md, and the refusals."""

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.conspiranoia import rules
from games.conspiranoia.cards import (
    AVATARS,
    CARD_IDS,
    CHARACTERS,
    DATA,
    IDENTITY,
    KIND,
    character,
)
from games.conspiranoia.rules import Conspiranoia
from games.engine import IllegalAction

GAME = Conspiranoia()  # the registered game object behaves the same; this keeps the test pure
LIFE = 23


class Picker:
    """Hand out distinct card ids of a kind (Avatars: of a character, never a character card)."""

    def __init__(self):
        self.used = set(IDENTITY.values())

    def __call__(self, kind, character=None):
        """Return one unused id of ``kind`` (and ``character``)."""
        pool = AVATARS[character][1:] if kind == "avatar" else CARD_IDS
        for card in pool:
            if KIND[card] == kind and card not in self.used:
                self.used.add(card)
                return card
        raise LookupError(f"no more {kind} cards")

    def many(self, count, kind, character=None):
        """Return ``count`` unused ids."""
        return [self(kind, character) for _ in range(count)]


def arrange(players=2, *, hands=None, table=(), life=None, pile=(), deck=None, **fields):
    """Return a state in stage "play", seat 0 to move, through the public JSON format.

    Seat ``s`` plays ``CHARACTERS[s]`` (seat 0 the Greys, seat 1 the Shapeshifters, ...);
    the cards not placed form the deck; ``fields`` override any other JSON field.
    """
    start = GAME.new_state(
        players, 1, fields.pop("variant", "standard"), fields.pop("options", None)
    )
    d = start.to_json()
    chars = list(CHARACTERS[:players])
    hands = hands or {}
    d["character"] = chars
    d["identity"] = [[IDENTITY[c]] for c in chars]
    d["box"] = [card for c in CHARACTERS[players:] for card in AVATARS[c]]
    d["hands"] = [list(hands.get(s, [])) for s in range(players)]
    d["table"], d["pile"] = list(table), list(pile)
    placed = {c for zone in ("identity", "box", "hands") for z in d[zone] for c in _flat(z)}
    placed |= set(table) | set(pile)
    d["deck"] = list(deck) if deck is not None else [c for c in CARD_IDS if c not in placed]
    d["life"] = [(life or {}).get(s, d["options"]["life_points"]) for s in range(players)]
    d.update(stage="play", turn=0, round=1, rounds=[1] * players, window=None, last_events=[])
    d.update(fields)
    return GAME.from_json(d)


def _flat(zone):
    """Return the ids of a zone that may be one id or a list of ids."""
    return zone if isinstance(zone, list) else [zone]


def find(state, seat, kind, cards=None, target=None):
    """Return the legal action of ``kind`` made of exactly ``cards`` (any order)."""
    for action in state.legal_actions(seat):
        if action["type"] != kind or action.get("target") != target:
            continue
        if cards is None or sorted(action["cards"]) == sorted(cards):
            return action
    raise AssertionError(f"no legal {kind} with {cards} at {target}")


def types(events):
    """Return the event types of ``events``."""
    return [e["type"] for e in events]


def refused(state, seat, action):
    """Apply an action that must be refused; return the exception (state unchanged)."""
    before = state.dumps()
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    assert state.dumps() == before
    assert info.value.code and info.value.message
    return info.value


# ------------------------------------------------------------ the deck and the cast


def test_the_deck_has_52_cards_in_the_five_categories():
    cards = GAME.cards("standard")
    assert len(cards) == 52
    assert Counter(c["kind"] for c in cards) == {
        "attack": 12, "defence": 12, "special_attack": 6, "bonus": 6, "avatar": 16,
    }  # fmt: skip
    assert [c["id"] for c in cards] == [f"cp-{i:02d}" for i in range(1, 53)]
    assert Counter(c["character"] for c in cards if c["kind"] == "avatar") == dict.fromkeys(
        CHARACTERS, 4
    )
    assert all(c["character"] is None for c in cards if c["kind"] != "avatar")
    assert all(c["name"][lang] for c in cards for lang in ("en", "es", "fr", "ru"))
    assert GAME.cards("quick") == cards


def test_an_avatar_card_carries_its_characters_mission_and_origin():
    cards = GAME.cards("standard")
    assert len(cards) == 52
    for card in cards:
        if card["kind"] != "avatar":
            assert "mission" not in card
            continue
        cast = character(card["character"])
        assert card["mission"] == cast["mission"] and card["origin"] == cast["origin"]
        assert all(card["mission"][lang] for lang in ("en", "es", "fr", "ru"))


def test_the_card_values_of_the_fixture_match_the_rules_table():
    values = {c["kind"]: (c["attack"], c["defence"]) for c in GAME.cards("standard")}
    assert values["attack"] == (rules.PLAYS["attack"].cards["attack"], None) == (3, None)
    assert values["defence"] == (None, rules.PLAYS["defend"].cards["defence"]) == (None, 3)
    assert values["special_attack"] == (rules.PLAYS["special_attack"].cards["special_attack"], None)
    assert values["bonus"] == (
        rules.PLAYS["attack"].cards["bonus"],
        rules.PLAYS["defend"].cards["bonus"],
    )
    assert values["bonus"] == (2, 1) and values["avatar"] == (None, None)


def test_the_four_characters_with_alignment_origin_and_mission_in_four_languages():
    chars = DATA["characters"]
    assert list(chars) == ["greys", "shapeshifters", "investigators", "men_in_black"]
    assert {c: chars[c]["alignment"] for c in chars} == {
        "greys": "neutral_evil", "shapeshifters": "lawful_evil",
        "investigators": "lawful_good", "men_in_black": "chaotic_neutral",
    }  # fmt: skip
    for c in chars.values():
        for field in ("name", "origin", "mission"):
            assert set(c[field]) == {"en", "es", "fr", "ru"} and all(c[field].values())
    mib = chars["men_in_black"]["name"]
    assert (mib["en"], mib["es"], mib["fr"], mib["ru"]) == (
        "Men in Black", "Hombre de Negro", "Hommes en noir", "Люди в чёрном",
    )  # fmt: skip
    assert "Зета Ретикули" in chars["greys"]["origin"]["ru"]
    assert "Zeta Reticuli" in chars["greys"]["origin"]["es"]
    assert chars["investigators"]["mission"]["es"] == "Descubrir la verdad."
    assert set(DATA["alignments"]) == {c["alignment"] for c in chars.values()}


# ------------------------------------------------------ variants, options, players


def test_two_to_four_players_and_two_variants():
    assert (GAME.min_players, GAME.max_players) == (2, 4)
    assert list(GAME.variants) == ["standard", "quick"]
    for n in (1, 5):
        with pytest.raises(ValueError, match="2 to 4 players"):
            GAME.new_state(n, 1, "standard")
    with pytest.raises(ValueError, match="unknown variant"):
        GAME.new_state(2, 1, "nope")
    with pytest.raises(ValueError):
        GAME.cards("nope")


def test_23_life_points_by_default_15_in_the_quick_variant_and_as_a_session_option():
    assert GAME.new_state(2, 1, "standard").life == [LIFE, LIFE]
    assert GAME.new_state(3, 1, "quick").life == [15, 15, 15]
    state = GAME.new_state(2, 1, "standard", {"life_points": 30, "defence_seconds": 20})
    assert state.life == [30, 30] and state.options["defence_seconds"] == 20
    assert state.view(None)["life_points"] == 30


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"life_points": 4}, "life_points must be at least 5"),
        ({"life_points": 51}, "life_points must be at most 50"),
        ({"life_points": "many"}, "life_points must be a whole number"),
        ({"life_points": True}, "life_points must be a whole number"),
        ({"life_points": 23.5}, "life_points must be a whole number"),
        ({"max_rounds": 2}, "max_rounds must be at least 5"),
        ({"defence_seconds": 0}, "defence_seconds must be at least 3"),
        ({"lives": 3}, "unknown option 'lives'"),
    ],
)
def test_bad_options_are_refused_with_a_clear_message(options, message):
    with pytest.raises(ValueError, match=message):
        GAME.new_state(2, 1, "standard", options)


def test_options_are_declared_for_the_session_form_and_read_from_text():
    assert [option.key for option in GAME.options] == list(rules.DEFAULT_OPTIONS)
    assert GAME.new_state(2, 1, "quick", {"life_points": "20"}).life == [20, 20]
    state = GAME.new_state(2, 1, "quick", {"defence_seconds": 9})
    quick = {"life_points": 15, "max_rounds": 30, "defence_seconds": 9}
    assert state.options == {**rules.DEFAULT_OPTIONS, **quick}


# ------------------------------------------------------------ choosing characters


def test_each_player_chooses_a_unique_character_starting_on_the_dealers_right():
    state = GAME.new_state(3, 7, "standard")
    assert state.dealer == 2 and state.stage == "choose" and state.to_move() == [0]
    assert state.legal_actions(0) == [{"type": "choose", "character": c} for c in CHARACTERS]
    assert state.legal_actions(1) == []
    state.apply(0, {"type": "choose", "character": "investigators"})
    assert state.to_move() == [1]
    assert {"type": "choose", "character": "investigators"} not in state.legal_actions(1)
    error = refused(state, 1, {"type": "choose", "character": "investigators"})
    assert error.code == "character_taken"
    state.apply(1, {"type": "choose", "character": "greys"})
    events = state.apply(2, {"type": "choose", "character": "men_in_black"})
    assert state.character == ["investigators", "greys", "men_in_black"]
    assert state.identity == [
        [IDENTITY["investigators"]],
        [IDENTITY["greys"]],
        [IDENTITY["men_in_black"]],
    ]
    assert types(events) == ["character_chosen", "avatars_boxed", "deal", "turn"]
    # The character card is the first of the four; the other three of each player's
    # character are in play; the unused character's four cards are in the box.
    assert state.box == list(AVATARS["shapeshifters"])
    in_play = set(state.deck) | set(state.table) | {c for h in state.hands for c in h}
    for c in ("investigators", "greys", "men_in_black"):
        assert set(AVATARS[c][1:]) <= in_play
    assert [len(h) for h in state.hands] == [3, 3, 3] and len(state.table) == 4
    assert len(state.deck) == 52 - 3 - 4 - 9 - 4
    assert state.round == 1 and state.turn == 0 and state.stage == "play"


def test_with_four_players_no_card_is_boxed():
    state = GAME.new_state(4, 3, "standard")
    for seat, c in enumerate(CHARACTERS):
        state.apply(seat, {"type": "choose", "character": c})
    assert state.box == [] and len(state.deck) == 52 - 4 - 12 - 4


def test_a_player_who_does_not_choose_in_time_gets_a_free_character():
    state = GAME.new_state(2, 5, "standard")
    state.apply(0, {"type": "choose", "character": "greys"})
    (timer,) = state.timers()
    assert timer["seconds"] == rules.DEFAULT_OPTIONS["choose_seconds"]
    events = state.apply(None, timer["action"])
    assert types(events)[:2] == ["timeout", "character_chosen"]
    assert state.character[1] in CHARACTERS[1:] and state.stage == "play"


# ----------------------------------------------- the rule book's example lines


def example_attack(pick, hand, table, kind, expected):
    """Seat 0 makes a ``kind`` from ``hand`` and ``table``; seat 1 takes it."""
    state = arrange(hands={0: hand, 1: [pick("attack")]}, table=table)
    action = find(state, 0, kind, hand + table, target=1)
    assert action["points"] == expected
    state.apply(0, action)
    if state.window:  # an Attack: the target may defend; here it takes the hit
        state.apply(1, {"type": "take"})
    assert state.life[1] == LIFE - expected
    return state


def test_example_3_attack_cards_make_3_attack_points():
    """• 3 Cartas de Ataque => 3 puntos de Ataque"""
    pick = Picker()
    example_attack(pick, pick.many(3, "attack"), [], "attack", 3)


def test_example_3_defence_cards_make_3_defence_points_that_block_the_attack():
    """• 3 Cartas Defensa => 3 puntos de Defensa (bloquea al Ataque)"""
    pick = Picker()
    attack, defence = pick.many(3, "attack"), pick.many(3, "defence")
    state = arrange(hands={0: attack, 1: defence})
    state.apply(0, find(state, 0, "attack", attack, target=1))
    action = find(state, 1, "defend", defence)
    assert action["points"] == 3
    events = state.apply(1, action)
    assert "blocked" in types(events) and state.life[1] == LIFE


def test_example_3_alternative_defence_cards_heal_1_life_point_and_the_round_goes_on():
    """• 3 Cartas Defensa Alternativa => recibe 1 punto de vida a su favor (y continúa la ronda)"""
    pick = Picker()
    state = arrange(hands={0: pick.many(3, "defence"), 1: [pick("attack")]}, life={0: 10})
    action = find(state, 0, "heal", state.hands[0])
    events = state.apply(0, action)
    assert state.life[0] == 11 and types(events) == ["heal", "turn"]
    assert state.to_move() == [1] and state.round == 1  # the round continues


def test_example_3_special_attack_cards_make_6_points_that_nothing_blocks():
    """• 3 Cartas Ataque Especial => 6 puntos de Ataque Especial (no siendo bloqueada por
    ninguna otra combinación)"""
    pick = Picker()
    special = pick.many(3, "special_attack")
    state = arrange(
        hands={0: special, 1: pick.many(3, "defence")}, table=[pick("avatar", "shapeshifters")]
    )
    events = state.apply(0, find(state, 0, "special_attack", special, target=1))
    assert state.window is None and "defend" not in types(events)  # no defence window
    assert state.life[1] == LIFE - 6


def test_example_3_attack_cards_and_an_avatar_make_6_attack_points():
    """• 3 Cartas Ataque + Carta Avatar (*2) => 6 puntos de Ataque"""
    pick = Picker()
    example_attack(
        pick, [*pick.many(2, "attack"), pick("avatar", "greys")], [pick("attack")], "attack", 6
    )


def test_example_3_avatar_cards_and_an_attack_card_make_6_attack_points():
    """• 3 Cartas Avatar (*2) + Carta Ataque => 6 puntos de Ataque"""
    pick = Picker()
    avatars = pick.many(3, "avatar", "greys")
    example_attack(pick, [*avatars[:2], pick("attack")], [avatars[2]], "attack", 6)


def test_example_3_special_attack_cards_and_an_avatar_make_12_points():
    """• 3 Cartas Ataque Especial + Carta Avatar (*2) => 12 puntos de Ataque Especial"""
    pick = Picker()
    hand = [*pick.many(2, "special_attack"), pick("avatar", "greys")]
    example_attack(pick, hand, [pick("special_attack")], "special_attack", 12)


def test_example_3_avatar_cards_and_a_special_attack_card_make_12_points():
    """• 3 Cartas Avatar (*2) + Carta Ataque Especial => 12 puntos de Ataque Especial"""
    pick = Picker()
    avatars = pick.many(3, "avatar", "greys")
    hand = [avatars[0], pick("special_attack"), avatars[1]]
    example_attack(pick, hand, [avatars[2]], "special_attack", 12)


def doubled_attack_then_defence(pick, defender_hand, defender_table):
    """Seat 0 attacks seat 1 for 6 (doubled); return the state in the defence window."""
    attack = [*pick.many(2, "attack"), pick("avatar", "greys")]
    table_attack = pick("attack")
    state = arrange(hands={0: attack, 1: defender_hand}, table=[table_attack, *defender_table])
    state.apply(0, find(state, 0, "attack", [*attack, table_attack], target=1))
    assert state.window["points"] == 6 and state.to_move() == [1]
    return state


def test_example_3_defence_cards_and_an_avatar_make_6_defence_points_that_block_the_attack():
    """• 3 Cartas Defensa + Carta Avatar (*2) => 6 puntos de Defensa (bloquea al Ataque)"""
    pick = Picker()
    hand, table = [*pick.many(2, "defence"), pick("avatar", "shapeshifters")], [pick("defence")]
    state = doubled_attack_then_defence(pick, hand, table)
    action = find(state, 1, "defend", hand + table)
    assert action["points"] == 6
    events = state.apply(1, action)
    assert "blocked" in types(events) and state.life[1] == LIFE


def test_example_3_avatar_cards_and_a_defence_card_make_6_defence_points_that_block_the_attack():
    """• 3 Cartas Avatar (*2) + Carta Defensa => 6 puntos de Defensa (bloquea al Ataque)"""
    pick = Picker()
    avatars = pick.many(3, "avatar", "shapeshifters")
    hand, table = [avatars[0], avatars[1], pick("defence")], [avatars[2]]
    state = doubled_attack_then_defence(pick, hand, table)
    action = find(state, 1, "defend", hand + table)
    assert action["points"] == 6
    state.apply(1, action)
    assert state.life[1] == LIFE


# ------------------------------------------------------------- sets of cards


def test_an_action_may_take_any_mix_of_hand_and_table_cards_but_one_from_the_hand():
    pick = Picker()
    hand_attack, table_attacks = pick("attack"), pick.many(3, "attack")
    state = arrange(
        hands={0: [hand_attack, pick("defence")], 1: [pick("defence")]}, table=table_attacks
    )
    attacks = [a for a in state.legal_actions(0) if a["type"] == "attack"]
    # 1 from the hand + 2 from the table; 3 from the table alone is not an action.
    assert attacks == [
        {"type": "attack", "target": 1, "cards": [hand_attack, *table_attacks[:2]], "points": 3}
    ]
    error = refused(state, 0, {"type": "attack", "target": 1, "cards": table_attacks, "points": 3})
    assert error.code == "no_hand_card"


def test_cards_of_one_kind_are_interchangeable_one_action_per_way_of_combining_them():
    pick = Picker()
    hand = pick.many(2, "attack")
    table = pick.many(2, "attack")
    state = arrange(hands={0: hand, 1: [pick("defence")]}, table=table)
    attacks = [a["cards"] for a in state.legal_actions(0)]
    assert attacks == [hand + table[:1], hand[:1] + table]  # 2+1 and 1+2


def test_a_set_counts_at_its_weakest_card_so_a_bonus_makes_a_2_point_attack():
    pick = Picker()
    bonus = pick.many(3, "bonus")
    attacks = pick.many(2, "attack")
    state = arrange(hands={0: [*attacks, bonus[0]], 1: [pick("defence")]}, table=bonus[1:])
    points = {
        tuple(sorted(a["cards"])): a["points"]
        for a in state.legal_actions(0)
        if a["type"] == "attack"
    }
    assert points[tuple(sorted([*attacks, bonus[0]]))] == 2
    assert points[tuple(sorted(bonus))] == 2  # three Bonus cards as an Attack
    assert points[tuple(sorted([attacks[0], *bonus[1:]]))] == 2


def test_a_bonus_defence_is_worth_1_point_and_softens_the_attack():
    pick = Picker()
    attack, bonus = pick.many(3, "attack"), pick.many(3, "bonus")
    state = arrange(hands={0: attack, 1: bonus})
    state.apply(0, find(state, 0, "attack", attack, target=1))
    action = find(state, 1, "defend", bonus)
    assert action["points"] == 1
    events = state.apply(1, action)
    assert state.life[1] == LIFE - 2
    assert [e for e in events if e["type"] == "damage"] == [
        {"type": "damage", "seat": 1, "attacker": 0, "points": 2, "life": LIFE - 2}
    ]


def test_a_bonus_never_makes_a_special_attack_nor_a_heal():
    pick = Picker()
    specials, defences, bonus = (
        pick.many(2, "special_attack"),
        pick.many(2, "defence"),
        pick("bonus"),
    )
    state = arrange(
        hands={0: [specials[0], defences[0], bonus], 1: [pick("attack")]},
        table=[specials[1], defences[1]],
        life={0: 5},
    )
    assert {a["type"] for a in state.legal_actions(0)} == {"discard"}
    error = refused(
        state,
        0,
        {
            "type": "special_attack",
            "target": 1,
            "cards": [specials[0], bonus, specials[1]],
            "points": 6,
        },
    )
    assert error.code == "bonus_not_allowed"
    error = refused(state, 0, {"type": "heal", "cards": [defences[0], bonus, defences[1]]})
    assert error.code in {"bonus_not_allowed", "no_heal"}


def test_only_the_players_own_avatar_cards_double_and_another_characters_are_refused():
    pick = Picker()
    attacks = pick.many(3, "attack")
    foreign = pick("avatar", "shapeshifters")  # seat 1's character
    state = arrange(hands={0: [*attacks[:2], foreign], 1: [pick("defence")]}, table=[attacks[2]])
    assert [a["points"] for a in state.legal_actions(0)] == [3]
    error = refused(
        state, 0, {"type": "attack", "target": 1, "cards": [*attacks, foreign], "points": 6}
    )
    assert error.code == "not_your_avatar"


def test_the_avatar_doubles_once_with_one_avatar_or_three():
    pick = Picker()
    avatars = pick.many(3, "avatar", "greys")
    attacks = pick.many(3, "attack")
    state = arrange(
        hands={0: [*avatars[:2], attacks[0]], 1: [pick("defence")]},
        table=[avatars[2], *attacks[1:]],
    )
    points = Counter(a["points"] for a in state.legal_actions(0))
    assert set(points) == {3, 6}  # never 12: one doubling per action


def test_three_avatars_and_a_bonus_make_an_attack_of_4():
    pick = Picker()
    avatars = pick.many(3, "avatar", "greys")
    bonus = pick("bonus")
    state = arrange(hands={0: [*avatars[:2], bonus], 1: [pick("defence")]}, table=[avatars[2]])
    assert find(state, 0, "attack", [*avatars, bonus], target=1)["points"] == 4


def test_the_avatar_does_not_double_a_heal_and_three_avatars_cannot_heal():
    pick = Picker()
    avatars = pick.many(3, "avatar", "greys")
    defences = pick.many(3, "defence")
    state = arrange(
        hands={0: [avatars[0], defences[0], avatars[1]], 1: [pick("attack")]},
        table=[avatars[2], *defences[1:]],
        life={0: 5},
    )
    heals = [a for a in state.legal_actions(0) if a["type"] == "heal"]
    assert heals == [{"type": "heal", "cards": [defences[0], *defences[1:]]}]
    error = refused(state, 0, {"type": "heal", "cards": [*avatars, defences[0]]})
    assert error.code == "not_a_set"
    state.apply(0, heals[0])
    assert state.life[0] == 6


# ------------------------------------------------------------ Defence windows


def test_every_attack_on_a_player_with_cards_opens_a_timed_defence_window():
    pick = Picker()
    attack = pick.many(3, "attack")
    state = arrange(hands={0: attack, 1: [pick("special_attack")]})  # no Defence in sight
    state.apply(0, find(state, 0, "attack", attack, target=1))
    assert state.to_move() == [1] and state.legal_actions(1) == [{"type": "take"}]
    (timer,) = state.timers()
    assert timer["seconds"] == 15 and state.view(None)["window"]["kind"] == "defence"
    events = state.apply(None, timer["action"])  # time is up: the attack hits in full
    assert types(events)[:2] == ["timeout", "damage"] and state.life[1] == LIFE - 3


def test_only_the_target_may_answer_an_attack():
    pick = Picker()
    attack = pick.many(3, "attack")
    hands = {0: attack, 1: [pick("defence")], 2: [pick("defence")]}
    state = arrange(players=3, hands=hands, table=pick.many(2, "defence"))
    state.apply(0, find(state, 0, "attack", attack, target=1))
    assert state.to_move() == [1] and state.legal_actions(2) == state.legal_actions(0) == []
    assert refused(state, 2, {"type": "take"}).code == "not_your_turn"


def test_an_attack_on_a_player_with_an_empty_hand_hits_at_once():
    pick = Picker()
    attack = pick.many(3, "attack")
    state = arrange(
        players=3, hands={0: attack, 2: [pick("defence")]}, table=pick.many(2, "defence")
    )
    events = state.apply(0, find(state, 0, "attack", attack, target=1))
    assert state.window is None and "damage" in types(events) and state.life[1] == LIFE - 3


def test_defence_points_absorb_attack_points_and_the_rest_hits():
    pick = Picker()
    hand = [*pick.many(2, "attack"), pick("avatar", "greys")]
    table_attack = pick("attack")
    defence = pick.many(3, "defence")
    state = arrange(hands={0: hand, 1: defence}, table=[table_attack])
    state.apply(0, find(state, 0, "attack", [*hand, table_attack], target=1))
    state.apply(1, find(state, 1, "defend", defence))  # 3 points against 6
    assert state.life[1] == LIFE - 3 and state.blocks[1] == 1 and state.damage_dealt[0] == 3


def test_a_doubled_defence_against_a_plain_attack_blocks_it_and_nothing_more():
    pick = Picker()
    attack = pick.many(3, "attack")
    defence = [*pick.many(2, "defence"), pick("avatar", "shapeshifters")]
    table = [pick("defence")]
    state = arrange(hands={0: attack, 1: defence}, table=table, life={0: 20})
    state.apply(0, find(state, 0, "attack", attack, target=1))
    events = state.apply(1, find(state, 1, "defend", defence + table))
    assert "blocked" in types(events) and state.life == [20, LIFE]


def test_a_doubled_attack_and_a_doubled_defence_cancel_each_other():
    pick = Picker()
    state = doubled_attack_then_defence(
        pick, [*pick.many(2, "defence"), pick("avatar", "shapeshifters")], [pick("defence")]
    )
    (defend,) = [a for a in state.legal_actions(1) if a["type"] == "defend" and a["points"] == 6]
    state.apply(1, defend)
    assert state.life[1] == LIFE


def test_a_doubled_special_attack_opens_no_window_either():
    pick = Picker()
    hand = [*pick.many(2, "special_attack"), pick("avatar", "greys")]
    table = [pick("special_attack"), *pick.many(2, "defence")]
    state = arrange(
        hands={0: hand, 1: [*pick.many(2, "defence"), pick("avatar", "shapeshifters")]}, table=table
    )
    events = state.apply(0, find(state, 0, "special_attack", [*hand, table[0]], target=1))
    assert state.window is None and "defend" not in types(events) and state.life[1] == LIFE - 12


def test_a_defence_is_only_an_answer_to_an_attack():
    pick = Picker()
    state = arrange(hands={0: [*pick.many(3, "defence")], 1: [pick("attack")]})
    assert "defend" not in {a["type"] for a in state.legal_actions(0)}
    error = refused(state, 0, {"type": "defend", "cards": state.hands[0], "points": 3})
    assert error.code == "no_defence"


# ------------------------------------------------------------ heal and discard


def test_the_heal_needs_three_defence_cards_on_ones_turn_and_lost_life():
    pick = Picker()
    state = arrange(hands={0: pick.many(3, "defence"), 1: [pick("attack")]})
    assert "heal" not in {a["type"] for a in state.legal_actions(0)}  # at full life
    error = refused(state, 0, {"type": "heal", "cards": state.hands[0]})
    assert error.code == "no_heal"


def test_a_player_who_can_attack_may_not_discard():
    pick = Picker()
    attack = pick.many(3, "attack")
    state = arrange(hands={0: [attack[0], pick("defence")], 1: [pick("defence")]}, table=attack[1:])
    assert {a["type"] for a in state.legal_actions(0)} == {"attack"}
    error = refused(state, 0, {"type": "discard", "card": attack[0]})
    assert error.code == "must_act"


def test_a_player_who_cannot_act_discards_one_card_to_the_table():
    pick = Picker()
    hand = [pick("attack"), pick("defence"), pick("avatar", "shapeshifters")]
    table = [pick("bonus")]
    state = arrange(hands={0: hand, 1: [pick("attack")]}, table=table)
    assert state.legal_actions(0) == [{"type": "discard", "card": c} for c in hand]
    events = state.apply(0, {"type": "discard", "card": hand[2]})
    assert types(events) == ["discard", "turn"] and state.table == [*table, hand[2]]
    # Seat 1's Avatar card now on the table doubles its owner's actions.
    assert state.to_move() == [1]


def test_a_player_who_could_only_heal_may_discard_instead():
    pick = Picker()
    state = arrange(hands={0: pick.many(3, "defence"), 1: [pick("attack")]}, life={0: 20})
    assert {a["type"] for a in state.legal_actions(0)} == {"heal", "discard"}


# ------------------------------------------------------------ rounds and dealing


def test_players_without_cards_wait_and_the_round_ends_when_every_hand_is_empty():
    pick = Picker()
    hands = {0: [pick("defence")], 2: [pick("bonus")]}
    state = arrange(players=3, hands=hands, table=[pick("attack")])
    events = state.apply(0, {"type": "discard", "card": state.hands[0][0]})
    assert events[-1] == {"type": "turn", "seat": 2}  # seat 1 has no card: it waits
    events = state.apply(2, {"type": "discard", "card": state.hands[2][0]})
    assert types(events) == ["discard", "round_end"]
    assert state.stage == "round_end" and state.to_move() == []
    (timer,) = state.timers()
    assert timer["seconds"] == rules.DEFAULT_OPTIONS["round_pause_seconds"]
    table = list(state.table)
    events = state.apply(None, timer["action"])
    assert types(events) == ["table_cleared", "deal", "turn"]
    assert set(table) <= set(state.pile)  # the table of the last round is swept
    assert [len(h) for h in state.hands] == [3, 3, 3] and len(state.table) == 4
    assert state.round == 2 and state.turn == 0  # first to the dealer's (seat 2) right


def test_turns_go_to_the_right_of_the_dealer_in_seat_order():
    state = GAME.new_state(4, 11, "standard")
    for s, c in enumerate(CHARACTERS):
        state.apply(s, {"type": "choose", "character": c})
    assert state.dealer == 3
    order = []
    while state.round == 1 and not state.over:
        seat = state.to_move()[0] if state.to_move() else None
        if state.window is None and seat is not None:
            order.append(seat)
        legal = state.legal_actions(seat)
        take = [a for a in legal if a["type"] == "take"]
        state.apply(seat, take[0] if take else legal[0])
    assert order[:4] == [0, 1, 2, 3]


def test_when_the_deck_runs_out_the_played_pile_is_shuffled_under_it_and_the_next_player_deals():
    rest = [
        c
        for c in CARD_IDS
        if c
        not in set(IDENTITY.values()) | set(AVATARS["investigators"]) | set(AVATARS["men_in_black"])
    ]
    deck, pile = rest[:5], rest[5:]
    state = arrange(
        hands={0: []},
        deck=deck,
        pile=pile,
        table=[],
        stage="round_end",
        window={"id": "w9", "kind": "deal", "seat": None, "seconds": 3},
        dealer=1,
    )
    events = state.apply(None, {"type": "expire", "timer": "w9"})
    assert types(events) == ["reshuffle", "deal", "turn"]
    assert events[0]["count"] == len(pile) and events[0]["dealer"] == 0
    assert state.dealer == 0 and state.turn == 1  # the round begins on the new dealer's right
    drawn = state.hands[1] + state.hands[0] + state.table  # in the order they were dealt
    assert set(drawn[:5]) == set(deck)  # the old deck is dealt first
    assert state.pile == [] and len(state.deck) == len(deck) + len(pile) - 10


# ------------------------------------------------------------ out of the game, the end


def test_a_player_at_zero_life_is_out_and_the_last_player_with_life_wins():
    pick = Picker()
    attack = pick.many(3, "attack")
    state = arrange(hands={0: attack, 1: [pick("defence")]}, life={1: 2})
    state.apply(0, find(state, 0, "attack", attack, target=1))
    events = state.apply(1, {"type": "take"})
    assert types(events) == ["damage", "knocked_out", "game_over"]
    assert events[0]["points"] == 2 and state.life[1] == 0  # life never below zero
    assert state.damage_dealt[0] == 2 and state.hands[1] == [] and state.is_over()
    result = state.result()
    assert result["winners"] == [0] and result["decided_by"] == "last_standing"
    assert result["ranking"] == [[0], [1]] and result["ended_by"] == "last_standing"
    assert state.to_move() == [] and state.legal_actions(0) == []
    assert refused(state, 0, {"type": "take"}).code == "game_over"


def test_a_player_out_of_the_game_is_skipped_cannot_be_attacked_and_passes_the_deal_on():
    pick = Picker()
    special = pick.many(3, "special_attack")
    hands = {0: special, 1: [pick("attack")], 2: [pick("bonus")]}
    state = arrange(players=3, hands=hands, life={2: 5}, dealer=2)
    cards = list(state.hands[2])
    events = state.apply(0, find(state, 0, "special_attack", special, target=2))
    assert types(events) == ["special_attack", "damage", "knocked_out", "dealer", "turn"]
    assert state.out == [2] and set(cards) <= set(state.pile) and state.dealer == 0
    assert not state.is_over() and state.to_move() == [1]
    assert all(a.get("target") != 2 for a in state.legal_actions(1))
    attack = {"type": "attack", "target": 2, "cards": state.hands[1], "points": 3}
    assert refused(state, 1, attack).code == "bad_target"


def test_the_round_limit_ends_the_game_ranked_by_life_then_damage_dealt():
    pick = Picker()
    state = arrange(
        players=3,
        hands={0: [pick("bonus")]},
        table=[],
        round=5,
        options={"max_rounds": 5},
        life={0: 9, 1: 12, 2: 12},
        damage_dealt=[0, 4, 6],
        rounds=[5, 5, 5],
    )
    events = state.apply(0, {"type": "discard", "card": state.hands[0][0]})
    assert types(events) == ["discard", "round_end", "round_limit", "game_over"]
    result = state.result()
    assert result["winners"] == [2] and result["decided_by"] == "damage_dealt"
    assert result["ranking"] == [[2], [1], [0]] and result["ended_by"] == "round_limit"


def test_the_round_limit_may_end_in_a_shared_victory():
    pick = Picker()
    state = arrange(
        hands={0: [pick("bonus")]}, round=5, options={"max_rounds": 5}, life={0: 9, 1: 9}
    )
    state.apply(0, {"type": "discard", "card": state.hands[0][0]})
    result = state.result()
    assert result["winners"] == [0, 1] and result["decided_by"] == "shared"


def test_the_knocked_out_rank_in_reverse_order_of_going_out():
    pick = Picker()
    state = arrange(
        players=3,
        hands={0: pick.many(3, "special_attack")},
        life={1: 3, 2: 2},
        rounds=[4, 4, 2],
        round=4,
    )
    state.out = [2]
    state.life[2] = 0
    state.apply(0, find(state, 0, "special_attack", state.hands[0], target=1))
    assert state.result()["ranking"] == [[0], [1], [2]]


def test_the_platforms_rank_by_score_columns_agrees_with_the_result():
    for seed in range(30):
        state = GAME.new_state(2 + seed % 3, seed, "quick", {"max_rounds": 5 + seed % 4})
        rng = random.Random(seed)
        while not state.is_over():
            movers = state.to_move()
            seat = rng.choice(movers) if movers else None
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        result = state.result()
        ranks = GAME.rank(state.scores())
        assert result is not None
        assert result["ranking"], seed
        for place, group in enumerate(result["ranking"]):
            assert {ranks[s] for s in group} == {1 + sum(map(len, result["ranking"][:place]))}


def test_the_replay_shows_the_declared_zones_and_notes_on_seats():
    pick = Picker()
    state = arrange(players=3, hands={0: pick.many(3, "special_attack")}, life={1: 2}, dealer=1)
    state.apply(0, find(state, 0, "special_attack", state.hands[0], target=1))
    data = state.to_json()
    for zone in (*GAME.seat_zones, *GAME.table_zones):
        assert zone.key in data
    assert [n.message for n in GAME.seat_notes(data, 2)] == ["deals"]
    (note,) = GAME.seat_notes(data, 1)
    assert note.message % note.params == "out of the game (order out: 1)"
    assert GAME.event_seats({"type": "damage", "seat": 1, "attacker": 0}) == [0, 1]


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    variant=st.sampled_from(["standard", "quick"]),
)
def test_random_games_keep_life_hands_and_turns_in_bounds(seed, players, variant):
    state = GAME.new_state(players, seed, variant)
    top = state.options["life_points"]
    rng = random.Random(seed)
    while not state.is_over():
        movers = state.to_move()
        seat = rng.choice(movers) if movers else None
        for s in movers:
            assert s not in state.out and (state.window or state.hands[s])
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        assert all(0 <= life <= top for life in state.life)
        assert all(len(h) <= 3 for h in state.hands) and len(state.table) <= 4 + 3 * players
        assert all(not state.hands[s] for s in state.out)
    assert state.round <= state.options["max_rounds"]
    result = state.result()
    assert result is not None
    if result["ended_by"] == "last_standing":
        assert [s for s in range(players) if state.life[s] > 0] == result["winners"]


# ------------------------------------------------------------ views and refusals


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others():
    pick = Picker()
    hands = {0: pick.many(3, "attack"), 1: pick.many(2, "defence")}
    state = arrange(hands=hands, table=[pick("bonus")])
    view = state.view(1)
    assert view["hand"] == hands[1] and "hand" not in state.view(None)
    text = json.dumps(view)
    assert not any(c in text for c in hands[0]) and not any(c in text for c in state.deck)
    assert [p["hand_count"] for p in view["players"]] == [3, 2]
    assert [p["character"] for p in view["players"]] == ["greys", "shapeshifters"]
    assert view["players"][0]["character_card"] == IDENTITY["greys"]
    assert view["deck_count"] == len(state.deck) and view["table"] == state.table
    assert view["players"][1]["dealer"] and view["to_move"] == [0]


def test_refusals_carry_a_code_and_a_message_and_change_nothing():
    pick = Picker()
    attack = pick.many(3, "attack")
    state = arrange(hands={0: attack, 1: [pick("defence")]})
    assert refused(state, 1, {"type": "discard", "card": state.hands[1][0]}).code == "not_your_turn"
    assert refused(state, 7, {"type": "take"}).code == "bad_seat"
    assert refused(state, None, {"type": "expire", "timer": "w1"}).code == "stale_timer"
    assert (
        refused(state, 0, {"type": "attack", "target": 0, "cards": attack, "points": 3}).code
        == "bad_target"
    )
    other = pick("attack")
    assert (
        refused(
            state, 0, {"type": "attack", "target": 1, "cards": [*attack[:2], other], "points": 3}
        ).code
        == "card_not_held"
    )
    assert (
        refused(state, 0, {"type": "attack", "target": 1, "cards": attack, "points": 9}).code
        == "not_a_set"
    )
    assert refused(state, 0, {"type": "dance"}).code == "illegal_action"
    assert refused(state, 0, "attack").code == "illegal_action"
