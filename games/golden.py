"""Write the golden playthroughs: one seeded game per game and variant, action by action.

    python -m games.golden          # rewrite tests/games/golden/*.txt
    python -m games.golden --check  # exit 1 if a file differs

Each file lists every step: the seat, the action, the events (with their English
log line) and the public view after it, so that no rule changes silently.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from games.engine.driver import play
from games.registry import all_games

if TYPE_CHECKING:
    from games.engine.base import Game

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "tests" / "games" / "golden"
SEED = 2026
PLAYERS = 3
BOTS = ("heuristic", "random", "heuristic")
EXPIRE = 0.05  # the referee sometimes fires a timer first, so expiries are covered


def _dump(obj):
    """Return compact, stable JSON."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _public(state):
    """Return the public view without the parts the file shows separately."""
    view = state.view(None)
    view.pop("last_events", None)
    return view


def render(game: Game, variant: str) -> str:
    """Return the golden text of ``game`` in ``variant``."""
    try:
        describe = importlib.import_module(f"games.{game.slug}.text").describe_event
    except ImportError:
        describe = None

    def line(event):
        if describe is None:
            return f"  event {_dump(event)}"
        template, params = describe(event)
        return f"  event {_dump(event)}  # {template % params}"

    state = game.new_state(PLAYERS, SEED, variant)
    out = [f"# {game.slug} {variant}: seed {SEED}, {PLAYERS} players, bots {', '.join(BOTS)}"]
    out.extend(line(e) for e in state.view(None)["last_events"])
    out.append(f"  view {_dump(_public(state))}")
    step = [0]

    def on_step(seat, action, events):
        step[0] += 1
        out.append(f"{step[0]} seat {seat}: {_dump(action)}")
        out.extend(line(e) for e in events)
        out.append(f"  view {_dump(_public(state))}")

    bots = [game.bot(name) for name in BOTS[:PLAYERS]]
    play(state, bots, random.Random(SEED), expire=EXPIRE, on_step=on_step)
    out.append(f"# result {_dump(state.result())}")
    return "\n".join(out) + "\n"


def cases() -> list[tuple[Game, str, Path]]:
    """Return ``(game, variant, path)`` for every golden file."""
    return [
        (game, variant, GOLDEN_DIR / f"{game.slug}_{variant}.txt")
        for game in all_games()
        for variant in game.variants
    ]


def main(argv: list[str] | None = None) -> int:
    """Rewrite the golden files, or with ``--check`` report the ones that differ."""
    parser = argparse.ArgumentParser(prog="python -m games.golden", description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    differ = []
    for game, variant, path in cases():
        text = render(game, variant)
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                differ.append(path.name)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    for name in differ:
        sys.stderr.write(f"differs: {name}\n")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
