"""Unit tests of the Data Monsters rules and decisions of docs/rules/data_monsters.md: each
checks the effect on the state (pool, lab, market, points), and each refusal its code."""

import json
import random
from collections import Counter, defaultdict

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.data_monsters import cards, rules
from games.data_monsters.cards import BY_ID, ENTRIES, check_deck
from games.data_monsters.rules import DataMonsters
from games.data_monsters.text import describe_event
from games.engine import IllegalAction
from tests.games.playout import choose

GAME = DataMonsters()  # the registered game object behaves the same; this keeps the test pure
ZONES = ("hands", "labs", "completed", "unsafe")


def cid(key, slot=1, number=1):
    """Return the id of a laboratory card (slot 1: seat 0's set) or a challenge."""
    if key in ENTRIES:
        return f"{slot}{ENTRIES[key]['set'][0]}-{key}-{number}"
    return f"ch-{key}"


def arrange(players=2, variant="standard", options=None, **fields):
    """Return a state through the public JSON format, seat 0 to play its main phase.

    ``hands``, ``labs``, ``completed`` as ``{seat: [ids]}``; ``market`` a list; any other
    JSON field as is. The cards placed leave the zone they were dealt to, so every card
    stays in exactly one zone."""
    d = GAME.new_state(players, 1, variant, options).to_json()
    placed = {card for name in ZONES for ids in fields.get(name, {}).values() for card in ids}
    placed |= set(fields.get("market", [])) | set(fields.get("build", []))
    for name in ("decks", "recycle", "hands", "labs", "completed"):
        d[name] = [[c for c in zone if c not in placed] for zone in d[name]]
    for name in ("box", "challenge_deck", "market", "build"):
        d[name] = [c for c in d[name] if c not in placed]
    d["box"] += [c for c in d["market"] if c not in placed]
    d["market"] = []
    for name in ZONES:
        given = fields.pop(name, {})
        for seat, ids in given.items():
            d[name][seat] = list(ids)
    d.update(turn=0, first=0, phase="main", window=None, last_events=[], blocked=[])
    d.update(pool={"tech": 0, "sci": 0}, limit_used=False, safe_turn=False, globals=[])
    d.update(fields)
    return GAME.from_json(d)


def act(state, seat, **action):
    """Apply an action and return its events."""
    return state.apply(seat, action)


def types(events):
    return [e["type"] for e in events]


def refused(state, seat, code, **action):
    """Assert the action is refused with ``code`` and changes nothing."""
    before = state.dumps()
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    assert info.value.code == code
    assert state.dumps() == before


# ----------------------------------------------------------------- set-up


@pytest.mark.parametrize(("players", "market", "deck"), [(2, 3, 10), (3, 4, 13), (4, 5, 15)])
def test_market_and_challenge_deck_by_player_count(players, market, deck):
    state = GAME.new_state(players, 5, "standard")
    assert len(state.market) == market
    assert len(state.market) + len(state.challenge_deck) == deck
    hard = [c for c in state.market + state.challenge_deck if BY_ID[c]["hard"]]
    assert len(hard) == rules.CHALLENGE_DECK[players][1]


def test_the_quick_game_deals_only_the_8_basic_challenges():
    state = GAME.new_state(3, 5, "quick")
    dealt = state.market + state.challenge_deck
    assert len(dealt) == 8 and not any(BY_ID[c]["hard"] for c in dealt)


@pytest.mark.parametrize("seed", range(6))
def test_opening_hands_3_for_the_first_player_4_for_the_others(seed):
    state = GAME.new_state(3, seed, "standard")
    first = state.first
    assert state.turn == first
    for s in range(3):
        # the first player has drawn for the first turn already (3 cards with 3 players)
        assert len(state.hands[s]) == (3 + 3 if s == first else 4)


def test_each_seat_plays_its_starter_set_and_the_rest_stays_in_the_box():
    state = GAME.new_state(2, 3, "standard", {"decks": "alternate_enterprise"})
    assert state.sets == ["enterprise", "startup"]
    own0 = state.decks[0] + state.hands[0]
    assert {BY_ID[c]["set"] for c in own0} == {"enterprise"}
    assert Counter(BY_ID[c]["key"] for c in own0) == Counter(
        BY_ID[c]["key"] for c in cards.starter("enterprise", 1)
    )
    assert not set(state.box) & set(own0)


def test_the_office_game_shares_one_big_deck_and_one_recycle_bin():
    state = GAME.new_state(3, 3, "office")
    assert len(state.decks) == 1 and state.pile == [0, 0, 0]
    in_play = state.decks[0] + [c for hand in state.hands for c in hand]
    assert len(in_play) == 2 * (26 + 28)
    keys = [BY_ID[c]["key"] for c in in_play]
    assert check_deck(keys, office_players=3) == []


# --------------------------------------------------------- deck building


@pytest.mark.parametrize("set_key", cards.SETS)
def test_both_starter_sets_keep_the_deck_building_rules(set_key):
    keys = [BY_ID[c]["key"] for c in cards.starter(set_key, 1)]
    assert 20 <= len(keys) <= 30
    assert check_deck(keys) == []


def test_every_broken_deck_building_rule_has_its_own_message():
    startup = [BY_ID[c]["key"] for c in cards.starter("startup", 1)]
    messages = {
        "few": check_deck(startup[:19]),
        "many": check_deck(startup + startup[:5]),
        "copies": check_deck([*startup, "ab_test"]),
        "one": check_deck([*startup, "chief_krol"]),
        "many_mark": check_deck([*startup, "python_script"]),
        "unknown": check_deck([*startup, "no_such_card"]),
    }
    assert [t.message for t in messages["few"]] == ["A deck needs at least %(low)s cards."]
    assert "A deck holds at most %(high)s cards." in [t.message for t in messages["many"]]
    assert [t.params["card"]["en"] for t in messages["copies"]] == ["A/B Test"]
    assert '"one" card' in messages["one"][0].message
    assert "says how many" in messages["many_mark"][0].message
    assert messages["unknown"][0].params == {"card": "no_such_card"}


# ------------------------------------------------------- phases of a turn


def test_start_of_turn_effects_and_the_draw():
    state = arrange(labs={1: [cid("junior_krol", 2, 1)]}, hands={0: [], 1: []})
    events = act(state, 0, type="end_turn")
    assert state.turn == 1
    assert state.pool == {"tech": 1, "sci": 0}  # Junior Krol, at the start of the turn
    assert len(state.hands[1]) == 2  # 2 cards with 2 players
    assert "draw" in types(events)


def test_end_of_turn_effects_draw():
    dora = cid("junior_dora")
    state = arrange(labs={0: [dora]}, hands={0: []})
    act(state, 0, type="end_turn")
    assert len(state.hands[0]) == 1


def test_more_than_6_cards_after_the_draw_must_be_discarded_first():
    hand = [cid("python_script", 2, n) for n in (1, 2, 3)] + [cid("pivot", 2), cid("ab_test", 2)]
    state = arrange(hands={0: [], 1: hand})
    act(state, 0, type="end_turn")
    assert len(state.hands[1]) == 7 and state.phase == "discard"
    assert {a["type"] for a in state.legal_actions(1)} == {"discard"}
    refused(state, 1, "discard_first", type="end_turn")
    act(state, 1, type="discard", card=hand[0])
    assert state.phase == "main" and hand[0] in state.recycle[1]


def test_the_build_goes_to_the_recycle_bin_and_unused_points_are_lost():
    script = cid("python_script")
    state = arrange(hands={0: [script]})
    act(state, 0, type="play", card=script)
    assert state.pool["tech"] == 2 and state.build == [script]
    act(state, 0, type="end_turn")
    assert script in state.recycle[0] and not state.build
    assert state.turn == 1 and state.pool == {"tech": 0, "sci": 0}  # seat 1 starts afresh


def test_an_empty_lab_deck_is_refilled_from_the_recycle_bin():
    state = arrange(hands={0: [], 1: []})
    d = state.to_json()
    d["recycle"][1], d["decks"][1] = d["decks"][1], []
    state = GAME.from_json(d)
    events = act(state, 0, type="end_turn")
    assert "reshuffle" in types(events) and len(state.hands[1]) == 2


# ------------------------------------------------------ completing challenges


def test_one_build_completes_several_challenges():
    scripts = [cid("python_script", 1, n) for n in (1, 2, 3)]
    a, b = cid("clean_spreadsheet"), cid("library_catalogue")  # 2/1 and 3/1
    state = arrange(hands={0: scripts}, market=[a, b], pool={"tech": 0, "sci": 2})
    for card in scripts:
        act(state, 0, type="play", card=card)
    refused(state, 0, "illegal_action", type="complete", challenge=cid("climate_model"))
    act(state, 0, type="complete", challenge=a)
    act(state, 0, type="complete", challenge=b)
    assert state.completed[0] == [a, b] and state.pool == {"tech": 1, "sci": 0}


def test_not_enough_tech_and_sci_is_refused():
    state = arrange(market=[cid("climate_model"), cid("clean_spreadsheet")])
    refused(state, 0, "not_enough", type="complete", challenge=cid("climate_model"))


def test_personal_data_without_a_safeguard_scores_3_points_less():
    survey = cid("canteen_survey")  # 2 TECH, 3 SCI, 7 points, personal data
    state = arrange(market=[survey, cid("clean_spreadsheet")], pool={"tech": 2, "sci": 3})
    # the Enterprise seat may hold a Complaint: it lets the completion go
    assert types(act(state, 0, type="complete", challenge=survey)) == ["window"]
    events = act(state, 1, type="pass")
    done = next(e for e in events if e["type"] == "completed")
    assert done["points"] == 4 and not done["safe"]
    assert state.unsafe[0] == [survey] and state.scores()[0]["points"] == 4


@pytest.mark.parametrize("safeguard", ["pseudonymisation", "dpia", "senior_dora"])
def test_a_safeguard_keeps_every_point(safeguard):
    survey = cid("canteen_survey")
    card = cid(safeguard, 2) if ENTRIES[safeguard]["set"] == "enterprise" else cid(safeguard)
    fields = {"market": [survey, cid("clean_spreadsheet")], "pool": {"tech": 2, "sci": 3}}
    if safeguard == "senior_dora":
        state = arrange(labs={0: [card]}, **fields)
    else:
        state = arrange(hands={0: [card]}, **fields)
        act(state, 0, type="play", card=card)
    state.pool = {"tech": 9, "sci": 9}
    act(state, 0, type="complete", challenge=survey)
    assert state.scores()[0]["points"] == 7 and not state.unsafe[0]


def test_the_last_challenge_ends_the_game():
    last = cid("clean_spreadsheet")  # 5 points
    state = arrange(
        market=[last],
        challenge_deck=[],
        completed={0: [cid("library_catalogue")], 1: [cid("faq_chatbot")]},  # 5 and 6
        pool={"tech": 2, "sci": 1},
    )
    events = act(state, 0, type="complete", challenge=last)
    assert state.is_over() and types(events)[-1] == "game_over"
    result = state.result()
    assert [s["points"] for s in result["scores"]] == [10, 6]
    assert result["winners"] == [0] and result["decided_by"] == "points"


def finished(completed, unsafe=((), ())):
    """Return an ended two-player state with these completed challenges."""
    d = arrange().to_json()
    d.update(over=True, completed=[list(c) for c in completed], unsafe=[list(u) for u in unsafe])
    return GAME.from_json(d)


def test_equal_points_go_to_the_hardest_challenge_then_are_shared():
    climate, survey, sheet = cid("climate_model"), cid("canteen_survey"), cid("clean_spreadsheet")
    # 9 (4 circles) against 7 - 3 + 5 = 9 (2 circles at most)
    state = finished([[climate], [survey, sheet]], [[], [survey]])
    assert [s["points"] for s in state.scores()] == [9, 9]
    # the hardest challenge's points as its card prints them, not its points less a penalty
    assert [s["hardest"] for s in state.scores()] == [9, 7]
    assert [s["hardest"] for s in finished([[], [sheet]]).scores()] == [0, 5]
    assert state.result()["winners"] == [0] and state.result()["decided_by"] == "hardest"
    shared = finished([[sheet], [cid("library_catalogue")]])
    assert shared.result()["winners"] == [0, 1] and shared.result()["decided_by"] == "shared"


def test_the_game_ends_after_the_round_limit():
    state = arrange(round=rules.ROUND_LIMIT, hands={0: [], 1: []})
    act(state, 0, type="end_turn")
    assert not state.is_over()
    events = act(state, 1, type="end_turn")
    assert state.is_over() and types(events)[-1] == "game_over"


# --------------------------------------------------------------- keywords


def test_limit_one_limit_card_per_turn():
    night, stack = cid("all_nighter"), cid("ml_stack")
    parts = [cid("open_dataset"), cid("notebook")]
    state = arrange(hands={0: [night, stack, *parts]})
    act(state, 0, type="play", card=night)
    assert state.pool["tech"] == 2 and state.limit_used
    for card in parts:
        act(state, 0, type="play", card=card)
    assert {"type": "play", "card": stack} not in state.legal_actions(0)
    refused(state, 0, "limit_used", type="play", card=stack)


def test_global_changes_costs_for_everyone_until_its_owners_next_turn():
    hackathon, chatbot = cid("hackathon"), cid("faq_chatbot")  # 4 TECH, 1 SCI
    state = arrange(hands={0: [hackathon], 1: []}, market=[chatbot, cid("clean_spreadsheet")])
    act(state, 0, type="play", card=hackathon)
    assert state.globals == [{"card": hackathon, "owner": 0}] and not state.build
    assert state.cost(chatbot) == {"tech": 3, "sci": 1}
    act(state, 0, type="end_turn")
    assert state.cost(chatbot) == {"tech": 3, "sci": 1}  # the other player's turn too
    events = act(state, 1, type="end_turn")
    assert "global_off" in types(events) and not state.globals
    assert hackathon in state.recycle[0] and state.cost(chatbot) == {"tech": 4, "sci": 1}


def test_a_global_that_hardens_only_personal_data_challenges():
    audit = cid("compliance_audit", 1)
    survey, weather = cid("canteen_survey"), cid("weather_forecast")
    state = arrange(hands={0: [audit]}, market=[survey, weather])
    act(state, 0, type="play", card=audit)
    assert state.cost(survey) == {"tech": 2, "sci": 4}
    assert state.cost(weather) == {"tech": 1, "sci": 3}


def test_component_counts_only_with_another_component():
    dataset, notebook = cid("open_dataset"), cid("notebook")
    state = arrange(hands={0: [dataset, notebook]})
    act(state, 0, type="play", card=dataset)
    assert state.pool == {"tech": 0, "sci": 0}
    act(state, 0, type="play", card=notebook)
    assert state.pool == {"tech": 2, "sci": 2}  # both count once the pair is made


def test_stack_needs_its_recipe_in_the_build():
    stack, dataset, notebook = cid("ml_stack"), cid("open_dataset"), cid("notebook")
    state = arrange(hands={0: [stack, dataset, notebook]})
    refused(state, 0, "recipe", type="play", card=stack)
    act(state, 0, type="play", card=dataset)
    refused(state, 0, "recipe", type="play", card=stack)
    act(state, 0, type="play", card=notebook)
    act(state, 0, type="play", card=stack)
    assert state.pool == {"tech": 4, "sci": 4} and state.limit_used


def test_requirements_need_a_monster_of_the_class():
    contract, dora = cid("processor_contract"), cid("junior_dora")
    state = arrange(hands={0: [contract, dora]})
    refused(state, 0, "requirement", type="play", card=contract)
    act(state, 0, type="play", card=dora)
    act(state, 0, type="play", card=contract)
    assert state.pool["tech"] == 3 and contract in state.recycle[0]


def test_a_tool_bonus_with_a_class_in_the_lab():
    test, pixel = cid("ab_test"), cid("junior_pixel")
    plain = arrange(hands={0: [test]})
    act(plain, 0, type="play", card=test)
    helped = arrange(hands={0: [test]}, labs={0: [pixel]})
    act(helped, 0, type="play", card=test)
    assert plain.pool["sci"] == 2 and helped.pool["sci"] == 3


# ---------------------------------------------------------------- promotion


def test_promotion_by_name_and_level():
    junior, senior, chief = cid("junior_krol"), cid("senior_krol"), cid("chief_krol")
    state = arrange(hands={0: [junior, senior, chief]})
    refused(state, 0, "promotion", type="play", card=senior)
    refused(state, 0, "promotion", type="play", card=chief)
    act(state, 0, type="play", card=junior)
    refused(state, 0, "promotion", type="play", card=chief)
    events = act(state, 0, type="play", card=senior)
    assert types(events) == ["promoted"] and state.labs[0] == [senior]
    assert junior in state.recycle[0]
    act(state, 0, type="play", card=chief)
    assert state.labs[0] == [chief] and senior in state.recycle[0]


def test_one_monster_of_a_name_a_lower_level_may_replace_a_higher_one():
    junior, senior, twin = cid("junior_krol"), cid("senior_krol"), cid("junior_krol", 1, 2)
    state = arrange(hands={0: [junior, twin]}, labs={0: [senior]})
    act(state, 0, type="play", card=junior)  # a demotion
    assert state.labs[0] == [junior] and senior in state.recycle[0]
    act(state, 0, type="play", card=twin)  # the same level replaces it
    assert state.labs[0] == [twin]


def test_equipment_one_copy_in_the_lab():
    credits, other = cid("cloud_credits"), cid("cloud_credits", 3)
    state = arrange(hands={0: [other]}, labs={0: [credits]})
    refused(state, 0, "equipped", type="play", card=other)


# ---------------------------------------------------------------- interrupts


def scope_creep_table(pool):
    creep = cid("scope_creep", 2)
    chatbot = cid("faq_chatbot")  # 4 TECH, 1 SCI
    state = arrange(
        players=3,
        options={"decks": "startup"},  # Scope Creep is seat 1's own card
        hands={0: [], 1: [creep], 2: []},
        market=[chatbot, cid("clean_spreadsheet")],
        pool=pool,
    )
    return state, creep, chatbot


def test_completing_opens_a_window_for_every_other_seat():
    state, creep, chatbot = scope_creep_table({"tech": 5, "sci": 2})
    events = act(state, 0, type="complete", challenge=chatbot)
    assert types(events) == ["window"] and state.to_move() == [1, 2]
    assert chatbot in state.market
    refused(state, 0, "window_open", type="end_turn")
    assert state.legal_actions(2) == [{"type": "pass"}]
    assert {"type": "interrupt", "card": creep} in state.legal_actions(1)
    assert state.timers()[0]["seconds"] == 15


def test_scope_creep_costs_one_more_tech_and_sci():
    state, creep, chatbot = scope_creep_table({"tech": 5, "sci": 2})
    act(state, 0, type="complete", challenge=chatbot)
    act(state, 1, type="interrupt", card=creep)
    assert chatbot in state.completed[0] and state.pool == {"tech": 0, "sci": 0}
    assert creep in state.recycle[1] and state.to_move() == [0]


def test_scope_creep_the_build_cannot_pay_keeps_the_challenge_on_the_market():
    state, creep, chatbot = scope_creep_table({"tech": 4, "sci": 1})
    act(state, 0, type="complete", challenge=chatbot)
    act(state, 1, type="interrupt", card=creep)
    assert chatbot in state.market and state.pool == {"tech": 4, "sci": 1}
    refused(state, 0, "blocked", type="complete", challenge=chatbot)


def test_everyone_passes_or_the_timer_expires_and_the_challenge_is_completed():
    state, _creep, chatbot = scope_creep_table({"tech": 4, "sci": 1})
    act(state, 0, type="complete", challenge=chatbot)
    act(state, 2, type="pass")
    assert state.to_move() == [1]
    act(state, 1, type="pass")
    assert chatbot in state.completed[0] and state.window is None
    again, _creep, chatbot = scope_creep_table({"tech": 4, "sci": 1})
    act(again, 0, type="complete", challenge=chatbot)
    events = again.apply(None, again.timers()[0]["action"])
    assert types(events)[0] == "timeout" and chatbot in again.completed[0]


def deal_interrupts(data, turn, into):
    """Return a copy of ``data`` (a state's JSON) in which every seat but ``turn`` holds
    the interrupt cards of its laboratory pile (``into``) or none, each swapped with a
    card of its pile's deck or recycle bin: everything public stays as it was."""
    d = json.loads(json.dumps(data))
    for s in range(d["num_players"]):
        if s == turn:
            continue
        hand, p = d["hands"][s], d["pile"][s]
        for zone in (d["decks"][p], d["recycle"][p]):
            for i, card in enumerate(zone):
                if bool(BY_ID[card]["interrupt"]) != into:
                    continue
                j = next(
                    (j for j, c in enumerate(hand) if bool(BY_ID[c]["interrupt"]) != into), None
                )
                if j is not None:
                    hand[j], zone[i] = card, hand[j]
    return d


def seen(view):
    """Return a view without the seat's own hand: what may differ between two tables
    that differ only in hidden cards."""
    return {k: v for k, v in view.items() if k != "hand"}


@pytest.mark.parametrize(
    ("table", "challenge", "holder", "card"),
    [
        # 2 players: the one other seat would be the holder
        (("standard", "alternate_enterprise", 2), "faq_chatbot", 1, cid("scope_creep", 2)),
        (("standard", "alternate", 2), "canteen_survey", 1, cid("complaint", 2)),
        # 3 players: only the Startup seat 2 might answer a challenge without personal data
        (("standard", "alternate", 3), "faq_chatbot", 2, cid("scope_creep", 3)),
        (("office", "alternate", 2), "faq_chatbot", 1, cid("scope_creep", 2)),
    ],
    ids=["2p-scope-creep", "2p-complaint", "3p-scope-creep", "office"],
)
def test_the_window_opens_alike_whether_or_not_the_interrupt_is_held(
    table, challenge, holder, card
):
    variant, decks, players = table
    holds = arrange(
        players,
        variant,
        {"decks": decks},
        hands={holder: [card]},
        market=[cid(challenge), cid("clean_spreadsheet")],
        pool={"tech": 9, "sci": 9},
    )
    lacks = GAME.from_json(deal_interrupts(holds.to_json(), 0, into=False))
    assert card in holds.hands[holder] and not set(lacks.hands[holder]) & {card}
    for state in (holds, lacks):
        assert types(act(state, 0, type="complete", challenge=cid(challenge))) == ["window"]
    assert holds.to_move() == lacks.to_move() == [s for s in range(players) if s != 0]
    assert holds.timers() == lacks.timers()
    for seat in [None, *range(players)]:
        assert seen(holds.view(seat)) == seen(lacks.view(seat))
    # a seat that cannot answer lets it go, as a holder may
    assert holds.legal_actions(holder) == [{"type": "interrupt", "card": card}, {"type": "pass"}]
    assert lacks.legal_actions(holder) == [{"type": "pass"}]


def built_without_interrupts():
    keys = cards.starter_keys("startup")
    keys.remove("scope_creep")
    return [keys]


@pytest.mark.parametrize(
    ("options", "challenge", "fields"),
    [
        # an Enterprise seat's only interrupt, a Complaint, does not fit these
        ({"decks": "enterprise"}, "faq_chatbot", {"hands": {1: [cid("complaint", 2)]}}),
        ({"decks": "alternate"}, "canteen_survey", {"safe_turn": True}),
        # the seat whose deck holds Scope Creep holds no card at all
        ({"decks": "startup"}, "faq_chatbot", {"hands": {1: []}}),
        # a built deck without an interrupt
        ({"lab_decks": built_without_interrupts()}, "canteen_survey", {}),
    ],
    ids=["complaint-no-fit", "safeguarded", "empty-hand", "built-deck"],
)
def test_no_window_when_public_information_rules_out_every_holder(options, challenge, fields):
    state = arrange(
        options=options,
        market=[cid(challenge), cid("clean_spreadsheet")],
        pool={"tech": 9, "sci": 9},
        **fields,
    )
    events = act(state, 0, type="complete", challenge=cid(challenge))
    assert "window" not in types(events) and cid(challenge) in state.completed[0]


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    variant=st.sampled_from(list(GAME.variants)),
    steps=st.integers(0, 300),
    completion=st.tuples(st.integers(0, 4), st.booleans()),  # which challenge, a safeguard
)
def test_no_view_depends_on_another_seats_hand(seed, players, variant, steps, completion):
    """Two tables that differ only in whether the other seats hold their interrupts: a
    completion looks the same to every seat, the window and the seats to move too."""
    state = GAME.new_state(players, seed, variant)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        state.apply(*choose(state, rng))
    while not state.is_over() and (state.window or state.phase != "main"):
        state.apply(*choose(state, rng))
    pick, safe = completion
    open_ = [c for c in state.market if c not in state.blocked]
    assume(not state.is_over() and open_)
    data = state.to_json()
    data.update(pool={"tech": 20, "sci": 20}, safe_turn=safe)
    held, none = (GAME.from_json(deal_interrupts(data, state.turn, into)) for into in (True, False))
    for twin in (held, none):
        act(twin, state.turn, type="complete", challenge=open_[pick % len(open_)])
    assert held.to_move() == none.to_move() and held.timers() == none.timers()
    for seat in [None, *range(players)]:
        assert seen(held.view(seat)) == seen(none.view(seat))


def test_a_complaint_stops_an_unsafe_personal_data_challenge_and_the_work_is_spent():
    complaint, survey = cid("complaint", 2), cid("canteen_survey")
    state = arrange(hands={1: [complaint]}, market=[survey, cid("clean_spreadsheet")])
    state.pool = {"tech": 3, "sci": 3}
    act(state, 0, type="complete", challenge=survey)
    act(state, 1, type="interrupt", card=complaint)
    assert survey in state.market and not state.completed[0]
    assert state.pool == {"tech": 1, "sci": 0}


def test_an_interrupt_is_never_played_in_the_main_phase():
    creep = cid("scope_creep")
    state = arrange(hands={0: [creep]})
    refused(state, 0, "interrupt_only", type="play", card=creep)


# ---------------------------------------------------------- views and events


def test_views_hide_hands_and_decks():
    state = GAME.new_state(3, 11, "standard")
    for seat in (None, 0, 1, 2):
        text = json.dumps(state.view(seat))
        for other in range(3):
            if other != seat:
                assert not any(c in text for c in state.hands[other])
        assert not any(c in text for deck in state.decks for c in deck)
        assert not any(c in text for c in state.challenge_deck)


def test_every_event_of_random_games_has_a_log_line():
    seen = set()
    for seed in range(12):
        state = GAME.new_state(2 + seed % 3, seed, list(GAME.variants)[seed % 3])
        rng = random.Random(seed)
        for event in state.last_events:
            describe_event(event)
        while not state.is_over():
            for event in state.apply(*choose(state, rng)):
                template, params = describe_event(event)
                assert template % params
                seen.add(event["type"])
    assert {"completed", "tool", "hired", "turn", "game_over"} <= seen


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), steps=st.integers(0, 400))
def test_invariants_of_random_play(seed, players, steps):
    """The pool never goes negative, a lab holds one monster of a name, the market stays
    within its size, and a main phase starts with at most 6 cards in hand."""
    state = GAME.new_state(players, seed, "standard")
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        state.apply(*choose(state, rng))
        assert state.pool["tech"] >= 0 and state.pool["sci"] >= 0
        assert len(state.market) <= rules.MARKET[players]
        for lab in state.labs:
            names = [BY_ID[c]["monster"] for c in lab if BY_ID[c]["kind"] == "monster"]
            assert len(names) == len(set(names))
        if state.phase == "discard":
            assert len(state.hands[state.turn]) > rules.HAND_LIMIT


# ----------------------------------------------------------------------- bots


def play_bots(players, seed, bots, options=None, variant="standard"):
    """Play one game between the named bots (one per seat); return the final state."""
    state = GAME.new_state(players, seed, variant, options)
    rng = random.Random(seed)
    chosen = [GAME.bots[name]() for name in bots]
    while not state.is_over():
        movers = state.to_move()
        seat = movers[0]
        legal = state.legal_actions(seat)
        action = chosen[seat].choose(state.view(seat), legal, rng)
        assert action in legal
        state.apply(seat, action)
    return state


def test_the_heuristic_beats_random_by_a_clear_margin():
    wins = 0
    for seed in range(40):
        seat = seed % 2
        bots = ["random", "random"]
        bots[seat] = "heuristic"
        wins += play_bots(2, seed, bots).result()["winners"] == [seat]
    assert wins >= 34


def test_neither_starter_set_wins_more_than_60_percent_between_heuristic_bots():
    wins: defaultdict[str, float] = defaultdict(float)  # a shared win counts in part
    for seed in range(200):
        decks = "alternate" if seed % 2 else "alternate_enterprise"
        state = play_bots(2, seed, ["heuristic", "heuristic"], {"decks": decks})
        for seat in state.result()["winners"]:
            wins[state.sets[seat]] += 1 / len(state.result()["winners"])
    assert max(wins.values()) / 200 <= 0.60, wins
