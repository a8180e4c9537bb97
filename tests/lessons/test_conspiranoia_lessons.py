"""Conspiranoia's lessons: each card kind and character, and each key event, opens its lesson.

The links are data (fixtures/lessons/links/conspiranoia.json); three lessons were written
for the game (fixtures/lessons/lessons/09_conspiranoia.json), the others are shared with
Data-Tycoon. The facts of the new lessons come from ../shared/gdpr-reference.md.
"""

import json
import random
import re
from pathlib import Path

import pytest

from games.registry import get_game
from lessons.content import FIXTURES, LANGUAGES, read_lessons
from lessons.links import lesson_for_card, lesson_for_event, once_per_table
from lessons.models import LessonLink
from lessons.texts import article_number

pytestmark = pytest.mark.django_db

GAME = get_game("conspiranoia")
NEW = {
    lesson["slug"]: lesson
    for lesson in json.loads((FIXTURES / "lessons" / "09_conspiranoia.json").read_text("utf-8"))
}
GLOSSARY = Path(__file__).resolve().parents[2] / "fixtures" / "glossary.json"

# (card kind, character or None): the lesson its cards open.
CARD_LESSONS = {
    ("attack", None): "profiling",
    ("special_attack", None): "political-opinions",
    ("defence", None): "objection-erasure",
    ("bonus", None): "disinformation",
    ("avatar", "greys"): "international-transfers",
    ("avatar", "shapeshifters"): "disinformation",
    ("avatar", "investigators"): "right-of-access",
    ("avatar", "men_in_black"): "transparency",
}

# slug: (year of the case, figures its outcome states in every language), as in test_facts.
CASES = {
    "right-of-access": (2022, ["20"]),  # Garante and CNIL, Clearview AI, EUR 20 million each
    "objection-erasure": (2021, ["746"]),  # CNPD Luxembourg, Amazon Europe, July 2021
    "disinformation": (2018, ["87", "500000"]),  # ICO, Facebook (Cambridge Analytica)
}


def catalogue():
    """Yield (variant, card) for every card of every Conspiranoia variant."""
    for variant in GAME.variants:
        for card in GAME.cards(variant):
            yield variant, card


def test_the_links_cover_every_kind_and_character_of_the_deck():
    kinds = {card["kind"] for _variant, card in catalogue()}
    characters = {card["character"] for _variant, card in catalogue() if card["character"]}
    assert {kind for kind, _character in CARD_LESSONS} == kinds
    assert {character for _kind, character in CARD_LESSONS if character} == characters
    links = LessonLink.objects.filter(game="conspiranoia", event="")
    assert {(link.kind, link.attributes.get("character")) for link in links} == set(CARD_LESSONS)


@pytest.mark.parametrize(("variant", "card"), list(catalogue()), ids=lambda x: str(x)[:40])
def test_every_card_opens_the_lesson_of_its_kind_or_character(variant, card):
    lesson = lesson_for_card(GAME, card)
    assert lesson is not None, card["id"]
    assert lesson.slug == CARD_LESSONS[(card["kind"], card["character"])], card["id"]
    assert lesson_for_card("conspiranoia", card["id"]) == lesson


def test_an_avatar_link_names_only_the_declared_character_attribute():
    assert GAME.link_attributes == ("character",)
    links = list(LessonLink.objects.filter(game="conspiranoia", event=""))
    assert len(links) == len(CARD_LESSONS)
    for link in links:
        assert set(link.attributes) == ({"character"} if link.kind == "avatar" else set()), link


def test_the_issue_topics_are_all_taught_by_the_game():
    """Each topic of the issue has its article in a lesson one of the game's cards opens."""
    cited = {}
    for slug in set(CARD_LESSONS.values()):
        link = LessonLink.objects.filter(game="conspiranoia", lesson__slug=slug).first()
        assert link is not None and link.lesson is not None
        lesson = link.lesson
        cited[slug] = {article_number(article) for article in lesson.articles}
    assert {4, 22} <= cited["profiling"]  # profiling and automated decisions
    assert 9 in cited["political-opinions"]  # political opinions, micro-targeting
    assert 15 in cited["right-of-access"]  # the Investigators
    assert {12, 13, 14} <= cited["transparency"]  # the Men in Black
    assert {44, 45, 46} <= cited["international-transfers"]  # the Greys
    assert {21, 17} <= cited["objection-erasure"]
    assert 5 in cited["disinformation"]  # accuracy, Art. 5(1)(d)


@pytest.mark.parametrize(
    ("event", "slug"),
    [
        ({"type": "attack", "seat": 0, "target": 1, "cards": [], "points": 9}, "profiling"),
        (
            {"type": "special_attack", "seat": 0, "target": 1, "cards": [], "points": 18},
            "political-opinions",
        ),
        (
            {"type": "defend", "seat": 1, "attacker": 0, "cards": [], "points": 9},
            "objection-erasure",
        ),
        ({"type": "blocked", "seat": 1, "attacker": 0}, "objection-erasure"),
        (
            {"type": "heal", "seat": 0, "cards": [], "points": 1, "life": 5},
            "rectification-portability",
        ),
        ({"type": "knocked_out", "seat": 1, "attacker": 0, "count": 2}, "complaint-erasure"),
    ],
)
def test_key_events_open_their_lesson(event, slug):
    lesson = lesson_for_event(GAME, event)
    assert lesson is not None and lesson.slug == slug
    # The duel's own moves come back every turn: their lesson opens once per table.
    assert once_per_table(GAME, event) == (event["type"] != "knocked_out")


@pytest.mark.parametrize(
    ("character", "card", "slug"),
    [
        ("greys", "cp-37", "international-transfers"),
        ("shapeshifters", "cp-41", "disinformation"),
        ("investigators", "cp-45", "right-of-access"),
        ("men_in_black", "cp-49", "transparency"),
    ],
)
def test_choosing_a_character_opens_its_lesson_once_per_table(character, card, slug):
    event = {"type": "character_chosen", "seat": 0, "character": character, "card": card}
    lesson = lesson_for_event(GAME, event)
    assert lesson is not None and lesson.slug == slug
    assert once_per_table(GAME, event)


@pytest.mark.parametrize("event_type", ["damage", "turn", "deal", "discard", "reshuffle", "setup"])
def test_frequent_or_routine_events_open_no_lesson(event_type):
    """A hit follows most attacks, which opened their lesson already; routine events teach none."""
    assert lesson_for_event(GAME, {"type": event_type, "seat": 0}) is None


def test_every_linked_event_is_one_the_game_emits_and_labels():
    events = set(
        LessonLink.objects.filter(game="conspiranoia")
        .exclude(event="")
        .values_list("event", flat=True)
    )
    assert events <= set(GAME.event_labels)


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_the_key_events_of_real_games_resolve_to_lessons(bot):
    key = {
        "character_chosen",
        "attack",
        "special_attack",
        "defend",
        "blocked",
        "heal",
        "knocked_out",
    }
    seen = set()
    for seed in range(8):
        players = 2 + seed % 3
        state = GAME.new_state(players, seed, list(GAME.variants)[seed % 2])
        bots = [GAME.bot(bot) for _ in range(players)]
        rng = random.Random(seed)
        while not state.is_over():
            movers = state.to_move()
            if not movers:
                events = state.apply(None, state.legal_actions(None)[0])
            else:
                seat = movers[0]
                action = bots[seat].choose(state.view(seat), state.legal_actions(seat), rng)
                events = state.apply(seat, action)
            for event in events:
                lesson = lesson_for_event(GAME, event)
                if event["type"] in key:
                    assert lesson is not None, event
                    seen.add(event["type"])
    assert {"character_chosen", "attack", "knocked_out"} <= seen


# The three lessons written for Conspiranoia


def numbers(text: str) -> set[str]:
    """Return the numbers in a text, thousands separators dropped, decimal commas as dots."""
    text = re.sub(r"(?<=\d)[\s\u00a0\u202f.,](?=\d{3}(?!\d))", "", text)
    text = re.sub(r"(?<=\d),(?=\d)", ".", text)
    return set(re.findall(r"\d+(?:\.\d+)?", text))


def test_the_new_lessons_are_shipped_and_linked():
    shipped = {lesson["slug"] for lesson in read_lessons()}
    assert set(NEW) == set(CASES) and set(NEW) <= shipped
    linked = set(
        LessonLink.objects.filter(game="conspiranoia").values_list("lesson__slug", flat=True)
    )
    assert set(NEW) <= linked


@pytest.mark.parametrize("slug", sorted(CASES))
def test_the_real_case_states_the_right_year_and_figures_in_every_language(slug):
    year, figures = CASES[slug]
    lesson = NEW[slug]
    assert lesson["case_year"] == year
    for language in LANGUAGES:
        text = lesson[language]
        found = numbers(text["case_authority"] + " " + text["case_outcome"])
        assert str(year) in found, (slug, language)
        for figure in figures:
            assert figure in found, (slug, language, figure)


@pytest.mark.parametrize("slug", sorted(CASES))
def test_every_language_has_the_same_quiz_shape_and_names_the_game(slug):
    lesson = NEW[slug]
    assert lesson["quiz_answers"], slug
    for language in LANGUAGES:
        quiz = lesson[language]["quiz"]
        assert len(quiz) == len(lesson["quiz_answers"]), (slug, language)
        for question, english in zip(quiz, lesson["en"]["quiz"], strict=True):
            assert len(question["choices"]) == len(english["choices"]), (slug, language)
        assert "Conspiranoia" in lesson[language]["body"], (slug, language)
        assert "Data-Tycoon" not in lesson[language]["body"], (slug, language)


def test_the_right_answers_are_not_always_the_first_choice():
    answers = [answer for lesson in NEW.values() for answer in lesson["quiz_answers"]]
    assert len(set(answers)) > 1


def test_the_deadlines_and_rights_are_stated_in_every_language():
    for language in LANGUAGES:
        access = NEW["right-of-access"][language]
        assert {"15", "12", "3"} <= numbers(access["short"])  # Art. 15, one month: Art. 12(3)
        assert "72" in numbers(access["quiz"][0]["explanation"])  # the breach deadline, a decoy
        objection = NEW["objection-erasure"][language]
        assert {"21", "17"} <= numbers(objection["short"])
        assert {"21", "17", "12"} <= numbers(objection["body"])
        disinformation = NEW["disinformation"][language]
        # Rectification (Art. 16) is taught in the body and the quiz, though not listed in
        # "articles" until the glossary has an entry for it.
        assert "16" in numbers(disinformation["body"])
        assert "16" in numbers(disinformation["quiz"][1]["choices"][0])


def test_the_new_lessons_cite_only_articles_the_glossary_explains():
    glossary = json.loads(GLOSSARY.read_text(encoding="utf-8"))["articles"]
    assert len(NEW) == 3
    for lesson in NEW.values():
        assert lesson["articles"], lesson["slug"]
        for article in lesson["articles"]:
            assert str(article_number(article)) in glossary, (lesson["slug"], article)
