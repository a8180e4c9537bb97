"""Data Monsters' debrief: completions with or without a safeguard, the safeguards and
interrupts played, and the prompts come from what happened at the table."""

from django.utils import translation

from games.data_monsters.cards import BY_ID, PENALTY
from games.data_monsters.debrief import TIMES
from games.describe import translate
from games.engine import Text
from games.engine.base import State
from tests.games.playout import DebriefTable
from tests.games.test_data_monsters_rules import GAME, arrange, cid

NAMES = {0: "Ana", 1: "Ben", 2: "Cleo"}


class Table(DebriefTable):
    def __init__(self, state: State) -> None:
        super().__init__(GAME, state, NAMES)

    def play(self, seat: int, **action: object) -> list[dict]:
        return self.feed(seat, action)


def name(key):
    return BY_ID[cid(key)]["name"]


def lab_table():
    """Seat 0 with a rich pool, Pseudonymisation in hand, three challenges on the market:
    two on personal data, one not; nobody holds an interrupt."""
    survey, analytics, sheet = (
        cid("canteen_survey"),
        cid("website_analytics"),
        cid("clean_spreadsheet"),
    )
    state = arrange(
        hands={0: [cid("pseudonymisation")], 1: []},
        market=[survey, analytics, sheet],
        pool={"tech": 20, "sci": 20},
    )
    return Table(state), survey, analytics, sheet


def test_a_quiet_table_has_no_line_and_no_prompt():
    table = Table(GAME.new_state(2, 3, "standard"))
    assert table.debrief.tally(table.summary()) == []
    assert table.debrief.prompts(table.summary()) == []
    assert table.debrief.winner_prompt(table.summary()) is None  # not over


def test_completions_are_counted_with_or_without_a_safeguard_and_the_points_lost():
    table, survey, analytics, sheet = lab_table()
    table.play(0, type="complete", challenge=survey)  # no safeguard: 3 points lost
    table.play(0, type="play", card=cid("pseudonymisation"))
    table.play(0, type="complete", challenge=analytics)
    table.play(0, type="complete", challenge=sheet)
    lines = table.debrief.tally(table.summary())
    safe, unsafe, other, pseudo = lines
    assert safe.text.count == 1 and safe.text.params["challenges"] == [name("website_analytics")]
    assert safe.event["challenge"] == analytics  # its lesson is the challenge's
    assert unsafe.text.count == 1 and unsafe.text.params["points"] == PENALTY
    assert "Articles 25 and 35" in unsafe.text.message
    assert unsafe.text.params["challenges"] == [name("canteen_survey")]
    assert other.text.params["challenges"] == [name("clean_spreadsheet")]
    assert pseudo.text.params == {"card": name("pseudonymisation"), "count": 1}
    assert pseudo.event["type"] == "tool"  # its lesson: pseudonymisation and anonymisation


def test_the_unsafe_completion_is_the_first_prompt_then_the_safeguard_played_most():
    table, survey, analytics, _sheet = lab_table()
    table.play(0, type="complete", challenge=survey)
    table.play(0, type="play", card=cid("pseudonymisation"))
    table.play(0, type="complete", challenge=analytics)
    unsafe, safeguard = table.debrief.prompts(table.summary())
    assert "Articles 25 and 35" in unsafe.message and unsafe.count == 1
    assert unsafe.params["player"] == "Ana"
    assert unsafe.params["challenge"] == name("canteen_survey")
    assert unsafe.params["table"] == 4
    assert "Articles 4(5) and 25" in safeguard.message
    assert safeguard.params["card"] == name("pseudonymisation")
    # how often, as its own plural: Russian says "1 раз", "4 раза", "5 раз"
    assert safeguard.params["times"].count == 1
    with translation.override("ru"):
        assert " — 1 раз: " in translate(safeguard)
        for count, words in ((4, "4 раза"), (5, "5 раз")):
            safeguard.params["times"] = Text.plural_form(TIMES, count, {"count": count})
            assert f" — {words}: " in translate(safeguard)


def test_every_personal_data_challenge_safeguarded_asks_about_privacy_by_design():
    table, _survey, analytics, _sheet = lab_table()
    table.play(0, type="play", card=cid("pseudonymisation"))
    table.play(0, type="complete", challenge=analytics)
    prompts = table.debrief.prompts(table.summary())
    assert [p.message for p in prompts if "privacy by design" in p.message]
    assert not any("without a safeguard" in p.message for p in prompts)
    winner = table.debrief.winner_prompt(table.summary(over=True))
    assert winner.params["player"] == "Ana" and winner.params["safe"] == 1
    assert winner.count == 1


def test_a_complaint_and_scope_creep_are_counted_with_what_came_of_them():
    complaint, creep = cid("complaint", 2), cid("scope_creep", 3)
    survey, chatbot = cid("canteen_survey"), cid("faq_chatbot")
    state = arrange(
        players=3,
        hands={0: [], 1: [complaint], 2: [creep]},
        market=[survey, chatbot, cid("clean_spreadsheet")],
        pool={"tech": 10, "sci": 6},
    )
    table = Table(state)
    table.play(0, type="complete", challenge=survey)  # unsafe personal data: a window
    table.play(2, type="pass")
    table.play(1, type="interrupt", card=complaint)  # stopped, the work spent (2, 3)
    table.play(0, type="complete", challenge=chatbot)  # 4 TECH 1 SCI: 8 and 3 left
    table.play(2, type="interrupt", card=creep)  # 5 and 2 paid: completed anyway
    lines = table.debrief.tally(table.summary())
    by_card = {line.text.params.get("card", {}).get("en"): line for line in lines}
    stopped = by_card[BY_ID[complaint]["name"]["en"]]
    assert stopped.event["type"] == "interrupted" and stopped.text.count == 1
    assert [p.message for p in stopped.text.params["outcomes"]] == [
        "%(count)s completion stopped, its TECH and SCI spent"
    ]
    anyway = by_card[BY_ID[creep]["name"]["en"]]
    assert [p.message for p in anyway.text.params["outcomes"]] == [
        "%(count)s challenge completed anyway, for 1 TECH and 1 SCI more"
    ]
    prompts = table.debrief.prompts(table.summary())
    messages = [p.message for p in prompts]
    complaint_prompt = next(p for p in prompts if "Articles 77 and 58" in p.message)
    assert complaint_prompt.params["player"] == "Ben"
    assert complaint_prompt.params["target"] == "Ana"
    creep_prompt = next(p for p in prompts if "Article 5(1)(b)" in p.message)
    assert creep_prompt.params["player"] == "Cleo"
    assert creep_prompt.params["challenge"] == BY_ID[chatbot]["name"]
    assert messages.index(complaint_prompt.message) < messages.index(creep_prompt.message)


def test_scope_creep_the_build_cannot_pay_blocks_the_challenge():
    creep, chatbot = cid("scope_creep", 2), cid("faq_chatbot")
    state = arrange(
        players=3,
        options={"decks": "startup"},  # Scope Creep is seat 1's own card
        hands={0: [], 1: [creep], 2: []},
        market=[chatbot, cid("clean_spreadsheet")],
        pool={"tech": 4, "sci": 1},
    )
    table = Table(state)
    table.play(0, type="complete", challenge=chatbot)
    table.play(2, type="pass")
    table.play(1, type="interrupt", card=creep)
    (line,) = table.debrief.tally(table.summary())
    assert [p.message for p in line.text.params["outcomes"]] == [
        "%(count)s challenge blocked for the turn"
    ]


def test_senior_dora_joins_the_lab_as_a_safeguard_with_the_dpo_question():
    junior, senior = cid("junior_dora", 2), cid("senior_dora", 2)
    state = arrange(hands={0: [], 1: [senior]}, labs={1: [junior]}, turn=1, first=1)
    table = Table(state)
    table.play(1, type="play", card=senior)
    (line,) = table.debrief.tally(table.summary())
    assert line.event["type"] == "promoted" and line.text.params["card"] == BY_ID[senior]["name"]
    (prompt,) = table.debrief.prompts(table.summary())
    assert "Articles 37 to 39" in prompt.message
