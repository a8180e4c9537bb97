"""Unit tests of every Data-Tycoon rule: captures, calls, every special card and counter."""

import random
from collections import Counter

import pytest

from games.data_tycoon import rules
from games.engine import IllegalAction
from tests.games.arrange import GAME, Picker, arrange, types

CALL = {"seconds": 15}


def window(kind, seat, wid="w90", **extra):
    """Return a window dict as the state stores it."""
    return {"id": wid, "kind": kind, "seat": seat, "seconds": 15, **extra}


def play_types(state, seat=0):
    """Return the set of action types open to ``seat``."""
    return {a["type"] for a in state.legal_actions(seat)}


# ------------------------------------------------------------------ the deck


def test_deck_has_the_rule_book_composition():
    cards = GAME.cards("expert")
    assert len(cards) == 120
    kinds = Counter(c["kind"] for c in cards)
    assert kinds == {
        "dataset": 85, "purpose": 9, "sanction": 4, "lawyer": 4, "transparency": 2,
        "cybersecurity": 3, "databreach": 3, "consent": 3, "minimization": 3, "time": 2,
        "complaint": 2,
    }  # fmt: skip
    datasets = [c for c in cards if c["kind"] == "dataset"]
    assert sum(not c["sensitive"] for c in datasets) == 35
    assert Counter(c["sign"] for c in datasets if c["sensitive"]) == {
        "health": 7, "love": 8, "biometric": 8, "genetic": 8, "political": 7,
        "religious": 7, "judicial": 5,
    }  # fmt: skip
    assert Counter(c["colour"] for c in datasets if not c["sensitive"]) == dict.fromkeys(
        ["red", "blue", "yellow", "green", "fuchsia"], 7
    )
    assert set(Counter(c["colour"] for c in datasets if c["sensitive"]).values()) == {10}
    purposes = {c["purpose"] for c in cards if c["kind"] == "purpose"}
    assert len(purposes) == 9 and "ai_training" in purposes
    assert all(c["id"].startswith("dt-") and len(c["id"]) == 6 for c in cards)
    assert all(c["name"][lang] for c in cards for lang in ("en", "es", "fr", "ru"))
    assert all((c["colour"] is None) == (c["kind"] != "dataset") for c in cards)


def test_variants_follow_the_learning_path():
    sizes = {v: len(GAME.cards(v)) for v in GAME.variants}
    assert list(GAME.variants) == ["beginner", "lawyers", "standard", "expert"]
    assert sizes == {"beginner": 94, "lawyers": 102, "standard": 110, "expert": 120}
    assert {c["kind"] for c in GAME.cards("lawyers")} == {
        "dataset",
        "purpose",
        "lawyer",
        "sanction",
    }
    with pytest.raises(ValueError):
        GAME.cards("nope")
    for n in (1, 7):
        with pytest.raises(ValueError):
            GAME.new_state(n, 1, "expert")


def test_setup_deals_three_each_and_special_cards_on_the_table_stay_out_of_play():
    for seed in range(200):
        state = GAME.new_state(3, seed, "expert")
        setup = state.to_json()["last_events"][0]
        if setup["pile"]:
            break
    assert setup["pile"] and len(setup["table"]) + len(setup["pile"]) == 5
    assert all(GAME.cards("expert")[0]["kind"] for _ in setup["pile"])
    view = state.view(None)
    assert view["pile"] == setup["pile"] and view["table"] == setup["table"]
    assert [p["hand_count"] for p in view["players"]] == [3, 3, 3]
    assert view["turn"] == 0 and view["deck_count"] == 120 - 5 - 9


# ----------------------------------------------------------------- captures


def test_a_simple_card_captures_any_card_of_its_colour_and_vice_versa():
    pick = Picker()
    green, green_health = pick(colour="green", sensitive=False), pick(colour="green", sign="health")
    red = pick(colour="red", sensitive=False)
    state = arrange(hands={0: [green], 1: [pick()]}, table=[green_health, red])
    assert state.legal_actions(0) == [{"type": "play", "card": green, "capture": green_health}]
    state.apply(0, {"type": "play", "card": green, "capture": green_health})
    assert state.collections[0] == [green, green_health] and state.table == [red]

    green2 = pick(colour="green", sensitive=False)
    state = arrange(hands={0: [green_health], 1: [pick()]}, table=[green2])
    assert {"type": "play", "card": green_health, "capture": green2} in state.legal_actions(0)


def test_a_sensitive_card_captures_the_same_sign_in_any_colour_but_a_simple_card_does_not():
    pick = Picker()
    red_health, green_health = (
        pick(colour="red", sign="health"),
        pick(colour="green", sign="health"),
    )
    red_simple = pick(colour="red", sensitive=False)
    state = arrange(hands={0: [red_health, red_simple], 1: [pick()]}, table=[green_health])
    acts = state.legal_actions(0)
    assert {"type": "play", "card": red_health, "capture": green_health} in acts
    # the simple card captures nothing, and may not be thrown while a capture is possible
    assert not any(a.get("card") == red_simple for a in acts)


def test_a_card_is_thrown_only_when_nothing_can_capture_or_be_used():
    """The book: a player throws a card "if the player cannot pick up cards from the
    table or use special cards"."""
    pick = Picker()
    red, blue, lawyer, sanction = (
        pick(colour="red", sensitive=False),
        pick(colour="blue", sensitive=False),
        pick("lawyer"),
        pick("sanction"),
    )
    green = pick(colour="green", sensitive=False)
    # a capture is possible: the other card may not be laid
    state = arrange(hands={0: [red, blue], 1: [pick()]}, table=[pick(colour="blue")])
    assert [a["card"] for a in state.legal_actions(0)] == [blue]
    # a special card can be used (set aside): no throwing either
    state = arrange(hands={0: [red, lawyer], 1: [pick()]}, table=[green])
    assert state.legal_actions(0) == [{"type": "set_aside", "card": lawyer}]
    # nothing captures and nothing can be used: any card may be thrown
    state = arrange(hands={0: [red, sanction], 1: [pick()]}, table=[green])
    assert state.legal_actions(0) == [
        {"type": "play", "card": red},
        {"type": "discard", "card": sanction},
    ]


def test_one_card_is_captured_per_play_and_a_match_must_be_captured():
    pick = Picker()
    blue = pick(colour="blue", sensitive=False)
    targets = pick.many(2, colour="blue", sensitive=True)
    state = arrange(hands={0: [blue], 1: [pick()]}, table=targets)
    acts = state.legal_actions(0)
    assert len(acts) == 2 and all("capture" in a for a in acts)
    state.apply(0, acts[1])
    assert state.table == [targets[0]] and len(state.collections[0]) == 2


def test_a_card_that_captures_nothing_is_laid_on_the_table_and_can_be_captured_later():
    pick = Picker()
    red, yellow = pick(colour="red", sensitive=False), pick(colour="yellow", sensitive=False)
    red2 = pick(colour="red", sensitive=True)
    state = arrange(hands={0: [red, pick(colour="fuchsia")], 1: [red2]}, table=[yellow])
    events = state.apply(0, {"type": "play", "card": red})
    assert "lay" in types(events) and state.table == [yellow, red]
    state.apply(1, {"type": "play", "card": red2, "capture": red})
    assert state.collections[1] == [red2, red]


# -------------------------------------------------------------- DATA! calls


def test_data_must_be_called_before_the_purpose_card_is_used():
    pick = Picker()
    purpose, card = pick("purpose"), pick(colour="red")
    state = arrange(
        hands={0: [purpose, card], 1: [pick()]},
        collections={1: [pick()]},
        undeclared={0: [purpose]},
        windows=[window("call_data", 0)],
    )
    acts = state.legal_actions(0)
    assert acts[0] == {"type": "call_data"}
    assert not any(a.get("card") == purpose for a in acts)
    assert state.timers() == [
        {"id": "w90", "seconds": 15, "action": {"type": "expire", "timer": "w90"}}
    ]
    assert state.view(1)["window"] is None  # the others do not learn a purpose was drawn
    assert state.view(0)["window"]["kind"] == "call_data"
    state.apply(0, {"type": "call_data"})
    acts = state.legal_actions(0)
    assert {"type": "keep", "card": purpose} in acts
    assert {"type": "attack", "card": purpose, "target": 1} in acts
    state.apply(0, {"type": "keep", "card": purpose})
    assert state.purposes[0] == [purpose]


@pytest.mark.parametrize("how", ["timeout", "other_move"])
def test_a_purpose_not_called_in_time_goes_to_the_table_unused(how):
    pick = Picker()
    purpose, card = pick("purpose"), pick(colour="red")
    state = arrange(
        hands={0: [purpose, card], 1: [pick()]},
        undeclared={0: [purpose]},
        windows=[window("call_data", 0)],
    )
    if how == "timeout":
        events = state.apply(None, {"type": "expire", "timer": "w90"})
        assert state.to_move() == [0]  # the turn goes on
    else:
        events = state.apply(0, {"type": "play", "card": card})
    assert "data_missed" in types(events)
    assert purpose in state.pile and purpose not in state.hands[0]


def test_a_window_queued_behind_a_forfeited_call_is_answered_before_the_turn_goes_on():
    # a clock Time deadline ran out during seat 0's DATA! call: seat 1's loss waits behind it
    pick = Picker()
    purpose, card = pick("purpose"), pick(colour="red")
    state = arrange(
        hands={0: [purpose, card], 1: [pick()]},
        collections={1: pick.many(6)},
        undeclared={0: [purpose]},
        windows=[window("call_data", 0), window("loss", 1, wid="w91", cause="time")],
    )
    events = state.apply(0, {"type": "play", "card": card})
    assert types(events) == ["data_missed", "lay"]
    assert state.to_move() == [1] and state.stage == "after" and state.turn == 0
    assert state.legal_actions(1) == [{"type": "lose", "what": "datasets"}]


# ------------------------------------------------------ Databreach and Cyber


def breach_position(pick, reserve=(), collection=(), treasures=None):
    """Seat 1 plays its last card; seat 0 then starts a turn holding a Databreach and a Purpose."""
    breach, purpose, card = pick("databreach"), pick("purpose"), pick(colour="red")
    state = arrange(
        turn=1,
        hands={0: [breach, purpose, card], 1: [pick(colour="blue"), pick(colour="blue")]},
        reserves={0: list(reserve)},
        collections={0: list(collection)},
        treasures=treasures or {},
        undeclared={0: [breach, purpose]},
        table=[],
    )
    state.apply(1, state.legal_actions(1)[0])
    return state, breach, purpose, card


def test_databreach_is_called_first_and_costs_the_turn_then_data_is_called_next_turn():
    pick = Picker()
    state, breach, purpose, card = breach_position(pick)
    assert state.legal_actions(0)[0] == {"type": "call_databreach"}
    assert not any(a["type"] == "call_data" for a in state.legal_actions(0))
    events = state.apply(0, {"type": "call_databreach"})
    assert breach in state.pile and "databreach_called" in types(events)
    assert state.legal_actions(0) == [{"type": "accept"}]  # no Cybersecurity card
    events = state.apply(0, {"type": "accept"})
    assert "breach_skip" in types(events) and state.turn == 1
    assert purpose in state.undeclared[0]
    # the lost turn costs its card play: the one playable card goes to the pile
    assert {"type": "play_forfeited", "seat": 0, "card": card} in events
    assert card in state.pile and state.hands[0] == [purpose]
    state.apply(1, state.legal_actions(1)[0])
    assert state.windows[0]["kind"] == "call_data"  # DATA! on the next turn


def test_cybersecurity_neutralises_a_called_databreach():
    pick = Picker()
    cyber = pick("cybersecurity")
    state, _, _, card = breach_position(pick, reserve=[cyber])
    state.apply(0, {"type": "call_databreach"})
    assert {"type": "counter", "kind": "cybersecurity"} in state.legal_actions(0)
    events = state.apply(0, {"type": "counter", "kind": "cybersecurity"})
    assert types(events) == ["countered"] and cyber in state.pile
    assert state.to_move() == [0] and state.turn == 0  # the turn goes on
    assert {"type": "play", "card": card} in state.legal_actions(0)


def test_a_hidden_databreach_comes_out_at_the_end_of_the_turn_and_costs_six_cards():
    pick = Picker()
    loose = pick.many(4, colour="green", sensitive=False) + pick.many(3, sensitive=True)
    state, breach, _, card = breach_position(pick, collection=loose)
    events = state.apply(None, {"type": "expire", "timer": state.windows[0]["id"]})
    # the expired call is said in the log (the ply is not empty for observers)
    assert events == [{"type": "databreach_unreported", "seat": 0, "count": 1}]
    assert breach in state.hands[0] and breach in state.hidden[0]
    assert not any(a.get("card") == breach for a in state.legal_actions(0))
    events = state.apply(0, {"type": "play", "card": card})
    assert "databreach_discovered" in types(events) and breach in state.pile
    assert state.legal_actions(0) == [{"type": "accept"}]  # no Cybersecurity card
    state.apply(0, {"type": "accept"})
    assert state.legal_actions(0) == [{"type": "lose", "what": "datasets"}]
    deck = len(state.deck)
    state.apply(0, {"type": "lose", "what": "datasets"})
    assert len(state.deck) == deck + 6
    assert len(state.collections[0]) == 1 and state.collections[0][0] in loose[4:]  # simple first


def test_a_hidden_databreach_may_cost_a_treasure_instead():
    pick = Picker()
    label, cards = pick("purpose"), pick.many(6, colour="yellow")
    state, _, _, card = breach_position(pick, treasures={0: [(label, cards)]})
    events = state.apply(0, {"type": "play", "card": card})  # no call: the breach stays hidden
    assert "databreach_unreported" in types(events)
    state.apply(0, {"type": "accept"})
    assert state.legal_actions(0) == [{"type": "lose", "what": "treasure", "treasure": label}]
    events = state.apply(0, {"type": "lose", "what": "treasure", "treasure": label})
    assert "treasures_lost" in types(events) and state.treasures[0] == []


def test_a_hidden_databreach_without_six_cards_or_a_treasure_skips_two_turns():
    pick = Picker()
    state, _, _, card = breach_position(pick, collection=[pick()])
    state.apply(0, {"type": "play", "card": card})
    events = state.apply(0, {"type": "accept"})
    assert "skips" in types(events) and state.skips[0] == 2
    assert state.turn == 1


# ------------------------------------------------------------ treasures


def test_a_treasure_is_six_cards_of_one_colour_or_six_sensitive_cards_plus_a_purpose():
    pick = Picker()
    purpose = pick("purpose")
    sensitive = [pick(colour=c, sensitive=True) for c in ("red", "blue", "green")] * 2
    sensitive = list(dict.fromkeys(sensitive)) + pick.many(3, colour="fuchsia", sensitive=True)
    state = arrange(
        hands={0: [pick()], 1: [pick()]}, purposes={0: [purpose]}, collections={0: sensitive}
    )
    builds = [a for a in state.legal_actions(0) if a["type"] == "build"]
    assert builds == [{"type": "build", "purpose": purpose, "basis": "sensitive"}]
    events = state.apply(0, builds[0])
    assert "treasure_built" in types(events) and len(state.treasures[0][0]["cards"]) == 6
    assert state.to_move() == [0]  # building is free: the card play is still to come

    pick = Picker()
    purpose = pick("purpose")
    reds = pick.many(4, colour="red", sensitive=False) + pick.many(3, colour="red", sensitive=True)
    state = arrange(
        hands={0: [pick()], 1: [pick()]}, purposes={0: [purpose]}, collections={0: reds}
    )
    state.apply(0, {"type": "build", "purpose": purpose, "basis": "red"})
    assert state.treasures[0][0]["cards"][:4] == reds[:4]  # simple cards first
    assert state.collections[0] == reds[6:]


def test_no_treasure_without_a_purpose_or_with_frozen_cards():
    pick = Picker()
    reds = pick.many(6, colour="red")
    state = arrange(hands={0: [pick()], 1: [pick()]}, collections={0: reds})
    assert "build" not in play_types(state)
    state = arrange(
        hands={0: [pick()], 1: [pick()]},
        purposes={0: [pick("purpose")]},
        collections={0: reds[:5]},
        frozen={0: reds[5:]},
    )
    assert "build" not in play_types(state)


# ------------------------------------------------------ the Purpose freeze


def test_a_purpose_card_freezes_three_cards_chosen_by_the_victim():
    pick = Picker()
    purpose = pick("purpose")
    loose = pick.many(5, colour="blue")
    state = arrange(hands={0: [purpose, pick()], 1: [pick()]}, collections={1: loose})
    state.apply(0, {"type": "attack", "card": purpose, "target": 1})
    assert purpose in state.pile and state.to_move() == [1]
    assert state.legal_actions(1) == [{"type": "freeze", "card": c} for c in loose]
    for c in (loose[4], loose[0], loose[2]):
        state.apply(1, {"type": "freeze", "card": c})
    assert state.frozen[1] == [loose[4], loose[0], loose[2]] and not state.windows
    assert state.scores()[1]["datasets"] == 5  # frozen cards still count
    assert state.to_move() == [1]  # seat 0's turn ended; seat 1 plays


def test_an_unanswered_freeze_picks_the_least_valuable_cards_and_frozen_cards_never_thaw():
    pick = Picker()
    purpose = pick("purpose")
    loose = [pick(colour="red", sensitive=True), pick(colour="red", sensitive=False)]
    state = arrange(hands={0: [purpose, pick()], 1: [pick()]}, collections={1: loose})
    state.apply(0, {"type": "attack", "card": purpose, "target": 1})
    assert state.windows[0]["left"] == 2
    state.apply(None, {"type": "expire", "timer": state.windows[0]["id"]})
    assert state.frozen[1] == [loose[1], loose[0]] and state.collections[1] == []
    only_frozen = arrange(hands={0: [purpose, pick()], 1: [pick()]}, frozen={1: loose})
    assert {"type": "attack", "card": purpose, "target": 1} not in only_frozen.legal_actions(0)


# -------------------------------------------------------- attacks, counters


def attack_position(kind, pick, victim_reserve=(), victim_hand=None, **zones):
    """Seat 0 holds an attack card of ``kind``; return ``(state, card)``."""
    card = pick(kind)
    hands = {0: [card, pick(colour="red")], 1: victim_hand or [pick(colour="blue")]}
    state = arrange(hands=hands, reserves={1: list(victim_reserve)}, **zones)
    return state, card


def test_a_sanction_needs_a_victim_with_a_treasure_else_it_can_only_be_discarded():
    pick = Picker()
    state, card = attack_position("sanction", pick)
    assert [a for a in state.legal_actions(0) if a.get("card") == card] == [
        {"type": "discard", "card": card}
    ]
    events = state.apply(0, {"type": "discard", "card": card})
    assert "discard" in types(events) and card in state.pile


def test_a_sanction_returns_all_treasures_to_the_deck():
    pick = Picker()
    treasures = {1: [(pick("purpose"), pick.many(6, colour="red"))]}
    state, card = attack_position("sanction", pick, treasures=treasures)
    deck = len(state.deck)
    state.apply(0, {"type": "attack", "card": card, "target": 1})
    assert state.windows[0]["kind"] == "counter" and state.to_move() == [1]
    assert state.legal_actions(1) == [{"type": "accept"}]
    events = state.apply(1, {"type": "accept"})
    assert "treasures_lost" in types(events)
    assert state.treasures[1] == [] and len(state.deck) == deck + 7


@pytest.mark.parametrize(
    ("attack", "counter", "zones"),
    [
        ("sanction", "lawyer", "treasure"),
        ("complaint", "lawyer", "loose"),
        ("complaint", "consent", "loose"),
        ("minimization", "minimization", "loose"),
        ("transparency", "transparency", "loose"),
        ("time", "time", "loose"),
    ],
)
@pytest.mark.parametrize("where", ["reserve", "hand"])
def test_every_counter_neutralises_its_attack(attack, counter, zones, where):
    pick = Picker()
    counter_card = pick(counter)
    extra = (
        {"treasures": {1: [(pick("purpose"), pick.many(6, colour="red"))]}}
        if zones == "treasure"
        else {"collections": {1: pick.many(4, colour="green")}}
    )
    reserve = [counter_card] if where == "reserve" else []
    hand = [counter_card, pick(colour="blue")] if where == "hand" else None
    state, card = attack_position(attack, pick, reserve, hand, **extra)
    before = state.to_json()
    state.apply(0, {"type": "attack", "card": card, "target": 1})
    assert {"type": "counter", "kind": counter} in state.legal_actions(1)
    events = state.apply(1, {"type": "counter", "kind": counter})
    assert events[0] == {
        "type": "countered", "seat": 1, "card": counter_card, "kind": counter, "attack": attack
    }  # fmt: skip
    assert counter_card in state.pile and card in state.pile
    for zone in ("collections", "frozen", "treasures"):
        assert state.to_json()[zone][1] == before[zone][1]
    assert state.transparent[1] == 0 and state.threats == []


def test_a_complaint_returns_three_loose_cards_frozen_ones_first():
    pick = Picker()
    frozen, loose = [pick(colour="red")], [pick(sensitive=True), pick(sensitive=False), pick()]
    state, card = attack_position("complaint", pick, frozen={1: frozen}, collections={1: loose})
    state.apply(0, {"type": "attack", "card": card, "target": 1})
    events = state.apply(1, {"type": "accept"})
    assert events[0]["type"] == "datasets_returned" and events[0]["count"] == 3
    assert state.frozen[1] == [] and state.collections[1] == [loose[0]]


def test_minimization_returns_every_loose_card_but_not_treasures():
    pick = Picker()
    treasure = (pick("purpose"), pick.many(6, colour="red"))
    state, card = attack_position(
        "minimization",
        pick,
        collections={1: pick.many(7, colour="blue")},
        frozen={1: [pick(colour="green")]},
        treasures={1: [treasure]},
    )
    state.apply(0, {"type": "attack", "card": card, "target": 1})
    state.apply(None, {"type": "expire", "timer": state.windows[0]["id"]})  # no answer
    assert state.collections[1] == [] and state.frozen[1] == []
    assert len(state.treasures[1]) == 1


def test_transparency_opens_the_victims_hand_for_three_of_its_turns():
    pick = Picker()
    victim_hand = pick.many(3, colour="yellow")
    state, card = attack_position("transparency", pick, victim_hand=victim_hand)
    state.hands[0].append(pick(colour="fuchsia"))
    state.apply(0, {"type": "attack", "card": card, "target": 1})
    state.apply(1, {"type": "accept"})
    assert state.transparent[1] == 3
    assert state.view(0)["players"][1]["hand"] == victim_hand
    assert state.private_cards(1) == []
    for _ in range(3):
        assert "hand" in state.view(None)["players"][1]
        state.apply(state.turn, state.legal_actions(state.turn)[0])
        if state.turn == 0:
            state.apply(0, state.legal_actions(0)[0])
    assert state.transparent[1] == 0 and "hand" not in state.view(0)["players"][1]


def test_time_card_on_the_clock_asks_for_six_cards_or_a_treasure_when_it_expires():
    pick = Picker()
    label = pick("purpose")
    state, card = attack_position(
        "time", pick, treasures={1: [(label, pick.many(6, colour="red"))]}
    )
    state.apply(0, {"type": "attack", "card": card, "target": 1})
    state.apply(1, {"type": "accept"})
    timer = next(t for t in state.timers() if t["id"].startswith("t"))
    assert timer["seconds"] == rules.TIME_CARD_SECONDS == 600
    assert state.view(None)["threats"][0]["seat"] == 1
    events = state.apply(None, timer["action"])
    assert "time_up" in types(events)
    assert state.legal_actions(1) == [{"type": "lose", "what": "treasure", "treasure": label}]
    state.apply(1, state.legal_actions(1)[0])
    assert state.treasures[1] == []
    with pytest.raises(IllegalAction) as info:
        state.apply(None, timer["action"])
    assert info.value.code == "stale_timer"


def test_time_card_on_a_clock_free_table_counts_the_victims_turns():
    pick = Picker()
    loose = pick.many(8, colour="green")
    state, card = attack_position(
        "time",
        pick,
        options={"time_mode": "turns", "time_card_turns": 2},
        victim_hand=pick.many(3, colour="blue"),
        collections={1: loose},
        deck=pick.many(12),
    )
    state.hands[0].append(pick(colour="fuchsia"))
    state.apply(0, {"type": "attack", "card": card, "target": 1})
    state.apply(1, {"type": "accept"})
    assert state.threats[0]["turns"] == 2 and all(t["id"].startswith("w") for t in state.timers())
    state.apply(1, state.legal_actions(1)[0])
    state.apply(0, state.legal_actions(0)[0])
    events = state.apply(1, state.legal_actions(1)[0])
    assert "time_up" in types(events)
    state.apply(1, {"type": "lose", "what": "datasets"})
    assert len(state.collections[1]) <= 4


def test_drawing_a_purpose_or_consent_lifts_the_time_card():
    pick = Picker()
    consent = pick("consent")
    state, card = attack_position(
        "time",
        pick,
        options={"time_mode": "turns"},
        collections={1: pick.many(2, colour="red")},
        deck=[*pick.many(5, colour="blue"), consent],
    )
    state.hands[0] = [card]
    state.hands[1] = []
    state.apply(0, {"type": "attack", "card": card, "target": 1})
    events = state.apply(1, {"type": "accept"})
    assert "time_lifted" in types(events) and state.threats == []
    assert consent in state.hands[1]


def test_consent_splits_a_treasure_into_two_of_three():
    pick = Picker()
    label, consent = pick("purpose"), pick("consent")
    state = arrange(
        hands={0: [consent, pick()], 1: [pick()]},
        treasures={0: [(label, pick.many(6, colour="red"))]},
    )
    acts = state.legal_actions(0)
    assert {"type": "split", "card": consent, "treasure": label} in acts
    assert {"type": "keep", "card": consent} in acts and {
        "type": "set_aside",
        "card": consent,
    } in acts
    state.apply(0, {"type": "split", "card": consent, "treasure": label})
    assert [len(t["cards"]) for t in state.treasures[0]] == [3, 3]
    assert state.treasures[0][1]["label"] == consent


def test_a_kept_consent_splits_a_treasure_later_as_a_free_action():
    pick = Picker()
    label, consent = pick("purpose"), pick("consent")
    state = arrange(
        hands={0: [pick(), pick()], 1: [pick()]},
        consents={0: [consent]},
        treasures={0: [(label, pick.many(6, colour="red"))]},
    )
    state.apply(0, {"type": "split", "treasure": label})
    assert len(state.treasures[0]) == 2 and state.consents[0] == [] and state.to_move() == [0]
    assert "split" not in play_types(state)  # halves of 3 cannot be split again


# ---------------------------------------------------------- deals and turns


def test_hands_are_refilled_in_rounds_of_three_when_every_hand_is_empty():
    pick = Picker()
    state = arrange(hands={0: [pick()]}, deck=pick.many(10, colour="blue"))
    events = state.apply(0, state.legal_actions(0)[0])
    assert "deal" in types(events)
    assert [len(h) for h in state.hands] == [3, 3] and state.turn == 1


def test_the_last_cards_are_dealt_to_the_player_whose_turn_it_is():
    pick = Picker()
    state = arrange(hands={0: [pick()]}, deck=pick.many(4, colour="blue"))
    state.apply(0, state.legal_actions(0)[0])
    assert [len(h) for h in state.hands] == [0, 3] and state.turn == 1
    for _ in range(3):
        assert state.turn == 1  # seat 0 has no cards and is passed over
        state.apply(1, state.legal_actions(1)[0])
    assert [len(h) for h in state.hands] == [1, 0] and state.turn == 0
    state.apply(0, state.legal_actions(0)[0])
    assert state.is_over()


# --------------------------------------------------------------- tie-break


@pytest.mark.parametrize("level", ["treasures", "sensitive", "datasets", "shared"])
def test_each_tie_break_level_decides(level):
    pick = Picker()
    same = {0: pick.many(2, sensitive=False), 1: pick.many(2, sensitive=False)}
    zones = {"collections": same}
    winner = [0]
    if level == "treasures":
        zones["treasures"] = {0: [(pick("purpose"), pick.many(6, sensitive=False))]}
        zones["collections"] = {0: [], 1: pick.many(8, sensitive=True)}
    elif level == "sensitive":
        zones["collections"] = {0: pick.many(2, sensitive=True), 1: pick.many(3, sensitive=False)}
    elif level == "datasets":
        zones["collections"] = {0: [*same[0], pick(sensitive=False)], 1: same[1]}
    else:
        winner = [0, 1]
    state = arrange(hands={0: [pick("lawyer")]}, deck=[], **zones)
    events = state.apply(0, state.legal_actions(0)[0])
    assert state.is_over() and events[-1]["type"] == "game_over"
    result = state.result()
    assert result["decided_by"] == level and result["winners"] == winner
    assert result["tie_break"] == ["treasures", "sensitive", "datasets", "shared"]
    assert state.view(None)["result"] == result


# ---------------------------------------------------------- refusals, i18n


def test_refusals_carry_a_code_a_translatable_message_and_change_nothing():
    pick = Picker()
    state = arrange(hands={0: [pick()], 1: [pick()]})
    text = state.dumps()
    cases = [
        (1, state.legal_actions(0)[0], "not_your_turn"),
        (0, {"type": "play", "card": "dt-999"}, "card_not_held"),
        (0, {"type": "accept"}, "illegal_action"),
        (None, {"type": "expire", "timer": "w1"}, "stale_timer"),
        (9, {"type": "accept"}, "bad_seat"),
    ]
    for seat, action, code in cases:
        with pytest.raises(IllegalAction) as info:
            state.apply(seat, action)
        assert info.value.code == code
        assert info.value.message % info.value.params
        assert state.dumps() == text


def test_options_are_validated_and_documented_as_constants():
    assert rules.DEFAULT_OPTIONS["call_seconds"] == rules.CALL_SECONDS
    with pytest.raises(ValueError):
        GAME.new_state(2, 1, "expert", {"bogus": 1})
    with pytest.raises(ValueError):
        GAME.new_state(2, 1, "expert", {"time_mode": "sundial"})


def first_call_window(variant: str, options: dict | None = None) -> dict:
    """Play random moves until a DATA! call window opens; return that window."""
    for seed in range(50):
        state = GAME.new_state(2, seed, variant, options)
        rng = random.Random(seed)
        for _ in range(200):
            if state.is_over():
                break
            if state.windows and state.windows[0]["kind"] == "call_data":
                return state.windows[0]
            seat = (state.to_move() or [None])[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError("no DATA! window in 50 games")


def test_beginners_get_twice_the_time_to_call_data_unless_the_session_says_otherwise():
    assert first_call_window("standard")["seconds"] == rules.CALL_SECONDS == 15
    assert first_call_window("beginner")["seconds"] == 2 * rules.CALL_SECONDS
    assert first_call_window("beginner", {"call_seconds": 12})["seconds"] == 12


# ------------------------------------------------------- smaller decisions


def test_treasures_are_built_only_on_ones_own_turn():
    pick = Picker()
    state = arrange(
        hands={0: [pick()], 1: [pick()]},
        purposes={1: [pick("purpose")]},
        collections={1: pick.many(6, colour="green")},
    )
    assert state.legal_actions(1) == []
    state.apply(0, state.legal_actions(0)[0])
    assert "build" in play_types(state, 1)


def test_the_reserve_is_face_down():
    pick = Picker()
    lawyer = pick("lawyer")
    state = arrange(hands={0: [lawyer, pick()], 1: [pick()]})
    events = state.apply(0, {"type": "set_aside", "card": lawyer})
    assert events[0] == {"type": "set_aside", "seat": 0}
    assert state.view(1)["players"][0]["reserve_count"] == 1
    assert lawyer not in str(state.view(1)) and state.view(0)["reserve"] == [lawyer]


def test_cybersecurity_contains_a_hidden_breach_for_a_skipped_turn_instead_of_six_cards():
    pick = Picker()
    cyber, loose = pick("cybersecurity"), pick.many(6, colour="red")
    state, _, _, card = breach_position(pick, reserve=[cyber], collection=loose)
    state.apply(0, {"type": "play", "card": card})
    counter = {"type": "counter", "kind": "cybersecurity"}
    assert state.legal_actions(0) == [counter, {"type": "accept"}]
    events = state.apply(0, counter)
    assert types(events)[0] == "countered" and events[0]["attack"] == "hidden_breach"
    assert cyber in state.pile and state.collections[0] == loose  # nothing lost
    assert state.skips[0] == 1  # but reported too late: a turn
    assert state.turn == 1


def test_each_hidden_breach_is_its_own_penalty():
    pick = Picker()
    breaches, card = pick.many(2, "databreach"), pick(colour="red")
    loose = pick.many(12, colour="green")
    state = arrange(
        turn=1,
        hands={0: [*breaches, card], 1: [pick(colour="blue"), pick(colour="blue")]},
        collections={0: list(loose)},
        undeclared={0: list(breaches)},
        table=[],
    )
    state.apply(1, state.legal_actions(1)[0])
    state.apply(0, {"type": "play", "card": card})  # both breaches stay hidden
    for _ in breaches:  # each breach's Cybersecurity window, then each one's loss
        state.apply(0, {"type": "accept"})
    for _ in breaches:
        state.apply(0, {"type": "lose", "what": "datasets"})
    assert state.collections[0] == [] and not state.windows  # 2 x 6 cards


def test_each_called_breach_needs_its_own_cybersecurity():
    pick = Picker()
    breaches, cyber, card = pick.many(2, "databreach"), pick("cybersecurity"), pick()
    state = arrange(
        turn=1,
        hands={0: [*breaches, card, pick()], 1: [pick(colour="blue"), pick(colour="blue")]},
        reserves={0: [cyber]},
        undeclared={0: list(breaches)},
        table=[],
    )
    state.apply(1, state.legal_actions(1)[0])
    state.apply(0, {"type": "call_databreach"})
    state.apply(0, {"type": "counter", "kind": "cybersecurity"})  # the first is contained
    assert state.legal_actions(0) == [{"type": "accept"}]  # the second is not
    events = state.apply(0, {"type": "accept"})
    assert "breach_skip" in types(events) and state.turn == 1


def test_two_called_breaches_without_cybersecurity_cost_this_turn_and_the_next():
    pick = Picker()
    breaches, card = pick.many(2, "databreach"), pick()
    state = arrange(
        turn=1,
        hands={0: [*breaches, card, pick()], 1: [pick(colour="blue"), pick(colour="blue")]},
        undeclared={0: list(breaches)},
        table=[],
    )
    state.apply(1, state.legal_actions(1)[0])
    state.apply(0, {"type": "call_databreach"})
    state.apply(0, {"type": "accept"})
    events = state.apply(0, {"type": "accept"})
    assert "breach_skip_next" in types(events) and state.skips[0] == 1


def test_a_skipped_turn_costs_the_card_play_of_that_turn():
    """Hands refill only when every hand is empty: a skip that kept its card would be free."""
    pick = Picker()
    mine = [pick(colour="red"), pick(colour="red")]
    state = arrange(
        hands={0: [pick(colour="blue")], 1: list(mine)}, skips=[0, 1], table=[], deck=pick.many(6)
    )
    events = state.apply(0, state.legal_actions(0)[0])
    assert {"type": "turn_skipped", "seat": 1, "left": 0} in events
    lost = next(e["card"] for e in events if e["type"] == "play_forfeited")
    assert lost in mine and lost in state.pile
    assert state.hands[1] == [c for c in mine if c != lost]
    assert state.turn == 1 and state.to_move() == [1]  # seat 0 has no card: seat 1 again


def test_a_skipped_turn_counts_for_an_open_hand_and_a_time_deadline_in_turns():
    """A skipped turn is a turn: Transparency and a Time deadline in turns run down."""
    pick = Picker()
    threat = {"id": "t9", "seat": 1, "attacker": 0, "turns": 2}
    state = arrange(
        options={"time_mode": "turns"},
        hands={0: pick.many(2, colour="blue"), 1: pick.many(2, colour="red")},
        collections={1: pick.many(7, colour="green")},
        skips=[0, 1],
        transparent=[0, 3],
        threats=[threat],
        table=[],
        deck=pick.many(6),
    )
    events = state.apply(0, state.legal_actions(0)[0])
    assert {"type": "turn_skipped", "seat": 1, "left": 0} in events
    assert state.transparent[1] == 2 and state.threats[0]["turns"] == 1
    state.apply(0, state.legal_actions(0)[0])  # seat 0's next turn, then seat 1 plays
    events = state.apply(1, state.legal_actions(1)[0])
    assert state.transparent[1] == 1
    assert "time_up" in types(events) and state.to_move() == [1]  # 6 loose cards to lose


def test_a_consent_kept_face_up_does_not_counter_a_complaint():
    pick = Picker()
    state, card = attack_position(
        "complaint", pick, consents={1: [pick("consent")]}, collections={1: pick.many(3)}
    )
    state.apply(0, {"type": "attack", "card": card, "target": 1})
    assert state.legal_actions(1) == [{"type": "accept"}]


def test_an_expired_time_card_without_six_cards_or_a_treasure_takes_every_loose_card():
    pick = Picker()
    state, card = attack_position("time", pick, collections={1: pick.many(4)})
    state.apply(0, {"type": "attack", "card": card, "target": 1})
    state.apply(1, {"type": "accept"})
    events = state.apply(None, {"type": "expire", "timer": state.threats[0]["id"]})
    assert {"type": "datasets_returned", "seat": 1, "count": 4, "cause": "time"} in events
    assert state.collections[1] == [] and not state.windows


def test_a_second_transparency_resets_the_count():
    pick = Picker()
    state, card = attack_position("transparency", pick, transparent=[0, 1])
    state.apply(0, {"type": "attack", "card": card, "target": 1})
    state.apply(1, {"type": "accept"})
    assert state.transparent[1] == 3


# ------------------------------------------------------------ fewer specials


def test_a_class_may_leave_special_cards_out_of_the_deck():
    full = GAME.new_state(4, 7, "expert")
    fewer = GAME.new_state(4, 7, "expert", {"left_out": ["sanction", "lawyer"]})
    kinds = {card["id"]: card["kind"] for card in GAME.cards("expert")}

    def dealt(state):
        return [kinds[c] for zone in state.zones().values() for c in zone]

    assert {"sanction", "lawyer"} <= set(dealt(full))
    assert not {"sanction", "lawyer"} & set(dealt(fewer))
    removed = sum(kind in ("sanction", "lawyer") for kind in dealt(full))
    assert len(dealt(fewer)) == len(dealt(full)) - removed
    # the effect in play: nobody can ever sanction (played out with random choices)
    state = fewer
    while not state.is_over():
        seat = (state.to_move() or [None])[0]
        actions = state.legal_actions(seat)
        assert not any(a.get("card") and kinds[a["card"]] == "sanction" for a in actions)
        state.apply(seat, actions[state.ply % len(actions)])


@pytest.mark.parametrize("bad", [["dataset"], ["purpose"], ["wizard"]])
def test_only_special_cards_can_be_left_out(bad):
    with pytest.raises(ValueError):
        GAME.new_state(2, 1, "expert", {"left_out": bad})
    with pytest.raises(ValueError):
        GAME.clean_options({"left_out": bad})


# ------------------------------------------------------- building at once


def test_a_purpose_kept_this_turn_becomes_a_treasure_at_once():
    """The book: a Purpose is kept "to constitute a treasure immediately"."""
    pick = Picker()
    purpose, reds = pick("purpose"), pick.many(6, colour="red")
    state = arrange(hands={0: [purpose, pick()], 1: [pick()]}, collections={0: reds})
    state.apply(0, {"type": "keep", "card": purpose})
    build = {"type": "build", "purpose": purpose, "basis": "red"}
    assert state.legal_actions(0) == [build, {"type": "end_turn"}]
    assert state.to_move() == [0] and state.legal_actions(1) == []
    events = state.apply(0, build)
    assert types(events)[0] == "treasure_built" and state.treasures[0][0]["label"] == purpose
    assert state.turn == 1  # nothing left to do: the turn passes


def test_a_capture_on_the_last_play_of_the_game_can_still_make_a_treasure():
    pick = Picker()
    purpose, reds = pick("purpose"), pick.many(5, colour="red")
    card, target = pick(colour="red"), pick(colour="red")
    state = arrange(
        hands={0: [card]}, purposes={0: [purpose]}, collections={0: reds}, table=[target], deck=[]
    )
    state.apply(0, {"type": "play", "card": card, "capture": target})
    assert not state.is_over()  # before, the game ended here with no treasure
    state.apply(0, {"type": "build", "purpose": purpose, "basis": "red"})
    assert state.is_over() and state.result()["scores"][0]["treasures"] == 1


def test_a_player_may_end_the_turn_without_building():
    pick = Picker()
    purpose, reds = pick("purpose"), pick.many(6, colour="red")
    state = arrange(hands={0: [purpose, pick()], 1: [pick()]}, collections={0: reds})
    state.apply(0, {"type": "keep", "card": purpose})
    events = state.apply(0, {"type": "end_turn"})
    assert {"type": "turn_ended", "seat": 0} in events
    assert state.turn == 1 and state.treasures[0] == [] and state.purposes[0] == [purpose]


def test_a_contained_breach_with_no_card_left_still_offers_the_build():
    pick = Picker()
    breach, cyber, purpose = pick("databreach"), pick("cybersecurity"), pick("purpose")
    reds = pick.many(6, colour="red")
    state = arrange(
        turn=1,
        hands={0: [breach], 1: [pick(colour="blue"), pick(colour="blue")]},
        reserves={0: [cyber]},
        purposes={0: [purpose]},
        collections={0: reds},
        undeclared={0: [breach]},
        table=[],
    )
    state.apply(1, state.legal_actions(1)[0])
    state.apply(0, {"type": "call_databreach"})
    state.apply(0, {"type": "counter", "kind": "cybersecurity"})
    build = {"type": "build", "purpose": purpose, "basis": "red"}
    assert state.legal_actions(0) == [build, {"type": "end_turn"}]
