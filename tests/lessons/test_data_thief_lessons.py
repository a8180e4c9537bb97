"""Every lesson linked to Data Thief comes up in play: each attack opens its own lesson,
a countered attack the lesson of the measure that stopped it and then the one about
keeping proof, a theft the lesson about who must be told."""

import pytest

from games.registry import get_game
from lessons.links import lesson_for_event
from lessons.moments import lessons_opened
from tests.lessons import reach

pytestmark = pytest.mark.django_db

GAME = get_game("data_thief")
GAMES = 60
EXPIRE = 0.05  # now and then a manager lets the counter window lapse


def linked_lessons() -> set[str]:
    return reach.linked_lessons(GAME)


def card_of(kind: str, **attributes: object) -> str:
    for card in GAME.cards("standard"):
        if card["kind"] == kind and all(card.get(k) == v for k, v in attributes.items()):
            return card["id"]
    raise LookupError((kind, attributes))


def test_every_lesson_linked_to_the_game_opens_in_seeded_games():
    linked = linked_lessons()
    assert {"phishing", "paper-files", "encryption", "incident-records"} <= linked
    shown, _events = reach.play_tables(GAME, GAMES, EXPIRE)
    assert sorted(linked - set(shown)) == []


@pytest.mark.parametrize(
    "attack,slug",
    [
        ("phishing", "phishing"),
        ("ransomware", "ransomware-backups"),
        ("bin_raiding", "shredding"),
        ("lost_file", "paper-files"),
        ("stolen_laptop", "encryption"),
        ("misdirected_email", "misdirected-email"),
    ],
)
def test_an_attack_opens_its_own_lesson(attack, slug):
    card = card_of("attack", attack=attack)
    event = {"type": "attack", "seat": 2, "target": 0, "board": "paper", "card": card}
    lesson = lesson_for_event(GAME, event)
    assert lesson is not None and lesson.slug == slug


def test_a_countered_attack_opens_the_measures_lesson_then_the_proof():
    attack, measure = (
        card_of("attack", attack="bin_raiding"),
        card_of("measure", measure="shredder"),
    )
    event = {
        "type": "countered", "seat": 0, "attacker": 2, "board": "paper", "card": attack,
        "attack": "bin_raiding", "measure": measure, "kind": "shredder", "source": "board",
    }  # fmt: skip
    lesson = lesson_for_event(GAME, event)
    assert lesson is not None and lesson.slug == "shredding"
    first = lessons_opened(GAME, [event], lambda x: False)
    assert [lesson.slug for lesson, _e, _s in first] == ["shredding"]
    seen = {lesson.pk for lesson, _e, _s in first}
    # the measure's lesson was shown at this table: the next counter opens the proof's
    opened = lessons_opened(GAME, [event], lambda x: x.pk in seen)
    assert [lesson.slug for lesson, _e, _s in opened] == ["incident-records"]
