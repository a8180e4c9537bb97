"""What opens a lesson, in words: the lesson library's "Opened by" and "In the games"."""

import json
from pathlib import Path

import pytest

from games.registry import all_games
from lessons.labels import _card_name, card_label
from lessons.links import game_catalogue

LINKS = Path(__file__).resolve().parents[2] / "fixtures" / "lessons" / "links"


def _card_links():
    for game in all_games():
        for link in json.loads((LINKS / f"{game.slug}.json").read_text())["cards"]:
            attributes = {k: v for k, v in link.items() if k not in ("kind", "lesson")}
            yield game, link["kind"], attributes


CARD_LINKS = list(_card_links())


def _matched(game, kind, attributes):
    """The cards a link stands for, as the label reads them: those with its attributes
    (a link naming none: those with none of the game's link attributes), else every card
    of its kind."""
    wanted = attributes or {name: "" for name in game.link_attributes}
    cards = [c for c in game_catalogue(game.slug).values() if c["kind"] == kind]
    exact = [c for c in cards if all((c.get(k) or "") == v for k, v in wanted.items())]
    return exact or cards


def test_every_game_links_cards_to_lessons():
    assert {game.slug for game, _kind, _attributes in CARD_LINKS} == {
        game.slug for game in all_games()
    }


@pytest.mark.parametrize("language", ["en", "es", "fr", "ru"])
def test_a_link_to_several_cards_is_not_named_after_one_of_them(language):
    """Every tool of Data Monsters opens the same lesson: the library says "Tool", not the
    name of the first tool; a Data Thief category names its data cards, not one of them."""
    groups = 0
    for game, kind, attributes in CARD_LINKS:
        names = {_card_name(card, language) for card in _matched(game, kind, attributes)}
        label = card_label(game.slug, kind, attributes, language)
        if len(names) > 1:
            groups += 1
            assert label not in names, (game.slug, kind, attributes, label)
        assert label.strip(), (game.slug, kind, attributes)
    assert groups >= 10


def test_the_names_of_groups_of_cards_are_translated():
    expected = {
        ("data_monsters", "tool", ()): {"en": "Tool", "fr": "Outil", "ru": "Инструмент"},
        ("data_monsters", "monster", (("monster", "dora"),)): {
            "en": "Dora, every level",
            "es": "Dora, todos los niveles",
        },
        ("data_thief", "data", (("category", "sensitive"),)): {
            "en": "Data cards: Sensitive",
            "fr": "Cartes donnée\u00a0: Sensible",
        },
        ("data_thief", "measure", ()): {"es": "Medida de seguridad"},
        ("conspiranoia", "attack", ()): {"en": "Attack"},  # one name for every Attack card
        ("data_tycoon", "purpose", ()): {"fr": "Finalité"},  # "Purpose: x", before the colon
    }
    for (game, kind, attributes), labels in expected.items():
        for language, label in labels.items():
            assert card_label(game, kind, dict(attributes), language) == label
