"""Benchmark a game's engine: random-bot 4-player games on one core.

    python -m benchmarks.engine [--game data_tycoon] [--variant expert] [--games 2000]
                                [--views] [--profile]

Prints games per second and actions per second (a benchmark, not a test).
The driver builds no views for the random bot, so this measures the rules:
legal-action generation, apply and the turn flow. Measured on the development
machine (2 cores, Python 3.11), by CPU time, in 3 runs each right after one of the engine
before (1,457 to 1,551 games/s): Data-Tycoon expert 1,523 to 1,627 games/s (about 165
actions a game); valgrind's instruction count, which no load changes, 5.64 to 5.47
million a game; figures of every game in docs/benchmarks.md.
"""

import argparse
import cProfile
import os
import pstats
import random
import sys
import time

from games.engine.bots import RandomBot
from games.engine.driver import play
from games.registry import get_game

PLAYERS = 4
# Per game: the variant measured by default, and options that keep real time out.
DEFAULTS = {"data_tycoon": ("expert", {"time_mode": "turns"})}


class _ViewingRandomBot(RandomBot):
    """A random bot that makes the driver build its view, as a server would."""

    needs_view = True


def run(
    games: int,
    first_seed: int = 0,
    views: bool = False,
    slug: str = "data_tycoon",
    variant: str | None = None,
) -> tuple[float, float, int]:
    """Play ``games`` random-bot games; return ``(seconds, cpu_seconds, actions)``."""
    game = get_game(slug)
    default_variant, options = DEFAULTS.get(slug, (game.default_variant, None))
    variant = variant or default_variant
    make = (lambda: _ViewingRandomBot(game)) if views else (lambda: game.bot("random"))
    actions = 0
    start, cpu = time.perf_counter(), time.process_time()
    for seed in range(first_seed, first_seed + games):
        state = game.new_state(PLAYERS, seed, variant, options)
        actions += len(play(state, [make() for _ in range(PLAYERS)], random.Random(seed)))
    return time.perf_counter() - start, time.process_time() - cpu, actions


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.engine", description=__doc__)
    parser.add_argument("--game", default="data_tycoon", help="a registered game's slug")
    parser.add_argument("--variant", default=None, help="default: expert, or the game's")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--profile", action="store_true", help="print where the time goes")
    parser.add_argument("--views", action="store_true", help="also build each mover's view")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    variant = args.variant or DEFAULTS.get(args.game, (get_game(args.game).default_variant,))[0]
    run(50, first_seed=10**6, slug=args.game, variant=variant)  # warm up
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
    seconds, cpu, actions = run(args.games, views=args.views, slug=args.game, variant=variant)
    if args.profile:
        profiler.disable()
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(15)
    sys.stdout.write(
        f"{args.games} random-bot {PLAYERS}-player {args.game} {variant} games"
        f"{' (with views)' if args.views else ''} in {seconds:.2f} s on one core: "
        f"{args.games / seconds:.0f} games/s, {actions / seconds:.0f} actions/s "
        f"({actions / args.games:.0f} actions per game); by CPU time (the figure a shared "
        f"machine changes least): {args.games / cpu:.0f} games/s, {actions / cpu:.0f} actions/s\n"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
