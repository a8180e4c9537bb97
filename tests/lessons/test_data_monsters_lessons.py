"""Every lesson linked to Data Monsters exists and comes up in play: each safeguard and
each card with a data-protection theme opens its own lesson (the DPIA hack the DPIA, the
DPO monster the DPO, a processor contract Article 28, pseudonymisation Article 4(5))."""

import json

import pytest

from games.registry import get_game
from lessons.content import FIXTURES, read_lessons
from lessons.links import lesson_for_card, lesson_for_event
from lessons.models import LessonLink
from tests.lessons import reach

pytestmark = pytest.mark.django_db

GAME = get_game("data_monsters")
GAMES = 40
EXPIRE = 0.05  # now and then an interrupt window lapses
NEW_LESSONS = {"dpia", "dpo", "pseudonymisation-anonymisation", "processor-contract"}


def linked_lessons() -> set[str]:
    return reach.linked_lessons(GAME)


def card_of(key: str) -> dict:
    for variant in GAME.variants:
        for card in GAME.cards(variant):
            if card.get("key") == key:
                return card
    raise LookupError(key)


def test_every_lesson_the_link_file_names_exists():
    links = json.loads((FIXTURES / "links" / f"{GAME.slug}.json").read_text(encoding="utf-8"))
    named = {link["lesson"] for link in links["cards"] + links["events"] if "lesson" in link}
    assert named
    assert named <= {lesson["slug"] for lesson in read_lessons()}


def test_each_lesson_of_the_data_science_file_is_linked_by_a_card():
    path = FIXTURES / "lessons" / "12_data_science.json"
    slugs = {lesson["slug"] for lesson in json.loads(path.read_text(encoding="utf-8"))}
    assert slugs == NEW_LESSONS
    card_links = LessonLink.objects.filter(game=GAME.slug, event="").select_related("lesson")
    linked: set[str] = set()
    for link in card_links:
        assert link.lesson is not None  # a card's link names its lesson
        linked.add(link.lesson.slug)
    assert slugs <= linked


@pytest.mark.parametrize(
    "key,slug",
    [
        ("dpia", "dpia"),
        ("senior_dora", "dpo"),
        ("processor_contract", "processor-contract"),
        ("pseudonymisation", "pseudonymisation-anonymisation"),
        ("anonymisation", "pseudonymisation-anonymisation"),
        ("differential_privacy", "pseudonymisation-anonymisation"),
        ("data_minimisation", "minimisation"),
        ("records_of_processing", "records-of-processing"),
        ("junior_dora", "records-of-processing"),
        ("cloud_credits", "international-transfers"),
        ("song_recommendations", "profiling"),
        ("scope_creep", "purpose-limitation"),
    ],
)
def test_a_data_protection_card_opens_its_own_lesson(key, slug):
    lesson = lesson_for_card(GAME, card_of(key))
    assert lesson is not None and lesson.slug == slug


@pytest.mark.parametrize(
    "event,key,slug",
    [
        ("hack", "dpia", "dpia"),
        ("hack", "processor_contract", "processor-contract"),
        ("promoted", "senior_dora", "dpo"),
        ("tool", "pseudonymisation", "pseudonymisation-anonymisation"),
        ("equipped", "records_of_processing", "records-of-processing"),
    ],
)
def test_playing_the_card_opens_its_lesson(event, key, slug):
    played = {"type": event, "seat": 0, "card": card_of(key)["id"]}
    lesson = lesson_for_event(GAME, played)
    assert lesson is not None and lesson.slug == slug


def test_every_event_a_link_names_has_a_label_for_the_teacher():
    events = set(LessonLink.objects.filter(game=GAME.slug).exclude(event="").values_list("event"))
    assert events
    assert {event for (event,) in events} <= set(GAME.event_labels)


def test_every_lesson_linked_to_the_game_opens_in_seeded_games():
    linked = linked_lessons()
    assert linked >= NEW_LESSONS
    shown, _events = reach.play_tables(GAME, GAMES, EXPIRE)
    assert sorted(linked - set(shown)) == []
