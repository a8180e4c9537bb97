"""The Data Monsters cards, loaded from ``fixtures/data_monsters.json``.

The fixture is the one source of the two starter sets (monsters, equipment, tools,
hacks) and the 15 challenges: what each card gives and needs, its name, a line of
flavour and what it does, in every language. This module expands the copies into card
instances per seat slot (each starter set, then the further copies a built deck may
hold), and checks a laboratory deck against the rule book's deck-building rules.
"""

import copy
import json
import re
from collections import Counter
from pathlib import Path

from games.engine import Text, gettext_noop, ngettext_noop

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
# Each monster's own name, by language: its Junior's name without the level ("Krol").
MONSTER_NAMES = {
    entry["monster"]: {
        language: re.sub(
            re.escape(DATA["levels"]["1"][language]), "", name, flags=re.IGNORECASE
        ).strip()
        for language, name in entry["name"].items()
    }
    for entry in DATA["lab"]
    if entry["kind"] == "monster" and entry["level"] == 1
}


def allowed_copies(entry: dict, factor: int = 1) -> int:
    """Return how many copies of the card ``entry`` a deck may hold (``factor`` 2: the
    office game's big deck)."""
    if entry["mark"] == "one":
        return factor
    if entry["mark"] == "many":
        return entry["max_copies"] * factor
    return MAX_COPIES * factor


def _instance(entry: dict, slot: int, number: int) -> dict:
    card = {**copy.deepcopy(DEFAULTS), **copy.deepcopy(entry)}
    del card["copies"]
    card.update(id=f"{slot}{entry['set'][0]}-{entry['key']}-{number}", slot=slot)
    return card


def _lab_instances() -> list[dict]:
    """Return the laboratory cards per seat slot: the starter sets first (their ids
    never change), then the further copies up to what a built deck may hold."""
    out = []
    for slot in range(1, SLOTS + 1):
        for entry in DATA["lab"]:
            out += [_instance(entry, slot, n) for n in range(1, entry["copies"] + 1)]
    for slot in range(1, SLOTS + 1):
        for entry in DATA["lab"]:
            extra = range(entry["copies"] + 1, allowed_copies(entry) + 1)
            out += [_instance(entry, slot, n) for n in extra]
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
STARTER_SIZE = {
    set_key: sum(e["copies"] for e in DATA["lab"] if e["set"] == set_key) for set_key in SETS
}
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
    return [c["id"] for c in LAB_CARDS if c["set"] == set_key and c["slot"] == slot][
        : STARTER_SIZE[set_key]
    ]


def starter_keys(set_key: str) -> list[str]:
    """Return the card keys of the starter set ``set_key``, one per copy."""
    return [e["key"] for e in DATA["lab"] if e["set"] == set_key for _ in range(e["copies"])]


def deck_ids(keys: list[str], slot: int) -> list[str]:
    """Return the card ids of a built deck of card ``keys`` at seat slot ``slot``
    (the deck must keep the deck-building rules: ``check_deck``)."""
    seen: Counter = Counter()
    ids = []
    for k in keys:
        seen[k] += 1
        ids.append(f"{slot}{ENTRIES[k]['set'][0]}-{k}-{seen[k]}")
    return ids


def interrupt_kinds(keys: list[str]) -> frozenset[str]:
    """Return the interrupts (``scope_creep``, ``complaint``) a deck of card ``keys`` holds."""
    return frozenset(ENTRIES[k].get("interrupt", "") for k in keys) - {""}


# The interrupts each seat's laboratory deck holds, by the set it plays (a built deck's
# own come from its list): as public as the set's card list, printed in the rules.
SET_INTERRUPTS = {set_key: interrupt_kinds(starter_keys(set_key)) for set_key in SETS}
SET_INTERRUPTS["office"] = frozenset().union(*SET_INTERRUPTS.values())


def has(card_id: str, keyword: str) -> bool:
    """Tell whether the card carries the keyword (limit, global, component, stack, ...)."""
    return keyword in BY_ID[card_id]["keywords"]


def key(card_id: str) -> str:
    """Return the card's key: the same for every copy of a card."""
    return BY_ID[card_id]["key"]


ONE_CARD = ngettext_noop(
    '%(card)s is a "one" card: at most %(allowed)s copy (this deck has %(count)s).',
    '%(card)s is a "one" card: at most %(allowed)s copies (this deck has %(count)s).',
)
MANY_CARD = ngettext_noop(
    "%(card)s says how many: at most %(allowed)s copy (this deck has %(count)s).",
    "%(card)s says how many: at most %(allowed)s copies (this deck has %(count)s).",
)
COPIES = ngettext_noop(
    "At most %(allowed)s copy of %(card)s (this deck has %(count)s).",
    "At most %(allowed)s copies of %(card)s (this deck has %(count)s).",
)


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
        allowed = allowed_copies(entry, factor)
        if count <= allowed:
            continue
        if entry["mark"] == "one":
            forms = ONE_CARD
        elif entry["mark"] == "many":
            forms = MANY_CARD
        else:
            forms = COPIES
        # The card's names by language: the platform shows the reader's.
        params = {"card": entry["name"], "allowed": allowed, "count": count}
        problems.append(Text.plural_form(forms, allowed, params))
    return problems
