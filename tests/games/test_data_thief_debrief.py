"""Data Thief's debrief: the attacks by type and the prompts come from what happened."""

import random

from games.data_thief.cards import BY_ID
from games.data_thief.debrief import ATTACK_NAMES, MEASURE_NAMES
from games.engine.base import State, TableSummary
from tests.games.playout import DebriefTable
from tests.games.test_data_thief_rules import GAME, Picker, thief_turn

NAMES = {0: "Ana", 1: "Ben", 2: "Cleo"}


class Table(DebriefTable):
    def __init__(self) -> None:
        super().__init__(GAME, None, NAMES)

    def play(self, state: State, seat: int, action: dict) -> list[dict]:
        return self.feed(seat, action, state)


def attack(table, pick, kind, board, *, on_board=(), in_hand=(), data=None, answer=None):
    """Play one attack of ``kind`` on manager 0's ``board`` (thief: seat 1 of 2)."""
    card = Picker()("attack", attack=kind)  # each attack in a state of its own: any copy
    data = data or pick("data", category="standard")
    hands = {0: list(in_hand), 1: [card]}
    state = thief_turn(pick, hands=hands, boards={0: {board: [data, *on_board]}})
    table.play(state, 1, {"type": "attack", "card": card, "target": 0, "board": board})
    if answer:
        table.play(state, 0, answer)
    return card


def test_a_quiet_table_has_no_attack_line_and_no_prompt():
    table = Table()
    table.state = GAME.new_state(2, 3, "standard")
    assert table.debrief.tally(table.summary()) == []
    assert table.debrief.prompts(table.summary()) == []


def test_each_attack_type_counts_where_it_was_stopped_and_what_it_took():
    pick, table = Picker(), Table()
    attack(table, pick, "phishing", "digital")  # no measure: gets through, steals 1
    attack(table, pick, "phishing", "digital")
    training = pick("measure", measure="training")
    attack(table, pick, "phishing", "digital", on_board=[training])
    mfa = pick("measure", measure="mfa")
    attack(
        table, pick, "phishing", "digital", in_hand=[mfa], answer={"type": "counter", "card": mfa}
    )
    attack(table, pick, "ransomware", "digital")
    lines = table.debrief.tally(table.summary())
    assert [line.event["attack"] for line in lines] == ["phishing", "ransomware"]
    phishing, ransomware = lines
    assert phishing.text.count == 4 and phishing.text.params["attack"] == ATTACK_NAMES["phishing"]
    parts = {part.message: part.count for part in phishing.text.params["outcomes"]}
    assert parts == {
        "stopped %(count)s time by a measure on the board": 1,
        "stopped %(count)s time by a measure from the hand": 1,
        "got through %(count)s time": 2,
        "%(count)s data card stolen": 2,
    }
    assert phishing.event["type"] == "attack"  # its lesson is the attack type's
    parts = {part.message: part.count for part in ransomware.text.params["outcomes"]}
    assert parts == {"got through %(count)s time": 1, "%(count)s turn missed": 2}


def test_an_attack_that_got_through_twice_asks_which_measure_would_have_stopped_it():
    pick, table = Picker(), Table()
    attack(table, pick, "phishing", "digital")
    attack(table, pick, "phishing", "digital")
    attack(table, pick, "public_wifi", "digital")
    prompts = table.debrief.prompts(table.summary())
    through = next(p for p in prompts if "would have stopped it" in p.message)
    assert through.params["attack"] == ATTACK_NAMES["phishing"] and through.count == 2
    assert through.params["table"] == 4


def test_a_stolen_sensitive_card_asks_about_the_breach_notification():
    pick, table = Picker(), Table()
    health = pick("data", data="health_records")
    attack(table, pick, "bin_raiding", "paper", data=health)
    prompts = table.debrief.prompts(table.summary())
    breach = prompts[0]
    assert "Articles 33 and 34" in breach.message and "Article 9" in breach.message
    assert breach.params["cards"] == [BY_ID[health]["name"]]
    assert breach.params["player"] == "Ana"
    # the data came from a paper board: paper files are personal data too
    assert any("Articles 2(1) and 4(6)" in p.message for p in prompts)


def test_standard_data_stolen_asks_about_a_breach_without_naming_article_9():
    pick, table = Picker(), Table()
    attack(table, pick, "phishing", "digital")
    (breach, *_rest) = table.debrief.prompts(table.summary())
    assert "Article 33" in breach.message and "Article 9" not in breach.message
    assert breach.count == 1


def test_missed_turns_a_hand_counter_and_the_kept_attacks_give_their_prompts():
    pick, table = Picker(), Table()
    attack(table, pick, "ransomware", "digital")
    shredder = pick("measure", measure="shredder")
    answer = {"type": "counter", "card": shredder}
    attack(table, pick, "bin_raiding", "paper", in_hand=[shredder], answer=answer)
    prompts = table.debrief.prompts(table.summary())
    messages = [p.message for p in prompts]
    assert not any("Article 33" in m for m in messages)  # nothing was stolen
    turns = next(p for p in prompts if "32(1)(c)" in p.message)
    assert turns.count == 2 and turns.params["attack"] == ATTACK_NAMES["ransomware"]
    hand = next(p for p in prompts if "from the hand" in p.message)
    assert hand.params["measure"] == MEASURE_NAMES["shredder"]
    assert hand.params["attack"] == ATTACK_NAMES["bin_raiding"]
    proofs = next(p for p in prompts if "Article 5(2)" in p.message)
    assert proofs.count == 1


def test_the_winner_prompt_sets_the_thief_score_against_the_best_manager():
    pick, table = Picker(), Table()
    training = pick("measure", measure="training")
    attack(table, pick, "phishing", "digital", on_board=[training])
    assert table.debrief.winner_prompt(table.summary()) is None  # not over
    prompt = table.debrief.winner_prompt(table.summary(over=True))
    assert prompt is not None
    assert prompt.params["thief"] == "Ben" and prompt.params["manager"] == "Ana"
    assert prompt.params["points"] == 0 and prompt.params["best"] == 20  # 10 + 10 kept
    assert prompt.params["measure"] == MEASURE_NAMES["training"]
    table = Table()
    for _ in range(2):
        attack(table, pick, "phishing", "digital", data=pick("data", category="sensitive"))
    prompt = table.debrief.winner_prompt(table.summary(over=True))
    assert prompt is not None
    assert prompt.params["points"] == 30 and "won with" in prompt.message


def test_real_games_give_lines_and_prompts_whose_parameters_fill_their_templates():
    seen = set()
    for seed in range(6):
        state = GAME.new_state(3, seed, "expert" if seed % 2 else "standard")
        debrief, rng, version, attacks = GAME.debrief(), random.Random(seed), 0, 0
        bots = {s: GAME.bots["heuristic"]() for s in range(3)}
        while not state.is_over():
            seat = state.to_move()[0]
            action = bots[seat].choose(state.view(seat), state.legal_actions(seat), rng)
            debrief.before(state, seat, action)
            events = state.apply(seat, action)
            version += 1
            debrief.after(state, version, events)
            attacks += sum(e["type"] == "attack" for e in events)
        names = {0: "Ana", 1: "Ben", 2: "Cleo"}
        summary = TableSummary(1, names, [], state.scores(), {}, [], True)
        lines = debrief.tally(summary)
        assert attacks and sum(line.text.count for line in lines) == attacks
        for text in [line.text for line in lines] + debrief.prompts(summary):
            template = text.plural if text.plural and text.count != 1 else text.message
            template % {k: "x" for k in text.params}  # every placeholder has its parameter
            seen.add(text.message)
        assert debrief.winner_prompt(summary) is not None
    assert len(seen) >= 6
