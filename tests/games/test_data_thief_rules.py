"""Unit tests of every Data Thief rule and decision of docs/rules/data_thief.md: each
checks the effect on the state (boards, hands, loot, points), and each refusal its code."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.data_thief import rules
from games.data_thief.cards import ALL_CARDS, BY_ID, GENERAL, KIND, THIEF_CARDS, stops
from games.data_thief.rules import OPENING_ROUNDS, DataThief
from games.data_thief.text import describe_event
from games.engine import IllegalAction
from games.engine.driver import play
from tests.games.playout import choose, strings

GAME = DataThief()  # the registered game object behaves the same; this keeps the test pure


class Picker:
    """Hand out distinct card ids by kind and attributes."""

    def __init__(self):
        self.used = set()

    def __call__(self, kind, **attrs):
        for card in ALL_CARDS:
            fits = all(card.get(k) == v for k, v in attrs.items())
            if card["kind"] == kind and fits and card["id"] not in self.used:
                self.used.add(card["id"])
                return card["id"]
        raise LookupError(f"no more {kind} {attrs}")


def arrange(players=2, variant="standard", **fields):
    """Return a state through the public JSON format: ``fields`` override the JSON's
    (``hands`` and ``boards`` as ``{seat: ...}``); unplaced cards fill the two piles."""
    d = GAME.new_state(players, 1, variant).to_json()
    hands = fields.pop("hands", {})
    boards = fields.pop("boards", {})
    d["hands"] = [list(hands.get(s, [])) for s in range(players)]
    d["boards"] = [
        {
            "paper": list(boards.get(s, {}).get("paper", [])),
            "digital": list(boards.get(s, {}).get("digital", [])),
        }
        for s in range(players)
    ]
    d.update(
        {"discard": [], "thief_discard": [], "loot": [], "revealed": [], "last_events": []},
        round=3,
        turn=0,
        window=None,
    )
    d["proofs"] = [[] for _ in range(players)]
    d["skips"] = [0] * players
    d.update(fields)
    placed = set(d["loot"] + d["discard"] + d["thief_discard"])
    placed |= {c for h in d["hands"] for c in h} | {c for p in d["proofs"] for c in p}
    placed |= {c for b in d["boards"] for n in b.values() for c in n}
    if d["window"]:
        placed.add(d["window"]["attack"])
    d["deck"] = [c for c in GENERAL if c not in placed]
    d["thief_deck"] = [c for c in THIEF_CARDS if c not in placed]
    return GAME.from_json(d)


def refused(state, seat, action, code):
    """Assert ``action`` is refused with ``code`` and changes nothing."""
    before = state.dumps()
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    assert info.value.code == code, info.value.code
    assert state.dumps() == before


def types(events):
    return [e["type"] for e in events]


def points(state, seat):
    return state.scores()[seat]["points"]


# ------------------------------------------------------------------ set-up and turns


def test_the_last_seat_is_the_thief_and_the_hands_are_dealt():
    state = GAME.new_state(4, 7, "standard")
    assert (
        state.thief == 3 and GAME.seat_role(4, 3) == "thief" and GAME.seat_role(4, 0) == "manager"
    )
    assert [len(h) for h in state.hands] == [4, 3, 3, 1]  # seat 0 has drawn its 4th card
    assert state.to_move() == [0] and state.round == 1
    assert state.rounds == rules.ROUNDS["standard"]
    assert GAME.new_state(2, 7, "expert").rounds == rules.ROUNDS["expert"]
    assert GAME.new_state(2, 7, "standard", {"rounds": 12}).rounds == 12


def test_the_managers_play_two_rounds_alone_and_the_thief_enters_on_the_third():
    state = GAME.new_state(3, 11, "standard")
    movers = []
    while state.round <= 2:
        seat = state.to_move()[0]
        movers.append(seat)
        if seat != 2:
            refused(state, 2, {"type": "discard", "card": state.hands[2][0]}, "thief_waits")
        state.apply(seat, state.legal_actions(seat)[0])
    assert movers == [0, 1, 0, 1]
    assert state.to_move() == [0] and state.round == 3
    state.apply(0, state.legal_actions(0)[0])
    state.apply(1, state.legal_actions(1)[0])
    assert state.to_move() == [2] and len(state.hands[2]) == 2  # the thief drew its 2nd card


def test_a_student_thief_sits_first_and_still_plays_last_in_each_round():
    """Decision (which seat is the thief): ``thief: student`` puts the thief at seat 0,
    which a student takes at a table with bots; the managers still open every round."""
    state = GAME.new_state(3, 11, "standard", {"thief": "student"})
    assert state.thief == 0 and state.managers() == [1, 2]
    assert [len(h) for h in state.hands] == [1, 4, 3]  # seat 1 opens: it has drawn
    assert state.to_move() == [1] and state.view(None)["thief"] == 0
    assert [p["role"] for p in state.view(2)["players"]] == ["thief", "manager", "manager"]
    refused(state, 0, {"type": "discard", "card": state.hands[0][0]}, "thief_waits")
    events, rng = list(state.last_events), random.Random(3)  # the deal opens seat 1's turn
    while state.round <= 4:
        events += state.apply(*choose(state, rng))
    turns = [(e["type"], e["round"], e.get("seat")) for e in events if "round" in e]
    assert [t for t in turns if t[1] <= 2] == [
        ("turn", 1, 1), ("turn", 1, 2), ("round_end", 1, None),
        ("turn", 2, 1), ("turn", 2, 2), ("round_end", 2, None),
    ]  # fmt: skip
    assert [t for t in turns if t[1] == 3] == [
        ("turn", 3, 1), ("turn", 3, 2), ("turn", 3, 0), ("round_end", 3, None),
    ]  # fmt: skip
    assert GAME.seat_role(3, 2) == "thief"  # the default seat: the last


def test_a_student_thief_plays_whole_games_and_scores_its_loot():
    for players in (2, 3, 5):
        for variant in ("standard", "expert"):
            state = GAME.new_state(players, players, variant, {"thief": "student"})
            bots = [GAME.bots["heuristic"]() for _ in range(players)]
            play(state, bots, random.Random(players))
            result = state.result()
            assert result is not None
            assert result["thief"] == 0 and state.loot
            assert result["scores"][0]["points"] == sum(BY_ID[c]["points"] for c in state.loot)
            assert GAME.from_json(state.to_json()).dumps() == state.dumps()
    with pytest.raises(ValueError):
        GAME.new_state(3, 1, "standard", {"thief": "teacher"})


@pytest.mark.parametrize("opening_round", [1, 2])
def test_in_the_opening_rounds_a_manager_lays_data_cards_only(opening_round):
    """The rule book's opening: "il pose une carte donnée". A measure waits for round 3;
    a manager with no data card discards one card, as when nothing fits."""
    pick = Picker()
    lock, data = pick("measure", measure="locked_cabinet"), pick("data")
    lay_lock = {"type": "lay", "card": lock, "board": "paper"}
    boards = {0: {"paper": [pick("data")]}}  # a board the measure would fit on
    state = arrange(3, round=opening_round, hands={0: [lock, data]}, boards=boards)
    refused(state, 0, lay_lock, "opening_data")
    assert {a["card"] for a in state.legal_actions(0)} == {data}
    only_measures = arrange(3, round=opening_round, hands={0: [lock]}, boards=boards)
    assert only_measures.legal_actions(0) == [{"type": "discard", "card": lock}]
    later = arrange(3, round=OPENING_ROUNDS + 1, hands={0: [lock, data]}, boards=boards)
    assert lay_lock in later.legal_actions(0)
    later.apply(0, lay_lock)
    assert later.boards[0]["paper"][-1] == lock


def test_a_manager_draws_to_four_and_must_play_one_card():
    pick = Picker()
    hand = [pick("data", category="standard") for _ in range(3)]
    state = arrange(hands={0: hand})
    state._start_turn(0)
    assert len(state.hands[0]) == 4
    state.apply(0, {"type": "lay", "card": hand[0], "board": "paper"})
    assert len(state.hands[0]) == 3 and state.boards[0]["paper"] == [hand[0]]
    assert state.to_move() == [1]


# --------------------------------------------------------------------------- boards


def test_the_first_card_of_a_board_is_a_data_card():
    pick = Picker()
    lock, data = pick("measure", measure="locked_cabinet"), pick("data")
    state = arrange(hands={0: [lock, data]})
    refused(state, 0, {"type": "lay", "card": lock, "board": "paper"}, "data_first")
    state.apply(0, {"type": "lay", "card": data, "board": "paper"})
    assert state.boards[0]["paper"] == [data]


def test_a_board_holds_at_most_three_cards():
    pick = Picker()
    full = [pick("data") for _ in range(3)]
    extra = pick("data")
    state = arrange(hands={0: [extra]}, boards={0: {"paper": full}})
    refused(state, 0, {"type": "lay", "card": extra, "board": "paper"}, "board_full")
    state.apply(0, {"type": "lay", "card": extra, "board": "digital"})
    assert state.boards[0]["digital"] == [extra]


def test_a_measure_goes_only_on_a_board_of_its_nature():
    pick = Picker()
    lock, training = pick("measure", measure="locked_cabinet"), pick("measure", measure="training")
    boards = {0: {"paper": [pick("data")], "digital": [pick("data")]}}
    state = arrange(hands={0: [lock, training]}, boards=boards)
    refused(state, 0, {"type": "lay", "card": lock, "board": "digital"}, "wrong_board")
    lays = state.legal_actions(0)
    assert {"type": "lay", "card": training, "board": "digital"} in lays  # both natures
    assert {"type": "lay", "card": training, "board": "paper"} in lays


def test_a_measure_is_face_down_and_seen_only_by_its_owner():
    pick = Picker()
    data, lock = pick("data"), pick("measure", measure="locked_cabinet")
    state = arrange(hands={0: [lock]}, boards={0: {"paper": [data]}})
    events = state.apply(0, {"type": "lay", "card": lock, "board": "paper"})
    assert events[0] == {"type": "measure_laid", "seat": 0, "board": "paper"}
    assert lock in state.private_cards(0)
    for seat in (None, 1):
        assert lock not in strings(state.view(seat))
        assert state.view(seat)["players"][0]["boards"]["paper"][1] == {
            "kind": "measure",
            "face_down": True,
        }
    assert state.view(0)["players"][0]["boards"]["paper"][1]["card"] == lock


def test_a_manager_discards_face_up_only_when_no_card_fits():
    pick = Picker()
    lock, data = pick("measure", measure="locked_cabinet"), pick("data")
    state = arrange(hands={0: [lock, data]})
    refused(state, 0, {"type": "discard", "card": lock}, "must_lay")
    full = {"paper": [pick("data") for _ in range(3)], "digital": [pick("data") for _ in range(3)]}
    state = arrange(hands={0: [lock, data]}, boards={0: full})
    assert state.legal_actions(0) == [
        {"type": "discard", "card": lock},
        {"type": "discard", "card": data},
    ]
    state.apply(0, {"type": "discard", "card": lock})
    assert state.discard == [lock] and lock in strings(state.view(1))


# -------------------------------------------------------------------------- attacks


def thief_turn(pick, players=2, **fields):
    """Return a state at the thief's turn (round 3)."""
    return arrange(players, turn=players - 1, **fields)


def test_an_attack_targets_a_board_of_its_nature_holding_data():
    pick = Picker()
    bins = pick("attack", attack="bin_raiding")
    state = thief_turn(pick, hands={1: [bins]}, boards={0: {"digital": [pick("data")]}})
    assert state.legal_actions(1) == [{"type": "discard", "card": bins}]
    refused(state, 1, {"type": "attack", "card": bins, "target": 0, "board": "paper"}, "no_data")
    refused(
        state, 1, {"type": "attack", "card": bins, "target": 0, "board": "digital"}, "wrong_nature"
    )
    refused(
        state, 0, {"type": "attack", "card": bins, "target": 0, "board": "paper"}, "not_your_turn"
    )


def test_the_thief_discards_face_up_only_when_no_attack_fits():
    pick = Picker()
    bins, wifi = pick("attack", attack="bin_raiding"), pick("attack", attack="public_wifi")
    state = thief_turn(pick, hands={1: [bins, wifi]}, boards={0: {"paper": [pick("data")]}})
    refused(state, 1, {"type": "discard", "card": wifi}, "must_attack")
    state = thief_turn(pick, hands={1: [bins, wifi]})
    state.apply(1, {"type": "discard", "card": wifi})
    assert state.thief_discard == [wifi] and wifi in strings(state.view(0))


def test_a_measure_on_the_board_counters_and_is_revealed_and_the_manager_keeps_the_attack():
    pick = Picker()
    data, shredder = pick("data", category="sensitive"), pick("measure", measure="shredder")
    bins = pick("attack", attack="bin_raiding")
    state = thief_turn(pick, hands={1: [bins]}, boards={0: {"paper": [data, shredder]}})
    before = points(state, 0)
    events = state.apply(1, {"type": "attack", "card": bins, "target": 0, "board": "paper"})
    assert types(events)[:2] == ["attack", "countered"]
    assert events[1]["source"] == "board" and events[1]["measure"] == shredder
    assert state.boards[0]["paper"] == [data, shredder] and shredder in state.revealed
    assert state.proofs[0] == [bins] and state.loot == []
    assert points(state, 0) == before + 10
    assert shredder in strings(state.view(1))  # face up now
    assert shredder not in state.private_cards(0)


def test_a_revealed_measure_stays_and_still_protects():
    pick = Picker()
    data, shredder = pick("data"), pick("measure", measure="shredder")
    bins = pick("attack", attack="bin_raiding")
    state = thief_turn(
        pick, hands={1: [bins]}, boards={0: {"paper": [data, shredder]}}, revealed=[shredder]
    )
    state.apply(1, {"type": "attack", "card": bins, "target": 0, "board": "paper"})
    assert state.proofs[0] == [bins] and state.boards[0]["paper"] == [data, shredder]


def test_a_measure_that_does_not_match_does_not_counter():
    pick = Picker()
    data, lock = pick("data"), pick("measure", measure="locked_cabinet")
    bins = pick("attack", attack="bin_raiding")
    assert not stops(lock, bins)
    state = thief_turn(pick, hands={1: [bins]}, boards={0: {"paper": [data, lock]}})
    state.apply(1, {"type": "attack", "card": bins, "target": 0, "board": "paper"})
    assert state.loot == [data] and state.thief_discard == [bins]


def test_countering_from_the_hand_lays_the_measure_face_up_on_the_board():
    pick = Picker()
    data, shredder = pick("data"), pick("measure", measure="shredder")
    bins = pick("attack", attack="bin_raiding")
    state = thief_turn(pick, hands={0: [shredder], 1: [bins]}, boards={0: {"paper": [data]}})
    state.apply(1, {"type": "attack", "card": bins, "target": 0, "board": "paper"})
    assert state.to_move() == [0] and state.window["kind"] == "counter"
    assert state.legal_actions(0) == [{"type": "counter", "card": shredder}, {"type": "accept"}]
    refused(state, 1, {"type": "discard", "card": bins}, "not_your_turn")
    events = state.apply(0, {"type": "counter", "card": shredder})
    assert types(events)[:2] == ["countered", "measure_kept"]
    assert state.boards[0]["paper"] == [data, shredder] and shredder in state.revealed
    assert state.proofs[0] == [bins] and shredder not in state.hands[0]


def test_a_measure_from_the_hand_is_discarded_when_the_board_is_full():
    pick = Picker()
    full = [pick("data") for _ in range(3)]
    shredder, bins = pick("measure", measure="shredder"), pick("attack", attack="bin_raiding")
    state = thief_turn(pick, hands={0: [shredder], 1: [bins]}, boards={0: {"paper": full}})
    state.apply(1, {"type": "attack", "card": bins, "target": 0, "board": "paper"})
    state.apply(0, {"type": "counter", "card": shredder})
    assert state.discard == [shredder] and state.boards[0]["paper"] == full


def test_letting_an_attack_pass_or_the_timer_lets_the_thief_steal():
    pick = Picker()
    data, shredder = pick("data"), pick("measure", measure="shredder")
    bins = pick("attack", attack="bin_raiding")
    for answer in ("accept", "timer"):
        state = thief_turn(pick, hands={0: [shredder], 1: [bins]}, boards={0: {"paper": [data]}})
        state.apply(1, {"type": "attack", "card": bins, "target": 0, "board": "paper"})
        if answer == "accept":
            state.apply(0, {"type": "accept"})
        else:
            state.apply(None, state.legal_actions(None)[0])
        assert state.loot == [data] and shredder in state.hands[0]


def test_the_thief_chooses_which_data_to_steal():
    pick = Picker()
    low, high = pick("data", category="standard"), pick("data", category="sensitive")
    mid = pick("data", category="highly_confidential")
    wifi = pick("attack", attack="public_wifi")  # steals 1
    state = thief_turn(pick, hands={1: [wifi]}, boards={0: {"digital": [low, high, mid]}})
    state.apply(1, {"type": "attack", "card": wifi, "target": 0, "board": "digital"})
    assert state.window["kind"] == "steal"
    assert state.legal_actions(1) == [{"type": "steal", "card": c} for c in (low, high, mid)]
    state.apply(1, {"type": "steal", "card": high})
    assert state.loot == [high] and state.boards[0]["digital"] == [low, mid]
    assert points(state, 1) == 30 and points(state, 0) == 30
    assert state.window is None and state.to_move() == [0]


def test_an_attack_stealing_two_takes_two_one_at_a_time():
    pick = Picker()
    board = [pick("data") for _ in range(3)]
    laptop = pick("attack", attack="stolen_laptop")
    state = thief_turn(pick, hands={1: [laptop]}, boards={0: {"digital": board}})
    state.apply(1, {"type": "attack", "card": laptop, "target": 0, "board": "digital"})
    state.apply(1, {"type": "steal", "card": board[2]})
    assert state.window["left"] == 1
    state.apply(1, {"type": "steal", "card": board[0]})
    assert state.loot == [board[2], board[0]] and state.boards[0]["digital"] == [board[1]]


def test_the_last_data_of_a_board_taken_clears_its_measures():
    pick = Picker()
    data, lock = pick("data"), pick("measure", measure="locked_cabinet")
    bins = pick("attack", attack="bin_raiding")
    state = thief_turn(pick, hands={1: [bins]}, boards={0: {"paper": [data, lock]}})
    events = state.apply(1, {"type": "attack", "card": bins, "target": 0, "board": "paper"})
    assert "board_cleared" in types(events)
    assert state.boards[0]["paper"] == [] and state.discard == [lock] and state.loot == [data]


def test_an_attack_that_steals_nothing_makes_the_manager_miss_turns():
    pick = Picker()
    data = pick("data")
    ransom = pick("attack", attack="ransomware")
    assert BY_ID[ransom]["skips"] == 2 and BY_ID[ransom]["steals"] == 0
    state = thief_turn(pick, hands={1: [ransom]}, boards={0: {"digital": [data]}}, rounds=8)
    events = state.apply(1, {"type": "attack", "card": ransom, "target": 0, "board": "digital"})
    assert "turns_lost" in types(events) and state.loot == []
    skipped = [e for e in events if e["type"] == "turn_skipped"]
    assert skipped == [{"type": "turn_skipped", "seat": 0, "left": 1}]
    assert state.to_move() == [1] and state.round == 4
    events = state.apply(1, state.legal_actions(1)[0])
    assert {"type": "turn_skipped", "seat": 0, "left": 0} in events
    assert state.skips[0] == 0 and state.round == 5 and state.to_move() == [1]
    state.apply(1, state.legal_actions(1)[0])
    assert state.round == 6 and state.to_move() == [0]


def test_experts_steal_a_whole_category():
    pick = Picker()
    a, b = pick("data", category="standard"), pick("data", category="standard")
    s = pick("data", category="sensitive")
    wifi = pick("attack", attack="public_wifi")
    state = thief_turn(
        pick, variant="expert", hands={1: [wifi]}, boards={0: {"digital": [a, s, b]}}
    )
    state.apply(1, {"type": "attack", "card": wifi, "target": 0, "board": "digital"})
    assert state.legal_actions(1) == [
        {"type": "steal", "category": "standard"},
        {"type": "steal", "category": "sensitive"},
    ]
    state.apply(1, {"type": "steal", "category": "standard"})
    assert state.loot == [a, b] and state.boards[0]["digital"] == [s]


def test_the_thief_pile_is_reshuffled_from_its_discard_when_empty():
    pick = Picker()
    state = arrange(turn=0, hands={0: [pick("data")]})
    d = state.to_json()
    d["thief_discard"], d["thief_deck"] = list(THIEF_CARDS), []
    state = GAME.from_json(d)
    events = state.apply(0, state.legal_actions(0)[0])
    assert {"type": "reshuffle", "pile": "thief", "count": len(THIEF_CARDS)} in events
    assert len(state.hands[1]) == 1 and state.thief_discard == []


def test_the_general_pile_is_reshuffled_from_the_discard_when_empty():
    pick = Picker()
    state = arrange(turn=1, hands={1: [pick("attack")]})
    d = state.to_json()
    d["discard"], d["deck"] = d["deck"], []
    state = GAME.from_json(d)
    events = state.apply(1, state.legal_actions(1)[0])
    assert any(e["type"] == "reshuffle" and e["pile"] == "general" for e in events)
    assert len(state.hands[0]) == 1


# --------------------------------------------------------------------- end and points


def test_the_game_ends_after_the_last_round_and_the_most_points_win():
    pick = Picker()
    sensitive = [pick("data", category="sensitive") for _ in range(2)]
    standard = pick("data", category="standard")
    wifi = pick("attack", attack="public_wifi")
    state = thief_turn(
        pick,
        players=3,
        hands={2: [wifi]},
        boards={0: {"digital": [standard]}, 1: {"digital": sensitive}},
        proofs=[[pick("attack")], [], []],
        loot=[pick("data", category="highly_confidential")],
        round=8,
        rounds=8,
    )
    events = state.apply(2, {"type": "attack", "card": wifi, "target": 1, "board": "digital"})
    state.apply(2, {"type": "steal", "card": sensitive[0]}) if state.window else None
    assert state.is_over() and state.to_move() == [] and state.legal_actions(None) == []
    scores = state.scores()
    assert scores[0]["points"] == 10 + 10  # a standard card and a countered attack
    assert scores[1]["points"] == 30
    assert scores[2]["points"] == 20 + 30 and scores[2]["attacks"] == 1
    assert state.result()["winners"] == [2] and state.result()["decided_by"] == "points"
    assert "attack" in types(events)


def test_a_tie_on_points_is_broken_by_data_cards_then_shared():
    pick = Picker()
    state = arrange(
        boards={0: {"paper": [pick("data", category="highly_confidential")]}},
        loot=[pick("data", category="standard"), pick("data", category="standard")],
        over=True,
    )
    assert state.result()["winners"] == [1] and state.result()["decided_by"] == "data_cards"
    state = arrange(
        boards={0: {"paper": [pick("data", category="standard")]}},
        loot=[pick("data", category="standard")],
        over=True,
    )
    assert state.result()["winners"] == [0, 1] and state.result()["decided_by"] == "shared"


def test_every_card_kind_is_in_the_set_with_its_numbers():
    kinds = {c["kind"] for c in ALL_CARDS}
    assert kinds == {"data", "measure", "attack"}
    for card in ALL_CARDS:
        if card["kind"] == "attack":
            assert card["nature"] in ("paper", "digital") and card["stopped_by"]
            assert bool(card["steals"]) != bool(card["skips"])
        if card["kind"] == "measure":
            assert card["stops"] and card["nature"] in ("paper", "digital", "both")
        assert {"en", "es", "fr", "ru"} <= set(card["name"]) and set(card["flavour"]) >= {
            "en",
            "ru",
        }
    measures = {c["measure"] for c in ALL_CARDS if c["kind"] == "measure"}
    for card in ALL_CARDS:
        if card["kind"] == "attack":
            assert set(card["stopped_by"]) <= measures


# --------------------------------------------------------------------- texts, views


def test_every_event_of_random_games_has_a_log_line():
    seen = set()
    for seed in range(40):
        for variant in GAME.variants:
            state = GAME.new_state(2 + seed % 4, seed, variant)
            rng = random.Random(seed)
            for e in state.last_events:
                template, params = describe_event(e)
                assert template % params
            while not state.is_over():
                for e in state.apply(*choose(state, rng)):
                    seen.add(e["type"])
                    template, params = describe_event(e)
                    assert template % params
    assert {"attack", "countered", "stolen", "turns_lost", "game_over", "turn_skipped"} <= seen


# ------------------------------------------------------------------ invariants


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 5),
    expert=st.booleans(),
    thief=st.sampled_from(["bot", "student"]),
)
def test_invariants_hold_at_every_step(seed, players, expert, thief):
    """Cards conserved, at most 3 cards a board, the first a data card, no hidden card seen."""
    state = GAME.new_state(players, seed, "expert" if expert else "standard", {"thief": thief})
    rng = random.Random(seed)
    total = len(ALL_CARDS)
    while not state.is_over():
        zones = state.zones()
        assert sorted(c for z in zones.values() for c in z) == sorted(c["id"] for c in ALL_CARDS)
        assert sum(len(z) for z in zones.values()) == total
        for s in state.managers():
            for board in state.boards[s].values():
                assert len(board) <= rules.BOARD_SIZE
                assert not board or KIND[board[0]] == "data"
        for seat in [None, *range(players)]:
            seen = strings(json.loads(json.dumps(state.view(seat))))
            hidden = set(zones["deck"]) | set(zones["thief_deck"])
            hidden |= {c for s in range(players) if s != seat for c in state.private_cards(s)}
            assert not seen & hidden
        state.apply(*choose(state, rng))
    result = state.result()
    assert result is not None and result["winners"]


# ------------------------------------------------------------------ bots


def test_bots_play_legal_moves_and_the_heuristic_thief_beats_a_random_one():
    heuristic, random_bot = GAME.bots["heuristic"], GAME.bots["random"]
    wins = {"heuristic": 0, "random": 0}
    for seed in range(60):
        for name, thief in (("heuristic", heuristic()), ("random", random_bot())):
            state = GAME.new_state(3, seed, "standard")
            play(state, [heuristic(), heuristic(), thief], random.Random(seed))
            result = state.result()
            assert result is not None
            wins[name] += 2 in result["winners"]
    assert wins["heuristic"] > wins["random"] + 10, wins


def test_heuristic_managers_beat_random_managers_against_the_heuristic_thief():
    heuristic, random_bot = GAME.bots["heuristic"], GAME.bots["random"]
    thief_wins = {}
    for name, bot in (("heuristic", heuristic), ("random", random_bot)):
        thief_wins[name] = 0
        for seed in range(60):
            state = GAME.new_state(3, seed, "standard")
            play(state, [bot(), bot(), heuristic()], random.Random(seed))
            result = state.result()
            assert result is not None
            thief_wins[name] += 2 in result["winners"]
    assert thief_wins["heuristic"] + 10 < thief_wins["random"], thief_wins


def test_the_steal_timer_takes_the_first_data_listed():
    pick = Picker()
    board = [pick("data", category="standard"), pick("data", category="sensitive")]
    wifi = pick("attack", attack="public_wifi")
    state = thief_turn(pick, hands={1: [wifi]}, boards={0: {"digital": board}})
    state.apply(1, {"type": "attack", "card": wifi, "target": 0, "board": "digital"})
    timer = state.timers()[0]
    assert state.timer_info(timer["id"])["kind"] == "steal"
    events = state.apply(None, timer["action"])
    assert events[0] == {"type": "timeout", "seat": 1, "window": "steal"}
    assert state.loot == [board[0]]
    refused(state, None, timer["action"], "stale_timer")


def test_the_rounds_option_is_checked():
    with pytest.raises(ValueError):
        GAME.new_state(2, 1, "standard", {"rounds": -1})
    with pytest.raises(ValueError):
        GAME.new_state(6, 1, "standard")


def test_the_replay_shows_the_hands_the_proofs_and_each_board_as_a_group():
    pick = Picker()
    data, lock = pick("data"), pick("measure", measure="locked_cabinet")
    state = arrange(boards={0: {"paper": [data, lock]}}, skips=[2, 0])
    d = state.to_json()
    for zone in (*GAME.seat_zones, *GAME.table_zones):
        assert zone.key in d
    assert GAME.card_groups(d, 0) == [
        {"title": "Paper board, opened with %(label)s", "label": data, "cards": [data, lock]}
    ]
    assert GAME.card_groups(d, 1) == []
    notes = GAME.seat_notes(d, 0)
    assert notes[0].message == "data manager" and notes[1].count == 2
    assert GAME.seat_notes(d, 1)[0].message == "the thief"
