"""Measure live play end to end: real Redis, a real Celery worker, a real uvicorn.

    .venv/bin/python -m benchmarks.live [--students 12] [--table-size 4] [--variant expert]

Starts the services on free ports with a temporary database, opens a session, joins
every student through ``POST /join/`` like ``clients/random_client.py``, starts the
session, and lets every seat play uniformly random legal actions as fast as the
server answers, until every table's game is over. Prints the actions per second, the
round trip of an action: from sending ``act`` to receiving the ``state`` with the
new version, at the seat that acted (median, 95th percentile, maximum), and the CPU
time of the one uvicorn process per action (``benchmarks.bare --platform`` sets it
beside its stack's floor).
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
from dataclasses import dataclass
from pathlib import Path

import websockets

from benchmarks.load import CLK_TCK, environment, process_usage
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


async def seat(base: str, joined: dict, rng: random.Random, rtts: list[float]) -> int:
    """Play one seat to the end; return the number of actions it sent."""
    host = base.split("://", 1)[1]
    url = f"ws://{host}{joined['ws']}"
    sent_at: dict[int, float] = {}
    acted = 0
    async with websockets.connect(url, max_size=2**23, origin=base) as ws:
        await ws.send(json.dumps({"type": "auth", "token": joined["token"]}))
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 120))
            if message.get("type") != "state":
                continue
            version = message["version"]
            for acted_version in [v for v in sent_at if v < version]:
                rtts.append(time.perf_counter() - sent_at.pop(acted_version))
            if message.get("over"):
                return acted
            legal = message.get("legal_actions") or []
            if legal and version not in sent_at:
                sent_at[version] = time.perf_counter()
                acted += 1
                action = legal[rng.randrange(len(legal))]
                await ws.send(json.dumps({"type": "act", "version": version, "action": action}))


async def play_all(base: str, joined: list[dict], rtts: list[float]) -> int:
    """Play every seat concurrently; return the total of actions sent."""
    counts = await asyncio.gather(
        *(seat(base, j, random.Random(i), rtts) for i, j in enumerate(joined))
    )
    return sum(counts)


@dataclass
class Figures:
    """What a run measured: the actions sent, the seconds of play, each action's round
    trip (seconds), and the CPU seconds of the uvicorn process meanwhile."""

    actions: int
    seconds: float
    round_trips: list[float]
    uvicorn_cpu: float


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
            rtts: list[float] = []
            ticks = process_usage(asgi.process.pid)[0]
            started = time.perf_counter()
            actions = asyncio.run(play_all(base, joined, rtts))
            elapsed = time.perf_counter() - started
            cpu = (process_usage(asgi.process.pid)[0] - ticks) / CLK_TCK
        finally:
            for service in reversed(services):
                service.stop()
    return Figures(actions, elapsed, rtts, cpu)


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


if __name__ == "__main__":
    main()
