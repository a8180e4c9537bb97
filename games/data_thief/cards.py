"""The Data Thief card set, loaded from ``fixtures/data_thief.json``.

The fixture is the one source of the cards: each data card's category, each security
measure's nature and the attacks it stops, each attack's nature, what it steals (or the
turns it costs) and the measures that stop it, with names, a line of flavour and what
the card does, in every language. This module expands the copies into card instances.
"""

import copy
import json
from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "data_thief.json"

with FIXTURE.open(encoding="utf-8") as _f:
    DATA = json.load(_f)

CATEGORIES = tuple(DATA["categories"])  # standard, highly_confidential, sensitive
POINTS = {key: value["points"] for key, value in DATA["categories"].items()}
COUNTERED_POINTS = DATA["countered_points"]
NATURES = ("paper", "digital")  # the two boards of a manager, in the order shown


def _instances() -> list[dict]:
    """Return every card instance: the general pile's data and measures, then the attacks."""
    out = []
    for prefix, kind, key in (("d", "data", "data"), ("m", "measure", "measures")):
        for entry in DATA[key]:
            for copy_number in range(1, entry["copies"] + 1):
                card = {k: v for k, v in entry.items() if k != "copies"}
                card.update(id=f"{prefix}-{entry['key']}-{copy_number}", kind=kind)
                if kind == "data":
                    card["points"] = POINTS[entry["category"]]
                    card["data"] = entry["key"]
                    card["measure"] = card["attack"] = ""
                else:
                    card["measure"], card["category"], card["data"] = entry["key"], "", ""
                out.append(card)
    for entry in DATA["attacks"]:
        for copy_number in range(1, entry["copies"] + 1):
            card = {k: v for k, v in entry.items() if k != "copies"}
            card.update(id=f"a-{entry['key']}-{copy_number}", kind="attack", attack=entry["key"])
            card["category"] = card["data"] = ""
            out.append(card)
    return out


ALL_CARDS = _instances()
BY_ID = {card["id"]: card for card in ALL_CARDS}
KIND = {card["id"]: card["kind"] for card in ALL_CARDS}
GENERAL = tuple(c["id"] for c in ALL_CARDS if c["kind"] in ("data", "measure"))
THIEF_CARDS = tuple(c["id"] for c in ALL_CARDS if c["kind"] == "attack")


def cards(variant: str) -> list[dict]:
    """Return a fresh copy of the card dicts (both variants use the whole set)."""
    return copy.deepcopy(ALL_CARDS)


def stops(measure_id: str, attack_id: str) -> bool:
    """Tell whether the measure card ``measure_id`` stops the attack card ``attack_id``."""
    return BY_ID[measure_id]["measure"] in BY_ID[attack_id]["stopped_by"]


def fits(card_id: str, nature: str) -> bool:
    """Tell whether a measure or attack card belongs on a board of ``nature``."""
    return BY_ID[card_id]["nature"] in (nature, "both")
