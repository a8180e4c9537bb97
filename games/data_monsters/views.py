"""What a seat may see: the one place where hidden information leaves a state.

Cards appear as ids; ``game.cards(variant)`` maps an id to its card dict. Every
laboratory, the build, the global tools, the market and the completed challenges are
public; a seat sees its own hand; decks, recycle bins and other hands only as counts.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from games.data_monsters.cards import PENALTY
from games.engine import Text, gettext_noop
from games.engine.base import Zone

if TYPE_CHECKING:
    from games.data_monsters.rules import State

# The zones of ``state.to_json()`` the teacher's replay shows, every card face up.
SEAT_ZONES = (
    Zone("hands", gettext_noop("Hand")),
    Zone("labs", gettext_noop("Laboratory")),
    Zone("completed", gettext_noop("Challenges completed")),
)
TABLE_ZONES = (
    Zone("market", gettext_noop("Market")),
    Zone("build", gettext_noop("This turn's build")),
    Zone("challenge_deck", gettext_noop("Challenge deck (top last)"), face_down=True),
)
SET_NAMES = {
    "startup": gettext_noop("Startup set"),
    "enterprise": gettext_noop("Enterprise set"),
    "office": gettext_noop("Shared office deck"),
    "built": gettext_noop("A deck built with the deck builder"),
}


def view(state: State, seat: int | None) -> dict:
    """Return the JSON-able view of ``seat`` (``None``: the public, projector view)."""
    players = [
        {
            "seat": s,
            "set": state.sets[s],
            "lab": list(state.labs[s]),
            "hand_count": len(state.hands[s]),
            "deck_count": len(state.decks[state.pile[s]]),
            "recycle_count": len(state.recycle[state.pile[s]]),
            "completed": list(state.completed[s]),
            "unsafe": list(state.unsafe[s]),
        }
        for s in range(state.n)
    ]
    built = state.options.get(state.game.deck_option)
    if built:
        # The teacher's built decks are no secret at the table, as a starter set's list
        # is not: a seat that knows them can tell what is left to draw.
        for s, player in enumerate(players):
            player["deck_list"] = dict(Counter(built[s % len(built)]))
    window = None
    if state.window:
        w = state.window
        window = {
            k: w[k] for k in ("id", "seat", "challenge", "safe", "cost", "seconds", "waiting")
        }
    v = {
        "game": state.slug,
        "variant": state.variant,
        "seat": seat,
        "num_players": state.n,
        "ply": state.ply,
        "round": state.round,
        "first": state.first,
        "turn": state.turn,
        "phase": state.phase,
        "to_move": state.to_move(),
        "market": list(state.market),
        "challenge_deck_count": len(state.challenge_deck),
        "globals": [dict(g) for g in state.globals],
        "build": list(state.build),
        "pool": dict(state.pool),
        "limit_used": state.limit_used,
        "blocked": list(state.blocked),
        "safeguarded": state.safeguarded(state.turn),
        "costs": {c: state.cost(c) for c in state.market},
        "penalty": PENALTY,  # points a personal-data challenge loses without a safeguard
        "players": players,
        "window": window,
        "scores": state.scores(),
        "over": state.over,
        "result": state.result(),
        "last_events": [dict(e) for e in state.last_events],
    }
    if seat is not None:
        v["hand"] = list(state.hands[seat])
        # why a hand card cannot be played now (the board says it on the card's tray)
        v["refusals"] = {}
        if not state.over and not state.window and seat == state.turn and state.phase == "main":
            for card in state.hands[seat]:
                refusal = state.play_refusal(seat, card)
                if refusal is not None:
                    v["refusals"][card] = refusal.code
    return v


def seat_notes(data: dict, seat: int) -> list[Text]:
    """Return the replay's notes on a seat (``data``: the state's ``to_json``)."""
    return [Text(SET_NAMES[data["sets"][seat]])]
