"""The Data-Tycoon deck, loaded from ``fixtures/data_tycoon.json``.

The fixture is the one source of the 120 cards, of their names and of what each
card does (its ``effect``, in plain words) in every language; this module indexes
it for the rules (kind, colour, sign by id).
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
    """Return a fresh copy of the card dicts used in ``variant``.

    Each carries its ``effect`` in every language: what the card does in this
    variant, for the card tray and the attack prompts.
    """
    kinds = VARIANT_KINDS[variant]
    return [
        {**copy.deepcopy(card), "effect": effect(card["id"], variant)}
        for card in ALL_CARDS
        if card["kind"] in kinds
    ]


def effect_key(card_id):
    """Return the key of a card's effect text: its kind, a Dataset card's by sensitivity."""
    if KIND[card_id] == "dataset":
        return "dataset_sensitive" if SENSITIVE[card_id] else "dataset_simple"
    return KIND[card_id]


def effect(card_id, variant):
    """Return what a card does in ``variant``, ``{language: text}``.

    A variant overrides a kind's text where its deck changes it (the Lawyer also
    stops a Complaint only where there are Complaints).
    """
    key = effect_key(card_id)
    texts = DATA["variant_effects"].get(variant, {}).get(key) or DATA["effects"][key]
    return dict(texts)


def card_ids(variant):
    """Return the ids of the cards used in ``variant``, in catalogue order."""
    return VARIANT_IDS[variant]
