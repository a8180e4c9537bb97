"""Rebuild a match from its seed and its action log."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.engine.base import Game, State


def replay(  # noqa: PLR0917
    game: Game,
    num_players: int,
    seed: int,
    variant: str,
    log: list[tuple[int | None, dict]],
    options: dict | None = None,
) -> State:
    """Return the state reached by applying ``log`` (a list of ``(seat, action)``)."""
    state = game.new_state(num_players, seed, variant, options)
    for seat, action in log:
        state.apply(seat, action)
    return state
