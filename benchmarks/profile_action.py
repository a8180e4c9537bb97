"""Where an action's time goes on the server: the write path under pyinstrument.

    .venv/bin/python -m benchmarks.profile_action [--actions 400] [--html out.html]

Starts its own Redis on loopback with a temporary SQLite database, opens a class of
30 students at tables of 4 (bots in the empty seats) and starts it, in this process.
Then it plays ``--actions`` random legal actions at random tables through
``live.write.act`` (what a socket's ``act`` runs: the match's one writer, the lessons
app's follower, each listening seat's state built once, the channel-layer messages, the
scheduling of bots and timers), and what each socket then does with its seat's state
(the log in its language, the JSON text; one socket per seat, in English),
under pyinstrument, in the database thread as uvicorn runs it (the channel layer on
the event loop). Prints the CPU time per action (every thread), the SQL statements per
action (a figure the machine's load does not change) and the profile; nothing runs beside
it (no worker: the queued bot and timer tasks just wait in Redis).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import shutil
import tempfile
import time
from pathlib import Path

from pyinstrument import Profiler

from benchmarks.load import CLASS_SIZE, MATCH_OPTIONS, TABLE_SIZE, environment
from benchmarks.stack import use_database
from config.services import free_port, redis_answers, redis_service, wait_until


def open_class(variant: str) -> list[int]:
    """Open and start a class of 30 students; return its matches' ids."""
    from django.contrib.auth import get_user_model

    from classroom.actions import (
        do_create_class,
        do_create_session,
        do_join_session,
        do_start_session,
    )
    from classroom.identity import new_device_id
    from classroom.models import Table

    teacher = get_user_model().objects.create_user("profile", password=secrets.token_urlsafe(16))
    session = do_create_session(
        do_create_class(teacher, "Profile"),
        game="data_tycoon",
        variant=variant,
        language="en",
        table_size=TABLE_SIZE,
        bots_fill=True,
        options=MATCH_OPTIONS,
        generated_nicknames=True,
    )
    for _n in range(CLASS_SIZE):
        do_join_session(session, "", new_device_id())
    do_start_session(session)
    return list(Table.objects.filter(session=session).values_list("match_id", flat=True))


def play(
    match_ids: list[int],
    actions: int,
    rng: random.Random,
    loop: asyncio.AbstractEventLoop | None = None,
) -> int:
    """Play random legal actions at random tables as a socket's ``act`` would, and hand
    each seat's state to a socket's outgoing step; return the actions played."""
    from games.matches import load_state
    from games.models import Match
    from live import write

    sent: list[dict] = []
    original = write.send_groups

    def send_groups(  # keep what the sockets will receive
        messages: list[tuple[str, dict]], loop: asyncio.AbstractEventLoop | None = None
    ) -> None:
        sent.extend(event for _group, event in messages if event["type"] == "table.states")
        original(messages, loop=loop)

    write.send_groups = send_groups
    played = 0
    while played < actions and match_ids:
        match_id = rng.choice(match_ids)
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.RUNNING:
            match_ids.remove(match_id)
            continue
        state = load_state(match)
        movers = state.to_move()
        if not movers:
            continue
        seat = rng.choice(sorted(movers))
        legal = state.legal_actions(seat)
        applied = write.act(match_id, seat, rng.choice(legal), match.version, loop=loop)
        played += 1
        del applied
        for event in sent:  # what each seat's socket does with its state
            socket_text(event)
        sent.clear()
    write.send_groups = original
    return played


def socket_text(event: dict) -> list[str]:
    """The texts the table's sockets send for the write path's ``table.states`` event (one
    socket per seat, in English, as ``live.consumers.TableConsumer.state_text`` writes
    them)."""
    from live.messages import state_with_log

    log = event["logs"]["en"]
    return [state_with_log(text, log).decode() for text in event["texts"].values()]


async def in_server(
    match_ids: list[int], actions: int, profiler: Profiler
) -> tuple[int, float, float, int]:
    """Play as uvicorn does: the write path in the one database thread of
    ``database_sync_to_async``, its channel-layer sends on this event loop. The profile
    is of that thread (the event loop's share shows as the wait for it)."""
    from channels.db import database_sync_to_async

    rng = random.Random(1)
    loop = asyncio.get_running_loop()

    def profiled() -> tuple[int, float, float, int]:
        from django.db import connection

        play(list(match_ids), 20, rng, loop)  # warm: imports, caches, connections
        queries = 0

        def count(execute, sql, params, many, context):
            nonlocal queries
            queries += 1
            return execute(sql, params, many, context)

        cpu, wall = time.process_time(), time.perf_counter()
        with connection.execute_wrapper(count):
            profiler.start()
            played = play(match_ids, actions, rng, loop)
            profiler.stop()
        return played, time.process_time() - cpu, time.perf_counter() - wall, queries

    result = await database_sync_to_async(profiled)()
    await asyncio.sleep(1)  # the last sends on this loop
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=400)
    parser.add_argument("--variant", default="expert")
    parser.add_argument("--html", help="also write the profile as HTML to this file")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="dp-profile-"))
    redis_port = free_port()
    env = environment(folder, redis_port)
    redis = redis_service(redis_port, folder / "redis", persist=False).start()
    try:
        wait_until(lambda: redis_answers(env["REDIS_URL"]), 15, "Redis", [redis])
        use_database(env)
        match_ids = open_class(args.variant)
        profiler = Profiler(interval=0.0005)
        played, cpu, wall, queries = asyncio.run(in_server(match_ids, args.actions, profiler))
    finally:
        redis.stop()
        shutil.rmtree(folder, ignore_errors=True)
    print(
        f"{played} actions: {1000 * cpu / played:.2f} ms of CPU and "
        f"{1000 * wall / played:.2f} ms of wall time per action (profiler included); "
        f"{queries / played:.1f} SQL statements per action (the benchmark's own reads "
        "of the match and its state included)"
    )
    print(profiler.output_text(unicode=True, show_all=False))
    if args.html:
        Path(args.html).write_text(profiler.output_html())


if __name__ == "__main__":
    main()
