"""Every lesson linked to Data-Tycoon comes up in play.

Seeded bot games over every variant, player count and Time mode, with the referee firing
timers now and then (a DATA! call missed, a counter not answered), go through the
engine and the platform's own choice of lessons (``lessons.moments.lessons_opened``,
each table's seen lessons kept in memory): no browser, no socket.
"""

import pytest

from games.registry import get_game
from lessons.links import lesson_for_event
from lessons.models import Lesson
from lessons.moments import lessons_opened
from tests.lessons import reach

pytestmark = pytest.mark.django_db

GAME = get_game("data_tycoon")
GAMES = 200
# The referee fires a timer before this share of the moves: calls and counters lapse.
EXPIRE = 0.05


def linked_lessons() -> set[str]:
    """Return the slugs of every lesson a Data-Tycoon link names."""
    return reach.linked_lessons(GAME)


def card_of(kind: str, **attributes: object) -> str:
    """Return the id of a card of ``kind`` with ``attributes`` in the expert deck."""
    for card in GAME.cards("expert"):
        if card["kind"] == kind and all(card.get(k) == v for k, v in attributes.items()):
            return card["id"]
    raise LookupError(kind)


def play_tables(games: int) -> tuple[dict[str, int], set[str]]:
    """Play ``games`` seeded games, on the clock and in turns; return how often each
    lesson opened, and the event types that opened one."""
    variants = len(GAME.variants)
    return reach.play_tables(
        GAME, games, EXPIRE, lambda i: {"time_mode": ("clock", "turns")[i // variants % 2]}
    )


@pytest.mark.timeout(900)  # a loaded CI machine: about 30 s of CPU
def test_every_lesson_linked_to_the_game_opens_in_seeded_games():
    linked = linked_lessons()
    assert len(linked) >= 25
    shown, events = play_tables(GAMES)
    assert sorted(linked - set(shown)) == []
    # The moments the game names for its purposes, a missed call and a lifted deadline.
    assert {"keep", "treasure_built", "attack", "data_missed", "time_lifted"} <= events


@pytest.mark.parametrize(
    "purpose,slug",
    [
        ("direct_marketing", "direct-marketing"),
        ("smart_services", "smart-services"),
        ("profiling", "profiling"),
        ("international_export", "international-transfers"),
        ("scientific_research", "scientific-research"),
        ("ai_training", "ai-training"),
        ("geolocation", "geolocation"),
    ],
)
def test_a_purpose_kept_thrown_or_built_opens_its_own_lesson(purpose, slug):
    card = card_of("purpose", purpose=purpose)
    kept = {"type": "keep", "seat": 0, "card": card, "kind": "purpose"}
    thrown = {"type": "attack", "seat": 0, "target": 1, "card": card, "kind": "purpose"}
    built = {"type": "treasure_built", "seat": 0, "purpose": card, "basis": "red", "cards": []}
    for event in (kept, thrown, built):
        lesson = lesson_for_event(GAME, event)
        assert lesson is not None and lesson.slug == slug, event["type"]


def test_once_the_table_saw_the_purpose_a_treasure_opens_the_record_and_a_freeze_the_restriction():
    card = card_of("purpose", purpose="profiling")
    purpose = Lesson.objects.get(slug="profiling")
    built = {"type": "treasure_built", "seat": 0, "purpose": card, "basis": "red", "cards": []}
    thrown = {"type": "attack", "seat": 0, "target": 1, "card": card, "kind": "purpose"}
    kept = {"type": "keep", "seat": 0, "card": card, "kind": "purpose"}

    def opened(event, seen):
        return [lesson.slug for lesson, _e, _s in lessons_opened(GAME, [event], seen)]

    assert opened(built, lambda lesson: False) == ["profiling"]
    assert opened(built, lambda lesson: lesson == purpose) == ["records-of-processing"]
    assert opened(thrown, lambda lesson: lesson == purpose) == ["restriction"]
    # Keeping a purpose the table knows already is not worth a card.
    assert opened(kept, lambda lesson: lesson == purpose) == []


def test_a_missed_data_call_and_a_lifted_deadline_open_a_lesson():
    missed = {"type": "data_missed", "seat": 0, "cards": [card_of("purpose")]}
    lifted = {"type": "time_lifted", "seat": 1}
    lesson = lesson_for_event(GAME, missed)
    assert lesson is not None and lesson.slug == "purpose-limitation"
    lesson = lesson_for_event(GAME, lifted)
    assert lesson is not None and lesson.slug == "purpose-limitation"
    assert {"data_missed", "time_lifted", "keep"} <= set(GAME.event_labels)
