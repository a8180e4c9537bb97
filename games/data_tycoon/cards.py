"""The Data-Tycoon deck, loaded from ``fixtures/data_tycoon.json``.

The fixture is the one source of the 120 cards and of their names in every
language; this module indexes it for the rules (kind, colour, sign by id).
"""

import copy
import json
from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "data_tycoon.json"

with FIXTURE.open(encoding="utf-8") as _f:
    DATA = json.load(_f)

ALL_CARDS = DATA["cards"]
BY_ID = {card["id"]: card for card in ALL_CARDS}
KIND = {card["id"]: card["kind"] for card in ALL_CARDS}
COLOUR = {card["id"]: card["colour"] for card in ALL_CARDS}
SIGN = {card["id"]: card["sign"] for card in ALL_CARDS}
SENSITIVE = {card["id"]: card["sensitive"] for card in ALL_CARDS}
ORDER = {card["id"]: i for i, card in enumerate(ALL_CARDS)}
COLOURS = tuple(DATA["colours"])
SIGNS = tuple(DATA["signs"])
VARIANT_KINDS = {variant: frozenset(kinds) for variant, kinds in DATA["variants"].items()}
VARIANT_IDS = {
    variant: tuple(card["id"] for card in ALL_CARDS if card["kind"] in kinds)
    for variant, kinds in VARIANT_KINDS.items()
}


def cards(variant):
    """Return a fresh copy of the card dicts used in ``variant``."""
    kinds = VARIANT_KINDS[variant]
    return [copy.deepcopy(card) for card in ALL_CARDS if card["kind"] in kinds]


def card_ids(variant):
    """Return the ids of the cards used in ``variant``, in catalogue order."""
    return VARIANT_IDS[variant]
