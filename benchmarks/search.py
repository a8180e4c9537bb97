"""Benchmark the strong (search) bot: how long one decision takes, as a live bot's move.

    python -m benchmarks.search [--game data_tycoon] [--variant expert] [--players 4]
                                [--games 4] [--iterations N] [--depth N]

The game's search bot (``bots["search"]``: its own budget unless one is given) plays
one seat (a different one each game) against the friendly bot; every decision it
searches (more than one legal action) is timed, on one core. Prints
the median and 95th percentile of the wall-clock and the CPU time per decision, and the
iterations spent (a benchmark, not a test; the CPU time is what an idle worker core
would take: the wall clock grows when other processes share the core).
"""

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import TypedDict

from games.engine.bots import Bot
from games.engine.driver import play
from games.engine.rng import RandomSource
from games.engine.search import SearchBot
from games.registry import get_game

DEFAULTS = {"data_tycoon": ("expert", {"time_mode": "turns"})}

# One searched decision: (wall seconds, CPU seconds, iterations spent).
Record = tuple[float, float, int]


class Budget(TypedDict):
    """The search bot's budget given on the command line (None: the bot's own)."""

    iterations: int | None
    depth: int | None


class _Timed(Bot):
    """A search bot's decisions, each timed with the iterations it spent."""

    def __init__(self, bot: SearchBot, records: list[Record]) -> None:
        super().__init__(bot.game)
        self.bot, self.records, self.needs_view = bot, records, bot.needs_view

    def choose(self, view: dict | None, legal_actions: list[dict], rng: RandomSource) -> dict:
        wall, cpu = time.perf_counter(), time.process_time()
        action = self.bot.choose(view, legal_actions, rng)
        if self.bot.last_iterations:
            self.records.append(
                (time.perf_counter() - wall, time.process_time() - cpu, self.bot.last_iterations)
            )
        return action


def run(
    slug: str, variant: str, players: int, games: int, budget: Budget, *, first_seed: int = 0
) -> list[Record]:
    """Play ``games`` games; return ``(wall, cpu, iterations)`` per searched decision."""
    game = get_game(slug)
    options = DEFAULTS.get(slug, (None, None))[1]
    records: list[Record] = []
    for seed in range(first_seed, first_seed + games):
        bots = [game.bot("heuristic") for _ in range(players)]
        # the game's own strong bot (a game may set its budget), budget overrides given
        search = game.bots["search"]
        assert issubclass(search, SearchBot)  # every game's is (its iterations are timed)
        strong = search(game, **budget)
        bots[seed % players] = _Timed(strong, records)
        state = game.new_state(players, seed, variant, options)
        play(state, bots, random.Random(seed))
    return records


def _percentile(values: Sequence[float], share: float) -> float:
    """Return the ``share`` percentile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.search", description=__doc__)
    parser.add_argument("--game", default="data_tycoon", help="a registered game's slug")
    parser.add_argument("--variant", default=None, help="default: expert, or the game's")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--iterations", type=int, default=None, help="default: the bot's")
    parser.add_argument("--depth", type=int, default=None, help="default: the bot's")
    args = parser.parse_args(argv)
    game = get_game(args.game)
    variant = args.variant or DEFAULTS.get(args.game, (game.default_variant,))[0]
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    budget: Budget = {"iterations": args.iterations, "depth": args.depth}
    run(args.game, variant, args.players, 1, budget, first_seed=10**6)  # warm up
    records = run(args.game, variant, args.players, args.games, budget)
    wall, cpu, iterations = zip(*records, strict=True)
    sys.stdout.write(
        f"search bot, {args.players}-player {args.game} {variant}, {args.games} games, "
        f"{len(records)} searched decisions on one core:\n"
        f"  wall clock per decision: median {statistics.median(wall) * 1000:.0f} ms, "
        f"p95 {_percentile(wall, 0.95) * 1000:.0f} ms, max {max(wall) * 1000:.0f} ms\n"
        f"  CPU time per decision:   median {statistics.median(cpu) * 1000:.0f} ms, "
        f"p95 {_percentile(cpu, 0.95) * 1000:.0f} ms\n"
        f"  iterations per decision: median {statistics.median(iterations):.0f}, "
        f"max {max(iterations)}\n"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
