"""Drive a match with bots: the loop shared by the simulator, the golden files and tests.

It plays the server's part too: when nobody may act, or (with probability
``expire``) before a seat acts, it fires one of the state's timers as the referee.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import repeat
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.engine.base import State
    from games.engine.bots import Bot
    from games.engine.rng import RandomSource


def play(
    state: State,
    bots: Sequence[Bot],
    rng: RandomSource,
    *,
    expire: float = 0.0,
    max_steps: int = 100_000,
    on_step: Callable[[int | None, dict, list[dict]], object] | None = None,
) -> list[tuple[int | None, dict]]:
    """Play ``state`` to the end; return the action log as ``[(seat, action), ...]``.

    Bots read the state's own legal-action lists (``peek_legal_actions``): they must not
    mutate them. The log holds a copy of each action played."""
    log: list[tuple[int | None, dict]] = []
    # the state's methods looked up once: this loop is most of a simulation's overhead
    is_over, to_move, peek, apply, apply_legal = (
        state.is_over,
        state.to_move,
        state.peek_legal_actions,
        state.apply,
        state.apply_legal,
    )
    # read once: a class attribute read through an instance is a slow look-up in CPython 3.11
    needs_view = [bot.needs_view for bot in bots]
    for _ in repeat(None, max_steps):  # no int object made per step, as range would
        movers = to_move()  # none once the match is over: is_over is asked only then
        if movers and not (expire and rng.random() < expire and state.timers()):
            seat = movers[0] if len(movers) == 1 else movers[rng.randrange(len(movers))]
            legal = peek(seat)
            view = state.view(seat) if needs_view[seat] else None
            action = bots[seat].choose(view, legal, rng)
        else:
            if is_over():
                return log
            seat = None
            legal = peek(None)
            if not legal:
                raise RuntimeError("nobody may act and no timer runs: the game is stuck")
            action = legal[rng.randrange(len(legal))]
        played = action.copy()  # the state's list is shared: the log keeps its own copy
        # checked here, in the list at hand (the state's own object is found by identity):
        # a legal action needs no second check, anything else is refused by ``apply``
        events = apply_legal(seat, action) if action in legal else apply(seat, action)
        log.append((seat, played))
        if on_step is not None:
            on_step(seat, played, events.copy())  # apply_legal's may be the state's own
    raise RuntimeError(f"the game did not end within {max_steps} steps")
