"""The Data Monsters cards, loaded from ``fixtures/data_monsters.json``.

The fixture is the one source of the two starter sets (monsters, equipment, tools,
hacks) and the 15 challenges: what each card gives and needs, its name, a line of
flavour and what it does, in every language. This module expands the copies into card
instances, one copy of each starter set per seat slot, and checks a laboratory deck
against the rule book's deck-building rules.
"""

import copy
import json
from collections import Counter
from pathlib import Path

from games.engine import Text, gettext_noop

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "data_monsters.json"

with FIXTURE.open(encoding="utf-8") as _f:
    DATA = json.load(_f)

SETS = tuple(DATA["sets"])  # startup, enterprise
SLOTS = 4  # one copy of each starter set per seat of the largest table
PENALTY = DATA["unsafeguarded_penalty"]
MIN_DECK, MAX_DECK, MAX_COPIES = 20, 30, 2
DEFAULTS = {
    "tech": 0,
    "sci": 0,
    "draw": 0,
    "keywords": [],
    "requires": [],
    "safeguard": False,
    "start": {},
    "end": {},
    "bonus": {},
    "recipe": [],
    "interrupt": "",
    "global": {},
    "mark": "",
    "monster": "",
    "level": 0,
    "class": "",
}
ENTRIES = {entry["key"]: entry for entry in DATA["lab"]}


def _lab_instances() -> list[dict]:
    """Return the laboratory cards: every starter set once per seat slot."""
    out = []
    for slot in range(1, SLOTS + 1):
        for entry in DATA["lab"]:
            for number in range(1, entry["copies"] + 1):
                card = {**copy.deepcopy(DEFAULTS), **copy.deepcopy(entry)}
                del card["copies"]
                card.update(id=f"{slot}{entry['set'][0]}-{entry['key']}-{number}", slot=slot)
                out.append(card)
    return out


def _challenges() -> list[dict]:
    """Return the 15 challenge cards."""
    out = []
    for entry in DATA["challenges"]:
        card = copy.deepcopy(entry)
        card.update(id=f"ch-{entry['key']}", points=5 + entry["circles"])
        out.append(card)
    return out


LAB_CARDS = _lab_instances()
CHALLENGES = _challenges()
ALL_CARDS = LAB_CARDS + CHALLENGES
BY_ID = {card["id"]: card for card in ALL_CARDS}
KIND = {card["id"]: card["kind"] for card in ALL_CARDS}
BASIC = tuple(c["id"] for c in CHALLENGES if not c["hard"])
HARD = tuple(c["id"] for c in CHALLENGES if c["hard"])


_ALL_JSON = json.dumps(ALL_CARDS)


def cards(variant: str) -> list[dict]:
    """Return a fresh copy of the card dicts (every variant holds every card)."""
    return json.loads(_ALL_JSON)  # a fresh copy, much faster than deepcopy


def starter(set_key: str, slot: int) -> list[str]:
    """Return the ids of the starter set ``set_key`` of seat slot ``slot`` (1 to 4)."""
    return [c["id"] for c in LAB_CARDS if c["set"] == set_key and c["slot"] == slot]


def has(card_id: str, keyword: str) -> bool:
    """Tell whether the card carries the keyword (limit, global, component, stack, ...)."""
    return keyword in BY_ID[card_id]["keywords"]


def key(card_id: str) -> str:
    """Return the card's key: the same for every copy of a card."""
    return BY_ID[card_id]["key"]


def check_deck(keys: list[str], office_players: int = 0) -> list[Text]:
    """Return every deck-building rule that a deck of card ``keys`` breaks (none: valid).

    ``office_players`` > 0 checks a big office deck for that many players instead.
    """
    problems = []
    unknown = sorted({k for k in keys if k not in ENTRIES})
    for k in unknown:
        problems.append(Text(gettext_noop("There is no card %(card)s."), {"card": k}))
    low, high = (20 * office_players, None) if office_players else (MIN_DECK, MAX_DECK)
    if len(keys) < low:
        problems.append(Text(gettext_noop("A deck needs at least %(low)s cards."), {"low": low}))
    if high is not None and len(keys) > high:
        problems.append(Text(gettext_noop("A deck holds at most %(high)s cards."), {"high": high}))
    factor = 2 if office_players else 1
    for k, count in sorted(Counter(k for k in keys if k in ENTRIES).items()):
        entry = ENTRIES[k]
        if entry["mark"] == "one":
            allowed = factor
            message = gettext_noop('%(card)s is a "one" card: at most %(allowed)s copies.')
        elif entry["mark"] == "many":
            allowed = entry["max_copies"] * factor
            message = gettext_noop("%(card)s says how many: at most %(allowed)s copies.")
        else:
            allowed = MAX_COPIES * factor
            message = gettext_noop("At most %(allowed)s copies of %(card)s.")
        if count > allowed:
            problems.append(Text(message, {"card": entry["name"]["en"], "allowed": allowed}))
    return problems
