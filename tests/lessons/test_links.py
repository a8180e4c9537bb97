"""Cards and engine events find their lesson through the links stored as data."""

import random

import pytest
from django.db.models import prefetch_related_objects

from games.registry import get_game
from lessons.links import (
    GameLinks,
    forget_kept_links,
    kept_links,
    lesson_about_event,
    lesson_for_card,
    lesson_for_event,
)
from lessons.models import Lesson, LessonLink
from lessons.moments import lessons_opened

pytestmark = pytest.mark.django_db


def card(kind, purpose=None, sign=None, sensitive=False):
    return {"id": "x", "kind": kind, "purpose": purpose, "sign": sign, "sensitive": sensitive}


@pytest.mark.parametrize(
    ("the_card", "slug"),
    [
        (card("dataset"), "personal-data"),
        (card("dataset", sign="health", sensitive=True), "health-data"),
        (card("dataset", sign="judicial", sensitive=True), "criminal-data"),
        (card("purpose", purpose="ai_training"), "ai-training"),
        (card("purpose", purpose="personalised_medicine"), "health-data"),
        (card("purpose"), "purpose-limitation"),
        (card("sanction"), "sanctions"),
        (card("databreach"), "breach-notification"),
    ],
)
def test_the_most_specific_card_link_wins(the_card, slug):
    lesson = lesson_for_card("data_tycoon", the_card)
    assert lesson is not None and lesson.slug == slug


def test_a_card_id_is_looked_up_in_the_game_catalogue():
    game = get_game("data_tycoon")
    sanction = next(c for c in game.cards("expert") if c["kind"] == "sanction")
    lesson = lesson_for_card(game, sanction["id"])
    assert lesson is not None and lesson.slug == "sanctions"
    assert lesson_for_card(game, "no-such-card") is None


def test_an_unknown_game_or_kind_opens_nothing():
    assert lesson_for_card("another_game", card("dataset")) is None
    assert lesson_for_card("data_tycoon", card("joker")) is None


@pytest.mark.parametrize(
    ("event", "slug"),
    [
        ({"type": "attack", "seat": 0, "target": 1, "card": "x", "kind": "sanction"}, "sanctions"),
        ({"type": "attack", "seat": 0, "target": 1, "card": "x", "kind": "purpose"}, "restriction"),
        ({"type": "frozen", "seat": 1, "card": "x"}, "restriction"),
        ({"type": "countered", "seat": 1, "kind": "lawyer", "attack": "x"}, "accountability"),
        ({"type": "treasures_lost", "seat": 1, "cause": "sanction"}, "sanctions"),
        ({"type": "treasures_lost", "seat": 1, "cause": "databreach"}, "hidden-breach"),
        ({"type": "databreach_called", "seat": 0, "cards": ["x"]}, "breach-notification"),
        ({"type": "databreach_discovered", "seat": 0, "cards": ["x"]}, "hidden-breach"),
        ({"type": "treasure_built", "seat": 0, "purpose": "x"}, "records-of-processing"),
        ({"type": "data_called", "seat": 0, "count": 1}, "purpose-limitation"),
    ],
)
def test_events_open_their_lesson(event, slug):
    lesson = lesson_for_event("data_tycoon", event)
    assert lesson is not None and lesson.slug == slug


def test_a_capture_opens_the_lesson_of_the_captured_card():
    game = get_game("data_tycoon")
    genetic = next(c for c in game.cards("expert") if c["sign"] == "genetic")
    simple = next(c for c in game.cards("expert") if c["kind"] == "dataset" and not c["sign"])
    event = {"type": "capture", "seat": 0, "card": simple["id"], "captured": genetic["id"]}
    lesson = lesson_for_event(game, event)
    assert lesson is not None and lesson.slug == "genetic-data"


def test_events_without_a_link_open_nothing():
    assert lesson_for_event("data_tycoon", {"type": "turn", "seat": 0}) is None
    assert lesson_for_event("data_tycoon", {"type": "deal", "counts": [3, 3]}) is None


def test_a_new_game_plugs_in_with_its_own_links():
    lesson = Lesson.objects.get(slug="security")
    LessonLink.objects.create(game="data_thief", kind="firewall", lesson=lesson)
    LessonLink.objects.create(game="data_thief", event="phished", lesson=lesson)
    assert lesson_for_card("data_thief", card("firewall")) == lesson
    assert lesson_for_event("data_thief", {"type": "phished"}) == lesson


def test_events_of_real_expert_games_resolve_to_lessons():
    """Random expert games: every special card played and every key event finds its lesson."""
    game = get_game("data_tycoon")
    seen = set()
    for seed in range(6):
        state = game.new_state(4, seed, "expert")
        rng = random.Random(seed)
        while not state.is_over():
            expiries = state.legal_actions(None)
            movers = state.to_move()
            if expiries and (not movers or rng.random() < 0.15):
                events = state.apply(None, rng.choice(expiries))
            else:
                seat = rng.choice(movers)
                events = state.apply(seat, rng.choice(state.legal_actions(seat)))
            for event in events:
                lesson = lesson_for_event(game, event)
                if event["type"] in {
                    "attack",
                    "countered",
                    "frozen",
                    "treasure_built",
                    "databreach_called",
                    "databreach_discovered",
                    "treasures_lost",
                    "capture",
                }:
                    assert lesson is not None, event
                if lesson is not None:
                    seen.add(event["type"])
    assert {"attack", "capture", "countered", "frozen"} <= seen


@pytest.mark.parametrize("slug", ["data_tycoon", "data_thief", "data_monsters", "conspiranoia"])
def test_the_game_s_links_read_at_once_find_what_each_event_s_own_read_finds(
    slug, django_assert_num_queries
):
    """A report asks about every event of a session: ``GameLinks`` reads the game's links
    in one query and must answer as ``lesson_about_event`` does, event by event."""
    game = get_game(slug)
    events = []
    for seed in range(6):
        state = game.new_state(game.min_players + seed % 2, seed, None, None)
        rng = random.Random(seed)
        for _step in range(400):
            if state.is_over():
                break
            movers = state.to_move()
            expiries = state.legal_actions(None)
            seat = rng.choice(movers) if movers else None
            legal = state.legal_actions(seat) if movers else expiries
            events += state.apply(seat, rng.choice(legal))
    assert events
    with django_assert_num_queries(1):
        links = GameLinks(game)
        found = [links.lesson_about_event(event) for event in events]
    expected = [lesson_about_event(game, event) for event in events]
    assert found == expected
    assert sum(lesson is not None for lesson in found) >= 10  # not a match of Nones


SANCTION = {"type": "attack", "seat": 0, "target": 1, "card": "x", "kind": "sanction"}


def opened(events: list[dict]) -> list[str]:
    return [lesson.slug for lesson, _event, _seats in lessons_opened("data_tycoon", events, never)]


def never(_lesson: Lesson) -> bool:
    return False


def test_live_play_reads_a_game_s_links_and_lesson_texts_once_per_process(
    django_assert_num_queries,
):
    assert opened([SANCTION]) == ["sanctions"]
    link = kept_links("data_tycoon").event_link(SANCTION)
    assert link is not None and link.lesson is not None
    prefetch_related_objects([link.lesson], "texts")
    # The next moves' lessons, the captured cards' included, and their texts: no query.
    game = get_game("data_tycoon")
    genetic = next(c for c in game.cards("expert") if c["sign"] == "genetic")
    capture = {"type": "capture", "seat": 0, "card": "x", "captured": genetic["id"]}
    with django_assert_num_queries(0):
        assert opened([SANCTION, capture]) == ["sanctions", "genetic-data"]
        link = kept_links("data_tycoon").event_link(SANCTION)
        assert link is not None and link.lesson is not None
        prefetch_related_objects([link.lesson], "texts")


def test_a_link_saved_in_this_process_is_used_at_the_next_move():
    assert opened([SANCTION]) == ["sanctions"]
    link = LessonLink.objects.get(game="data_tycoon", event="attack", qualifier="sanction")
    link.lesson = Lesson.objects.get(slug="security")
    link.save()
    assert opened([SANCTION]) == ["security"]
    link.delete()
    fresh = lesson_for_event("data_tycoon", SANCTION)  # reads the links, keeps nothing
    assert opened([SANCTION]) == ([fresh.slug] if fresh else []) != ["security"]


def test_a_link_changed_by_another_process_is_used_once_the_kept_links_expire(settings):
    settings.LESSON_LINKS_SECONDS = 60
    assert opened([SANCTION]) == ["sanctions"]
    security = Lesson.objects.get(slug="security")
    # An update sends no signal: as another process's change looks to this one.
    LessonLink.objects.filter(game="data_tycoon", event="attack", qualifier="sanction").update(
        lesson=security
    )
    assert opened([SANCTION]) == ["sanctions"]  # kept
    settings.LESSON_LINKS_SECONDS = 0
    forget_kept_links()
    kept_links("data_tycoon")  # read now, expired at once
    assert opened([SANCTION]) == ["security"]
