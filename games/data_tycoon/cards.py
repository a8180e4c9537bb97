"""The Data-Tycoon deck, loaded from ``fixtures/data_tycoon.json``.

The fixture is the one source of the 120 cards, of their names and of what each
card does (its ``effect``, in plain words) in every language; this module indexes
it for the rules (kind, colour, sign by id) and holds the card table ``CARD_RULES``
(how each special card may be played), which the rules and the bots both read.
"""

import copy
import json
from collections import namedtuple
from collections.abc import Iterable
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

# The rule book's numbers that the card texts speak of (the rules and the bots read them).
TREASURE_SIZE = 6  # Dataset cards in a new Data-Treasure
FREEZE_COUNT = 3  # cards a Purpose attack freezes
COMPLAINT_COUNT = 3  # cards a Complaint returns to the deck
LOSS_COUNT = 6  # cards a hidden Databreach or an expired Time card costs

# The declarative card table: how each special card may be played from the hand.
#   keep      -- may be placed face up beside the player's collection
#   set_aside -- may be kept face down in the reserve, to counter later
#   target    -- who it may attack (None: not an attack card), see rules.State._targets
#   counters  -- the card kinds that neutralise it (a counter window opens)
Rule = namedtuple("Rule", "keep set_aside target counters")
CARD_RULES = {
    "purpose": Rule(keep=True, set_aside=False, target="free_datasets", counters=()),
    "sanction": Rule(keep=False, set_aside=False, target="treasure", counters=("lawyer",)),
    "lawyer": Rule(keep=False, set_aside=True, target=None, counters=()),
    "transparency": Rule(keep=False, set_aside=True, target="anyone", counters=("transparency",)),
    "cybersecurity": Rule(keep=False, set_aside=True, target=None, counters=()),
    "databreach": Rule(keep=False, set_aside=False, target=None, counters=("cybersecurity",)),
    "consent": Rule(keep=True, set_aside=True, target=None, counters=()),
    "minimization": Rule(keep=False, set_aside=True, target="datasets", counters=("minimization",)),
    "time": Rule(keep=False, set_aside=True, target="assets", counters=("time",)),
    "complaint": Rule(
        keep=False, set_aside=False, target="datasets", counters=("lawyer", "consent")
    ),
}

RESERVE_KINDS = frozenset(kind for kind, rule in CARD_RULES.items() if rule.set_aside)


def cards(variant: str, kinds: Iterable[str] | None = None) -> list[dict]:
    """Return a fresh copy of the card dicts used in ``variant``.

    Each carries its ``effect`` in every language: what the card does in a match that
    deals ``kinds`` (default: the variant's whole deck), for the card tray and the
    attack prompts.
    """
    dealt = VARIANT_KINDS[variant] if kinds is None else frozenset(kinds)
    return [
        {**copy.deepcopy(card), "effect": effect(card["id"], dealt)}
        for card in ALL_CARDS
        if card["kind"] in VARIANT_KINDS[variant]
    ]


def effect_key(card_id: str) -> str:
    """Return the key of a card's effect text: its kind, a Dataset card's by sensitivity."""
    if KIND[card_id] == "dataset":
        return "dataset_sensitive" if SENSITIVE[card_id] else "dataset_simple"
    return KIND[card_id]


def effect(card_id: str, kinds: frozenset[str]) -> dict[str, str]:
    """Return what a card does in a match that deals the card ``kinds``, ``{language:
    text}``: its sentences that name only cards dealt (without Lawyers, nothing says
    that a Lawyer stops a Sanction)."""
    parts = [
        part["text"]
        for part in DATA["effects"][effect_key(card_id)]
        if kinds.issuperset(part.get("needs", ())) and kinds.isdisjoint(part.get("without", ()))
    ]
    return {language: " ".join(text[language] for text in parts) for language in DATA["languages"]}


def card_ids(variant: str) -> tuple[str, ...]:
    """Return the ids of the cards used in ``variant``, in catalogue order."""
    return VARIANT_IDS[variant]


def matches(card: str, target: str) -> bool:
    """Return whether ``card`` captures ``target``: same colour, or both sensitive of one sign."""
    if COLOUR[card] == COLOUR[target]:
        return True
    sign = SIGN[card]
    return sign is not None and sign == SIGN[target]


# What each card captures (``matches``), worked out once: the legal-action list asks for
# every card in hand against every card on the table.
CAPTURES = {card: frozenset(t for t in COLOUR if matches(card, t)) for card in COLOUR}
