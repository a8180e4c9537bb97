"""Random playouts shared by the contract tests (any registered game, any seat, the referee
too), and a debrief observer fed with moves for the games' debrief tests."""

import random

from games.engine.base import Game, State, TableSummary

MAX_STEPS = 20_000
REFEREE_CHANCE = 0.15


def choose(state, rng):
    """Return a random ``(seat, action)``: a mover's action, or sometimes a timer expiry."""
    movers = state.to_move()
    expiries = state.legal_actions(None)
    if expiries and (not movers or rng.random() < REFEREE_CHANCE):
        return None, rng.choice(expiries)
    seat = rng.choice(movers)
    return seat, rng.choice(state.legal_actions(seat))


def playout(game, variant, players, seed, choice_seed, *, options=None, check=None):
    """Play a random game to its end, calling ``check(state, seat, action)`` before each step.

    ``check`` may return a replacement state (e.g. its JSON round trip) to go on with.
    Return ``(state, log)``.
    """
    state = game.new_state(players, seed, variant, options)
    rng = random.Random(choice_seed)
    log: list[tuple[int | None, dict]] = []
    for _ in range(MAX_STEPS):
        if state.is_over():
            return state, log
        seat, action = choose(state, rng)
        if check is not None:
            state = check(state, seat, action) or state
        state.apply(seat, action)
        log.append((seat, action))
    raise AssertionError(f"no end after {MAX_STEPS} steps")


def strings(obj, out=None):
    """Return the set of every string inside a JSON-like structure."""
    out = set() if out is None else out
    if isinstance(obj, str):
        out.add(obj)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            out.add(key)
            strings(value, out)
    elif isinstance(obj, list | tuple):
        for value in obj:
            strings(value, out)
    return out


def position(game, players, seed, steps, *, variant=None, options=None):
    """Return a match after ``steps`` moves of friendly (odd seats) and random bots (even
    seats), the referee firing the first timer when nobody may act; or its end."""
    state = game.new_state(players, seed, variant, options)
    rng = random.Random(seed)
    bots = [game.bot("heuristic" if s % 2 else "random") for s in range(players)]
    for _ in range(steps):
        if state.is_over():
            break
        movers = state.to_move()
        if not movers:
            state.apply(None, state.legal_actions(None)[0])
            continue
        seat = movers[0]
        view = state.view(seat) if bots[seat].needs_view else None
        state.apply(seat, bots[seat].choose(view, state.legal_actions(seat), rng))
    return state


def without_events(view):
    """Return ``view`` without its last events (a sampled state has no history)."""
    return {k: v for k, v in view.items() if k != "last_events"}


class DebriefTable:
    """A game's debrief observer fed with moves as the replay feeds it (``state``: the
    position the moves are played on; a move may bring its own)."""

    def __init__(
        self, game: Game, state: State | None = None, names: dict[int, str] | None = None
    ) -> None:
        self.game = game
        self.debrief = game.debrief()
        self.version = 0
        self.state = state
        self.names = names or {0: "Ana", 1: "Ben", 2: "Cleo"}

    def feed(self, seat: int, action: dict, state: State | None = None) -> list[dict]:
        """Apply a move to the position and feed it to the debrief; return its events."""
        if state is not None:
            self.state = state
        assert self.state is not None, "no position to play on"
        self.debrief.before(self.state, seat, action)
        events = self.state.apply(seat, action)
        self.version += 1
        self.debrief.after(self.state, self.version, events)
        return events

    def summary(self, over: bool = False) -> TableSummary:
        """Return the table's summary for the debrief's report (table number 4)."""
        assert self.state is not None, "no position to sum up"
        scores = self.state.scores()
        return TableSummary(
            number=4,
            names={s: self.names[s] for s in range(self.state.n)},
            events=[],
            scores=scores,
            ranks=self.game.rank(scores),
            winners=[],
            over=over,
        )
