"""What a redraw of the teacher's live dashboard costs: each table's part after a move.

    .venv/bin/python -m benchmarks.dashboard [--rounds 200] [--moved N] [--profile]

Starts its own Redis on loopback with a temporary SQLite database, opens a class of
30 students at tables of 4 (bots in the empty seats) and starts it, in this process.
Each round plays one random legal action at every table (``games.matches.apply_action``,
the match's writer), or at ``--moved`` tables drawn at random (in a class playing at a
human pace, about two of its eight tables move in a second), then draws the parts of
the tables that moved as the dashboard's socket does after a second of moves
(``live.session_sockets.render_tables``). Prints the CPU time per
table part drawn and the SQL statements per redraw (a figure the machine's load does not
change); ``--profile`` adds pyinstrument's profile of the drawings.
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from pathlib import Path

from pyinstrument import Profiler

from benchmarks.load import environment
from benchmarks.profile_action import open_class
from benchmarks.stack import use_database
from config.services import free_port, redis_answers, redis_service, wait_until


def move_at(match_ids: list[int], rng: random.Random, moved: int | None) -> list[int]:
    """Play one random legal action at each running match, or at ``moved`` of them drawn
    at random; return the matches where one was played."""
    from games.matches import apply_action, load_state
    from games.models import Match

    played = []
    running = list(Match.objects.filter(pk__in=match_ids, status=Match.Status.RUNNING))
    if moved is not None:
        running = rng.sample(running, min(moved, len(running)))
    for match in running:
        state = load_state(match)
        movers = state.to_move()
        seat = rng.choice(sorted(movers)) if movers else None
        legal = state.legal_actions(seat)
        if legal:
            apply_action(match.pk, seat, rng.choice(legal), match.version)
            played.append(match.pk)
    return played


def redraw(session_id: int, table_ids: set[int], language: str) -> tuple[float, int, int]:
    """Draw the parts of ``table_ids``; return the CPU seconds, the SQL statements and the
    length of the HTML."""
    from django.db import connection

    from live.session_sockets import render_tables

    queries = 0

    def count(execute, sql, params, many, context):
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    cpu = time.process_time()
    with connection.execute_wrapper(count):
        html = render_tables(session_id, language, table_ids)
    return time.process_time() - cpu, queries, len(html or "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--variant", default="expert")
    parser.add_argument("--language", default="en")
    parser.add_argument(
        "--moved", type=int, default=None, help="tables moved a round (default: every table)"
    )
    parser.add_argument("--profile", action="store_true", help="print where the time goes")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="dp-dashboard-"))
    redis_port = free_port()
    env = environment(folder, redis_port)
    redis = redis_service(redis_port, folder / "redis", persist=False).start()
    profiler = Profiler(interval=0.0005)
    try:
        wait_until(lambda: redis_answers(env["REDIS_URL"]), 15, "Redis", [redis])
        use_database(env)
        from classroom.models import Table

        match_ids = open_class(args.variant)
        tables = Table.objects.filter(match_id__in=match_ids)
        session_id = tables[0].session_id
        table_of_match = dict(tables.values_list("match_id", "pk"))
        table_ids = set(table_of_match.values())
        rng = random.Random(1)
        for _ in range(5):  # warm: imports, templates, prepared queries
            move_at(match_ids, rng, None)
            redraw(session_id, table_ids, args.language)
        cpu, queries, parts, size, rounds = 0.0, 0, 0, 0, 0
        for _ in range(args.rounds):
            played = move_at(match_ids, rng, args.moved)
            if not played:
                break
            if args.profile:
                profiler.start()
            moved = {table_of_match[match_id] for match_id in played}
            seconds, statements, length = redraw(session_id, moved, args.language)
            if args.profile:
                profiler.stop()
            cpu, queries, parts, size = (
                cpu + seconds,
                queries + statements,
                parts + len(played),
                size + length,
            )
            rounds += 1
    finally:
        redis.stop()
        shutil.rmtree(folder, ignore_errors=True)
    print(
        f"{rounds} redraws of the {len(table_ids)} tables' parts that moved ({parts} parts): "
        f"{1000 * cpu / parts:.3f} ms of CPU per table part, {1000 * cpu / rounds:.2f} ms per "
        f"redraw; {queries / rounds:.1f} SQL statements per redraw; {size / rounds / 1024:.1f} "
        "KiB of HTML per redraw"
    )
    if args.profile:
        print(profiler.output_text(unicode=True, show_all=False))


if __name__ == "__main__":
    main()
