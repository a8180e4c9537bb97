"""Simulate matches between bots, without a database or a server.

    python -m games.simulate SLUG --games 500 --players 4 --variant expert \\
        --bots heuristic,random [--json]

Bots are given per seat (the list repeats when shorter than the table) and
rotate one seat per game, so every bot plays every seat. The referee's timers
are fired only when nobody may act, or with probability ``--expire`` per step.
Prints the win rate per bot, per seat and (for a game whose seats have roles,
``Game.seat_role``) per role, the turns per game, how often each
card kind is played and countered, and which tie-break level decided.
"""

import argparse
import json
import random
import statistics
import sys
from collections import Counter

from tqdm import tqdm

from games.engine.driver import play
from games.registry import get_game


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the simulator's arguments to ``parser`` (also used by ``manage.py simulate``)."""
    parser.add_argument("game", help="a registered game's slug")
    parser.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    parser.add_argument("--players", type=int, default=2, help="players per game (default 2)")
    parser.add_argument("--variant", default=None, help="variant (default: the game's default)")
    parser.add_argument(
        "--bots", default="heuristic,random", help="comma-separated bot names, one per seat"
    )
    parser.add_argument("--seed", type=int, default=0, help="first seed (game i uses seed+i)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. time_mode=turns (default for simulations)",
    )
    parser.add_argument(
        "--expire", type=float, default=0.0, help="chance per step that the referee fires a timer"
    )
    parser.add_argument("--no-rotate", action="store_true", help="keep bots on fixed seats")
    parser.add_argument("--json", action="store_true", help="print the statistics as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def _options(game, pairs):
    """Return the game options from ``KEY=VALUE`` strings (ints parsed)."""
    # No clock in a simulation: a game with a Time deadline counts it in turns.
    keys = {option.key for option in game.options}
    options: dict[str, int | str] = {"time_mode": "turns"} if "time_mode" in keys else {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"option {pair!r} is not KEY=VALUE")
        options[key] = int(value) if value.lstrip("-").isdigit() else value
    return options


# Past ruff's 50 statements only by its tallies' type declarations (one statement each).
def simulate(opts: dict, progress: bool = True) -> dict:  # noqa: PLR0915
    """Run the simulation described by ``opts`` (a dict of the arguments); return stats."""
    try:
        game = get_game(opts["game"])
    except KeyError:
        raise ValueError(f"unknown game {opts['game']!r}") from None
    variant = opts.get("variant") or game.default_variant
    if variant not in game.variants:
        raise ValueError(f"unknown variant {variant!r}; choose from {', '.join(game.variants)}")
    players, games = opts["players"], opts["games"]
    if not game.min_players <= players <= game.max_players:
        raise ValueError(f"{game.slug} needs {game.min_players} to {game.max_players} players")
    names = [b.strip() for b in opts["bots"].split(",") if b.strip()]
    unknown = [b for b in names if b not in game.bots]
    if not names or unknown:
        raise ValueError(f"unknown bot(s) {unknown}; choose from {', '.join(game.bots)}")
    options = _options(game, opts.get("option") or [])
    kinds = {card["id"]: card["kind"] for card in game.cards(variant)}
    # seats played and wins by bot, seat and role (a shared win adds 1/k: a float)
    bot_games: Counter[str]
    bot_wins: Counter[str]
    seat_wins: Counter[int]
    role_seats: Counter[str]
    role_wins: Counter[str]
    bot_games, bot_wins = Counter(), Counter()
    seat_wins, role_seats, role_wins = Counter(), Counter(), Counter()
    roles = [game.seat_role(players, s) for s in range(players)]
    # by card kind, attack, counter kind, call, tie-break level
    played: Counter[str]
    countered: Counter[str]
    counters_used: Counter[str]
    calls: Counter[str]
    decided: Counter[str]
    played, countered, counters_used, calls, decided = (Counter() for _ in range(5))
    turns, actions = [], []
    for i in tqdm(range(games), desc=game.slug, file=sys.stderr, disable=not progress):
        seed = opts.get("seed", 0) + i
        shift = 0 if opts.get("no_rotate") else i
        seat_bots = [names[(s + shift) % len(names)] for s in range(players)]
        state = game.new_state(players, seed, variant, options)
        turn_count = [0]

        def on_step(seat, action, events, turn_count=turn_count):
            """Tally one step."""
            if seat is not None and "card" in action and action["type"] != "freeze":
                played[kinds[action["card"]]] += 1
            if action["type"].startswith("call_"):
                calls[action["type"]] += 1
            for event in events:
                if event["type"] == "turn":
                    turn_count[0] += 1
                elif event["type"] == "countered":
                    countered[event["attack"]] += 1
                    counters_used[event["kind"]] += 1

        bots = [game.bot(name) for name in seat_bots]
        log = play(
            state, bots, random.Random(seed), expire=opts.get("expire") or 0.0, on_step=on_step
        )
        result = state.result()
        bot_games.update(seat_bots)
        role_seats.update(role for role in roles if role)
        _share_win(result["winners"], seat_bots, roles, (bot_wins, seat_wins, role_wins))
        decided[result["decided_by"]] += 1
        turns.append(turn_count[0])
        actions.append(len(log))
    return {
        "game": game.slug,
        "variant": variant,
        "players": players,
        "games": games,
        "options": options,
        "bots": {
            name: {
                "seats_played": bot_games[name],
                "wins": round(bot_wins[name], 3),
                "win_rate": round(bot_wins[name] / bot_games[name], 4),
            }
            for name in sorted(bot_games)
        },
        "seats": {str(s): round(seat_wins[s] / games, 4) for s in range(players)},
        # a role's win rate: its wins over its seats played (``Game.seat_role``)
        "roles": {
            role: {
                "seats_played": role_seats[role],
                "win_rate": round(role_wins[role] / role_seats[role], 4),
            }
            for role in sorted(role_seats)
        },
        "turns": _spread(turns),
        "actions": _spread(actions),
        "cards_played": dict(sorted(played.items())),
        "attacks_countered": dict(sorted(countered.items())),
        "counters_used": dict(sorted(counters_used.items())),
        "calls": dict(sorted(calls.items())),
        "decided_by": dict(sorted(decided.items())),
    }


def _share_win(winners, seat_bots, roles, tallies):
    """Count one game's win for its winners' bots, seats and roles (a shared win 1/k)."""
    bot_wins, seat_wins, role_wins = tallies
    share = 1 / len(winners)
    for s in winners:
        bot_wins[seat_bots[s]] += share
        seat_wins[s] += share
        if roles[s]:
            role_wins[roles[s]] += share


def _spread(values):
    """Return mean, standard deviation, min and max of ``values``."""
    if not values:
        return {"mean": 0, "stdev": 0, "min": 0, "max": 0}
    return {
        "mean": round(statistics.fmean(values), 2),
        "stdev": round(statistics.pstdev(values), 2),
        "min": min(values),
        "max": max(values),
    }


def format_stats(stats: dict) -> str:
    """Return the statistics as a plain-text report."""
    lines = [
        f"{stats['games']} games of {stats['game']} ({stats['variant']}), "
        f"{stats['players']} players, options {stats['options']}",
        "",
        "win rate per bot (a shared win counts 1/k):",
    ]
    for name, b in stats["bots"].items():
        lines.append(
            f"  {name:<12} {b['win_rate']:7.1%}  ({b['wins']} wins in {b['seats_played']} seats)"
        )
    lines.append("win rate per seat:")
    lines.extend(f"  seat {s:<7} {rate:7.1%}" for s, rate in stats["seats"].items())
    if stats["roles"]:
        lines.append("win rate per role (per seat of that role):")
        lines.extend(
            f"  {role:<12} {r['win_rate']:7.1%}  ({r['seats_played']} seats)"
            for role, r in stats["roles"].items()
        )
    t, a = stats["turns"], stats["actions"]
    lines.append(
        f"turns per game: mean {t['mean']}, stdev {t['stdev']}, min {t['min']}, max {t['max']}"
    )
    lines.append(f"actions per game: mean {a['mean']}, stdev {a['stdev']}")
    lines.append("cards played, by kind (attacks countered):")
    for kind, count in stats["cards_played"].items():
        lines.append(f"  {kind:<14} {count:7d}  ({stats['attacks_countered'].get(kind, 0)})")
    if "databreach" in stats["attacks_countered"]:
        lines.append(f"  databreach countered: {stats['attacks_countered']['databreach']}")
    # a game whose countered events name the attack rather than a card kind
    by_attack = {
        k: v for k, v in stats["attacks_countered"].items() if k not in stats["cards_played"]
    }
    by_attack.pop("databreach", None)
    if by_attack:
        lines.append(f"attacks countered, by attack: {by_attack}")
    lines.append(f"counters used: {stats['counters_used']}")
    lines.append(f"calls: {stats['calls']}")
    lines.append(f"decided by: {stats['decided_by']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv``, simulate, and print the report (or JSON)."""
    parser = argparse.ArgumentParser(prog="python -m games.simulate", description=__doc__)
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        stats = simulate(vars(args), progress=not args.quiet)
    except ValueError as exc:
        parser.error(str(exc))
    sys.stdout.write((json.dumps(stats, indent=2) if args.json else format_stats(stats)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
