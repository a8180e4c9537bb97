"""What a seat may see: the one place where hidden information leaves a state.

Cards appear as ids; ``game.cards(variant)`` maps an id to its card dict. A measure
face down on a board is a back (``{"face_down": true}``) to everyone but its owner, who
sees its id; the thief's hand and the managers' hands are their own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.data_thief.cards import BY_ID, KIND, NATURES
from games.engine import Text, gettext_noop, ngettext_noop
from games.engine.base import Zone

if TYPE_CHECKING:
    from games.data_thief.rules import State

# The zones of ``state.to_json()`` the teacher's replay shows, every card face up.
SEAT_ZONES = (
    Zone("hands", gettext_noop("Hand")),
    Zone("proofs", gettext_noop("Attacks countered")),
)
TABLE_ZONES = (
    Zone("loot", gettext_noop("The thief's loot")),
    Zone("discard", gettext_noop("Discard pile")),
    Zone("thief_discard", gettext_noop("The thief's discard pile")),
    Zone("deck", gettext_noop("General pile (top last)"), face_down=True),
    Zone("thief_deck", gettext_noop("The thief's pile (top last)"), face_down=True),
)


def board_view(state: State, owner: int, nature: str, seat: int | None) -> list[dict]:
    """Return one board as ``seat`` sees it: face-down measures as backs to others."""
    out = []
    for card in state.boards[owner][nature]:
        if state.face_down(card):
            entry = {"kind": "measure", "face_down": True}
            if seat == owner:
                entry["card"] = card
        else:
            entry = {"kind": KIND[card], "face_down": False, "card": card}
            if KIND[card] == "data":
                entry["category"] = BY_ID[card]["category"]
        out.append(entry)
    return out


def view(state: State, seat: int | None) -> dict:
    """Return the JSON-able view of ``seat`` (``None``: the public, projector view)."""
    players = [
        {
            "seat": s,
            "role": "thief" if s == state.thief else "manager",
            "hand_count": len(state.hands[s]),
            "skips": state.skips[s],
            "boards": {nature: board_view(state, s, nature, seat) for nature in NATURES},
            "proofs": list(state.proofs[s]),
        }
        for s in range(state.n)
    ]
    window = None
    if state.window:
        window = dict(state.window)
    v = {
        "game": "data_thief",
        "variant": state.variant,
        "seat": seat,
        "num_players": state.n,
        "thief": state.thief,
        "ply": state.ply,
        "round": state.round,
        "rounds": state.rounds,
        "turn": state.turn,
        "to_move": state.to_move(),
        "deck_count": len(state.deck),
        "thief_deck_count": len(state.thief_deck),
        "discard": list(state.discard),
        "thief_discard": list(state.thief_discard),
        "loot": list(state.loot),
        "players": players,
        "window": window,
        "scores": state.scores(),
        "over": state.over,
        "result": state.result(),
        "last_events": [dict(e) for e in state.last_events],
    }
    if seat is not None:
        v["hand"] = list(state.hands[seat])
    return v


def seat_notes(data: dict, seat: int) -> list[Text]:
    """Return the replay's notes on a seat (``data``: the state's ``to_json``)."""
    role = gettext_noop("the thief") if seat == data["thief"] else gettext_noop("data manager")
    notes = [Text(role)]
    turns = data["skips"][seat]
    if turns:
        forms = ngettext_noop("misses %(turns)s more turn", "misses %(turns)s more turns")
        notes.append(Text.plural_form(forms, turns, {"turns": turns}))
    return notes


BOARD_TITLES = {
    "paper": gettext_noop("Paper board, opened with %(label)s"),
    "digital": gettext_noop("Digital board, opened with %(label)s"),
}


def card_groups(data: dict, seat: int) -> list[dict]:
    """Return a manager's two boards as the replay's groups (the first card names each)."""
    boards = data["boards"][seat]
    return [
        {"title": BOARD_TITLES[nature], "label": boards[nature][0], "cards": list(boards[nature])}
        for nature in NATURES
        if boards[nature]
    ]
