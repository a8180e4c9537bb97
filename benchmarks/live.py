"""Measure live play end to end: real Redis, a real Celery worker, a real uvicorn.

    .venv/bin/python -m benchmarks.live [--students 12] [--table-size 4] [--variant expert]

Starts the services on free ports with a temporary database, opens a session, joins
every student through ``POST /join/`` like ``clients/random_client.py``, starts the
session, and lets every seat play uniformly random legal actions as fast as the
server answers, until every table's game is over. Prints the actions per second, the
round trip of an action: from sending ``act`` to receiving the ``state`` with the
new version, at the seat that acted (median, 95th percentile, maximum), and the CPU
time of the one uvicorn process per action: over the whole run, and in steady play,
from the moment every seat has its first state to the end of the first game
(``benchmarks.bare --platform`` sets the latter beside its stack's floor, measured the
same way).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import websockets
from websockets.typing import Origin

from benchmarks.load import CLK_TCK, environment, main_thread_ticks, process_usage
from config.services import (
    BASE_DIR,
    asgi_service,
    celery_worker_service,
    free_port,
    port_open,
    redis_answers,
    redis_service,
    wait_for_celery,
    wait_until,
)


def manage(env: dict[str, str], *args: str) -> str:
    """Run a management command; return its output."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        env=env,
        cwd=BASE_DIR,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def join(base: str, code: str, nickname: str) -> dict:
    """Join the session as a program; return the seat token answer."""
    request = urllib.request.Request(
        base + "/join/",
        data=json.dumps({"code": code, "nickname": nickname}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


@dataclass
class Play:
    """What the seats share while they play: the actions sent so far, each action's
    round trip (seconds), the seats that have their first state, and an event set when
    the first game is over."""

    seats: int
    acted: int = 0
    round_trips: list[float] = field(default_factory=list)
    ready: int = 0
    all_ready: asyncio.Event = field(default_factory=asyncio.Event)
    first_over: asyncio.Event = field(default_factory=asyncio.Event)
    too_fast: int = 0  # acts the socket's rate limit refused, sent again


async def seat(base: str, joined: dict, rng: random.Random, play: Play) -> None:
    """Play one seat to the end. A seat that fails ends the run (``play_all`` raises its
    error) rather than leaving the others waiting for a game that cannot end."""
    try:
        await _play_seat(base, joined, rng, play)
    except BaseException:
        play.all_ready.set()
        play.first_over.set()
        raise


async def _play_seat(base: str, joined: dict, rng: random.Random, play: Play) -> None:
    host = base.split("://", 1)[1]
    url = f"ws://{host}{joined['ws']}"
    sent_at: dict[int, float] = {}
    sent = ""
    first = True
    async with websockets.connect(url, max_size=2**23, origin=Origin(base)) as ws:
        await ws.send(json.dumps({"type": "auth", "token": joined["token"]}))
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 120))
            if message.get("type") == "error" and message.get("code") == "too_fast" and sent:
                # A seat playing flat out (a table of 4 students, no other table) outruns
                # the socket's rate limit: the act was refused, so send it again once the
                # rate drops, as a student would (the tests' protocol driver does too).
                play.too_fast += 1
                await asyncio.sleep(1.0)
                await ws.send(sent)
                continue
            if message.get("type") != "state":
                continue
            if first:
                first, play.ready = False, play.ready + 1
                if play.ready == play.seats:
                    play.all_ready.set()
            version = message["version"]
            for acted_version in [v for v in sent_at if v < version]:
                play.round_trips.append(time.perf_counter() - sent_at.pop(acted_version))
            if message.get("over"):
                play.first_over.set()
                return
            legal = message.get("legal_actions") or []
            if legal and version not in sent_at:
                sent_at[version] = time.perf_counter()
                play.acted += 1
                action = legal[rng.randrange(len(legal))]
                sent = json.dumps({"type": "act", "version": version, "action": action})
                await ws.send(sent)


@dataclass
class Figures:
    """What a run measured, from the first connection to the last game's end: the
    actions sent, the seconds of play, each action's round trip (seconds), and the CPU
    seconds of the uvicorn process meanwhile; and the same in steady play (``steady_``),
    from the moment every seat has its first state to the end of the first game, when
    every table is playing: what ``benchmarks.bare`` measures of its floor (connecting,
    the first states and the games' ends left out)."""

    actions: int
    seconds: float
    round_trips: list[float]
    uvicorn_cpu: float
    steady_actions: int
    steady_seconds: float
    steady_cpu: float
    steady_loop_cpu: float  # of steady_cpu, the event loop's thread (uvicorn's main thread)
    too_fast: int  # acts refused by the socket's rate limit and sent again 1 s later


# The actions sent, the clock, uvicorn's CPU seconds and its main thread's, at a moment.
Mark = tuple[int, float, float, float]


async def play_all(base: str, joined: list[dict], pid: int) -> Figures:
    """Play every seat concurrently to the end; return the figures."""
    play = Play(len(joined))

    def mark() -> Mark:
        """The actions sent, the clock, uvicorn's CPU seconds and its main thread's, now."""
        return (
            play.acted,
            time.perf_counter(),
            process_usage(pid)[0] / CLK_TCK,
            main_thread_ticks(pid) / CLK_TCK,
        )

    def between(first: Mark, last: Mark) -> Mark:
        """What each figure of two marks grew by (the actions stay a count)."""
        return (
            last[0] - first[0],
            last[1] - first[1],
            last[2] - first[2],
            last[3] - first[3],
        )

    start = mark()
    seats = asyncio.gather(*(seat(base, j, random.Random(i), play) for i, j in enumerate(joined)))
    await play.all_ready.wait()
    steady_start = mark()
    await play.first_over.wait()
    steady_end = mark()
    await seats
    actions, seconds, cpu, _ = between(start, mark())
    steady_actions, steady_seconds, steady_cpu, steady_loop = between(steady_start, steady_end)
    return Figures(
        actions,
        seconds,
        play.round_trips,
        cpu,
        steady_actions,
        steady_seconds,
        steady_cpu,
        steady_loop,
        play.too_fast,
    )


def run(students: int, table_size: int = 4, variant: str = "expert") -> Figures:
    """Start the services, play a session to its end, stop everything; return the figures."""
    with tempfile.TemporaryDirectory(prefix="dp-bench-") as var:
        redis_port, web_port = free_port(), free_port()
        # As the load benchmark's: every student joins from 127.0.0.1, so the
        # per-address join limits are lifted.
        env = environment(Path(var), redis_port)
        manage(env, "migrate", "--noinput", "-v0")
        manage(
            env,
            "shell",
            "-c",
            "from django.contrib.auth import get_user_model;"
            "get_user_model().objects.create_user('bench', password='bench-pass-1234')",
        )
        code = manage(
            env,
            "open_session",
            "--teacher",
            "bench",
            "--class",
            "Bench",
            "--game",
            "data_tycoon",
            "--variant",
            variant,
            "--table-size",
            str(table_size),
            # Call windows shortened so that a seat that misses its call does not hold
            # the table for the default 15 s; the sweeper fires them.
            *("--option", "time_mode=turns", "--option", "call_seconds=1"),
            *("--option", "counter_seconds=1", "--option", "choice_seconds=1"),
        )
        services = [redis_service(redis_port, Path(var) / "redis", persist=False).start()]
        try:
            wait_until(lambda: redis_answers(env["REDIS_URL"]), 15, "Redis", services)
            asgi = asgi_service(env, "127.0.0.1", web_port)
            for service in (celery_worker_service(env), asgi):
                services.append(service.start())
            wait_until(lambda: port_open("127.0.0.1", web_port), 30, "uvicorn", services)
            wait_for_celery(env, 60, services)
            base = f"http://127.0.0.1:{web_port}"
            joined = [join(base, code, f"Student {n:02d}") for n in range(students)]
            manage(
                env,
                "shell",
                "-c",
                "from classroom.models import ClassSession;"
                "from classroom.actions import do_start_session;"
                f"do_start_session(ClassSession.objects.get(join_code='{code}'))",
            )
            assert asgi.process is not None  # started above
            return asyncio.run(play_all(base, joined, asgi.process.pid))
        finally:
            for service in reversed(services):
                service.stop()


def main() -> None:
    """Play a session flat out and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=12)
    parser.add_argument("--table-size", type=int, default=4)
    parser.add_argument("--variant", default="expert")
    args = parser.parse_args()
    figures = run(args.students, args.table_size, args.variant)
    ms = sorted(r * 1000 for r in figures.round_trips)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    tables = -(-args.students // args.table_size)
    print(
        f"{args.students} students at {tables} tables ({args.variant}): {figures.actions} "
        f"actions in {figures.seconds:.1f} s, {figures.actions / figures.seconds:.0f} actions/s"
    )
    print(
        f"act -> own new state: median {statistics.median(ms):.1f} ms, "
        f"p95 {p95:.1f} ms, max {ms[-1]:.1f} ms ({len(ms)} round trips)"
    )
    print(
        f"uvicorn CPU: {figures.uvicorn_cpu:.1f} s, "
        f"{1000 * figures.uvicorn_cpu / max(1, figures.actions):.2f} ms per action"
    )
    print(
        f"in steady play (every seat connected, every table playing): "
        f"{figures.steady_actions} actions in {figures.steady_seconds:.1f} s, "
        f"{figures.steady_actions / figures.steady_seconds:.0f} actions/s; uvicorn CPU "
        f"{figures.steady_cpu:.1f} s, "
        f"{1000 * figures.steady_cpu / max(1, figures.steady_actions):.2f} ms per action, "
        f"{1000 * figures.steady_loop_cpu / max(1, figures.steady_actions):.2f} ms of it in "
        f"the event loop's thread"
    )
    if figures.too_fast:
        print(f"{figures.too_fast} acts refused as too fast, sent again 1 s later")


if __name__ == "__main__":
    main()
