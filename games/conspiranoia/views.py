"""What a seat may see: the one place where hidden information leaves a state.

Cards appear as ids; ``catalogue(variant)`` (or ``game.cards(variant)``) maps an id
to its card dict, and is sent to a client once per match.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.conspiranoia.cards import cards as _cards
from games.engine import Text, gettext_noop
from games.engine.base import Zone

if TYPE_CHECKING:
    from games.conspiranoia.rules import State

# The zones of ``state.to_json()`` the teacher's replay shows, every card face up.
SEAT_ZONES = (
    Zone("identity", gettext_noop("Character card")),
    Zone("hands", gettext_noop("Hand")),
)
TABLE_ZONES = (
    Zone("table", gettext_noop("Table")),
    Zone("pile", gettext_noop("Played pile")),
    Zone("deck", gettext_noop("Deck (top last)"), face_down=True),
    Zone("box", gettext_noop("Box (characters nobody plays)"), face_down=True),
)


def view(state: State, seat: int | None) -> dict:
    """Return the JSON-able view of ``seat`` (``None``: the public, projector view)."""
    players = [
        {
            "seat": s,
            "character": state.character[s],
            "character_card": state.identity[s][0] if state.identity[s] else None,
            "life": state.life[s],
            "in_game": state.life[s] > 0,
            "hand_count": len(state.hands[s]),
            "dealer": s == state.dealer,
        }
        for s in range(state.n)
    ]
    window = None
    if state.window:
        window = {k: (list(v) if isinstance(v, list) else v) for k, v in state.window.items()}
        if window["kind"] == "choose":
            window["characters"] = state.free_characters()
    v = {
        "game": "conspiranoia",
        "variant": state.variant,
        "seat": seat,
        "num_players": state.n,
        "ply": state.ply,
        "stage": state.stage,
        "round": state.round,
        "max_rounds": state.options["max_rounds"],
        "life_points": state.options["life_points"],
        "dealer": state.dealer,
        "turn": state.turn,
        "to_move": state.to_move(),
        "deck_count": len(state.deck),
        "table": list(state.table),
        "pile": list(state.pile),
        "box": list(state.box),
        "players": players,
        "window": window,
        "out": list(state.out),
        "scores": state.scores(),
        "over": state.over,
        "result": state.result(),
        "last_events": [dict(e) for e in state.last_events],
    }
    if seat is not None:
        v["hand"] = list(state.hands[seat])
    return v


def catalogue(variant: str) -> dict:
    """Return ``{card id: card dict}`` for ``variant``: what a client needs to draw cards."""
    return {card["id"]: card for card in _cards(variant)}


def seat_notes(data: dict, seat: int) -> list[Text]:
    """Return the replay's notes on a seat (``data``: the state's ``to_json``)."""
    notes = []
    if data["dealer"] == seat and not data["over"]:
        notes.append(Text(gettext_noop("deals")))
    if seat in data["out"]:
        place = data["out"].index(seat) + 1
        notes.append(Text(gettext_noop("out of the game (order out: %(place)s)"), {"place": place}))
    return notes
