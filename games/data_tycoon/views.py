"""What a seat may see: the one place where hidden information leaves a state.

Cards appear as ids; ``catalogue(variant)`` (or ``game.cards(variant)``) maps
an id to its card dict, and is sent to a client once per match.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.data_tycoon.cards import cards as _cards

if TYPE_CHECKING:
    from games.data_tycoon.rules import State

CALL_WINDOWS = ("call_data", "call_databreach")


def view(state: State, seat: int | None) -> dict:
    """Return the JSON-able view of ``seat`` (``None``: the public, projector view)."""
    players = []
    # ``[*cards]``: a copy without a call, for the many lists of every view
    for s in range(state.n):
        p = {
            "seat": s,
            "hand_count": len(state.hands[s]),
            "reserve_count": len(state.reserves[s]),
            "collection": [*state.collections[s]],
            "frozen": [*state.frozen[s]],
            "purposes": [*state.purposes[s]],
            "consents": [*state.consents[s]],
            "treasures": [
                {"label": tr["label"], "cards": [*tr["cards"]]} for tr in state.treasures[s]
            ]
            if state.treasures[s]
            else [],
            "skips": state.skips[s],
            "transparent_turns": state.transparent[s],
        }
        if state.transparent[s]:
            p["hand"] = [*state.hands[s]]  # Transparency: the hand is played open
        players.append(p)
    window = None
    if state.windows:
        w = state.windows[0]
        # A call window is known only to its actor: the others must not learn
        # that a Purpose or a Databreach card was drawn before it is called.
        if w["kind"] not in CALL_WINDOWS or w["seat"] == seat:
            window = _copy(w)
    v = {
        "game": "data_tycoon",
        "variant": state.variant,
        "seat": seat,
        "num_players": state.n,
        "ply": state.ply,
        "turn": state.turn,
        # where the turn stands (public): "play" (its card play to come), "after" (played,
        # a build or a split may follow), "end" or "next" (done, a window may be open), "over"
        "stage": state.stage,
        "to_move": state.to_move(),
        "deck_count": len(state.deck),
        "table": [*state.table],
        "pile": [*state.pile],
        "players": players,
        "window": window,
        "threats": [
            {k: t[k] for k in ("id", "seat", "attacker", "seconds", "turns") if k in t}
            for t in state.threats
        ]
        if state.threats
        else [],
        "time_mode": state.options["time_mode"],
        # the teacher's options (public): which special cards are left out, the deadlines
        "options": _copy(state.options),
        "scores": state.scores(),
        "over": state.over,
        "result": state.result() if state.over else None,
        "last_events": [e.copy() for e in state.last_events],
    }
    if seat is not None:
        v["hand"] = [*state.hands[seat]]
        v["reserve"] = [*state.reserves[seat]]
        v["undeclared"] = [*state.undeclared[seat]]
        v["hidden_breaches"] = [*state.hidden[seat]]
    return v


def _copy(mapping):
    """Return a copy of a flat dict whose list values are copied too."""
    # a dict's own copy, then a pass for the lists: faster than a comprehension of it
    copied = mapping.copy()
    for key, value in mapping.items():
        if isinstance(value, list):
            copied[key] = list(value)
    return copied


def catalogue(variant: str) -> dict[str, dict]:
    """Return ``{card id: card dict}`` for ``variant``: what a client needs to draw cards."""
    return {card["id"]: card for card in _cards(variant)}
