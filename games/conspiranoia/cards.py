"""The Conspiranoia deck and characters, loaded from ``fixtures/conspiranoia.json``.

The fixture is the one source of the 52 cards, the four characters, their names
and what each card does (its kind's ``effect``, in plain words) in every
language; this module indexes it for the rules.
"""

import copy
import json
from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "conspiranoia.json"

with FIXTURE.open(encoding="utf-8") as _f:
    DATA = json.load(_f)

ALL_CARDS = DATA["cards"]
BY_ID = {card["id"]: card for card in ALL_CARDS}
KIND = {card["id"]: card["kind"] for card in ALL_CARDS}
CHARACTER = {card["id"]: card["character"] for card in ALL_CARDS}
ORDER = {card["id"]: i for i, card in enumerate(ALL_CARDS)}
KINDS = tuple(DATA["kinds"])
CHARACTERS = tuple(DATA["characters"])  # greys, shapeshifters, investigators, men_in_black
AVATARS = {
    character: tuple(card["id"] for card in ALL_CARDS if card["character"] == character)
    for character in CHARACTERS
}
# The first Avatar card of a character is the one a player takes as their character
# card; the other three go into the deck.
IDENTITY = {character: ids[0] for character, ids in AVATARS.items()}
CARD_IDS = tuple(card["id"] for card in ALL_CARDS)


def cards(variant: str) -> list[dict]:
    """Return a fresh copy of the card dicts (every variant uses the whole deck).

    An Avatar card carries its character's mission and origin, in every language: the
    board shows them while a player chooses a character and beside the chosen one.
    Every card carries its ``effect``, what it does in plain words, for the card tray.
    """
    return [_for_catalogue(copy.deepcopy(card)) for card in ALL_CARDS]


def _for_catalogue(card: dict) -> dict:
    card["effect"] = copy.deepcopy(DATA["kinds"][card["kind"]]["effect"])
    if card["character"] is not None:
        cast = DATA["characters"][card["character"]]
        card.update(mission=copy.deepcopy(cast["mission"]), origin=copy.deepcopy(cast["origin"]))
    return card


def card_ids(variant: str) -> tuple[str, ...]:
    """Return the ids of the cards used in ``variant``, in catalogue order."""
    return CARD_IDS


def character(slug: str) -> dict:
    """Return a copy of the fixture entry of character ``slug`` (names, alignment, mission)."""
    return copy.deepcopy(DATA["characters"][slug])
