"""The floor of the platform's stack: a bare Channels consumer on its channel layer.

    .venv/bin/python -m benchmarks.bare [--tables 10] [--seconds 20] [--platform]
    BARE_LAYER=core .venv/bin/python -m benchmarks.bare   # channels-redis's core layer

Starts its own Redis and one uvicorn process serving ``benchmarks.bare_app`` (a Channels
``AsyncWebsocketConsumer`` and nothing else: no database, no rules, no Django app), on
loopback. Each table is 4 sockets in one channel-layer group; one of them sends an
``act``, the consumer fans it out to the group as a state of 2 KB (``group_send``, the
layer the platform uses, configured as the platform configures it), and as soon as
all 4 sockets have it the next seat acts: every table plays as fast as it is answered,
as ``benchmarks.live`` does on the platform. Prints the actions per second, the act to
every view latency (p50, p95, max) and the CPU time of uvicorn per action, so that the
platform's per-process throughput can be compared with its own stack's.

``--platform`` then plays the platform the same way (``benchmarks.live``: as many
tables of 4 students, every seat a random client answering as soon as its state comes,
one uvicorn process, until every game is over) and prints the comparison: how many
times the floor's throughput is the platform's, and its CPU an action (the target is
within 2), both in steady play, as the floor is measured: from the moment every seat
has its first state to the end of the first game (the whole run, connecting and the
games' ends included, is printed too).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import tempfile
import time
from pathlib import Path

import orjson
import websockets

from benchmarks import live
from benchmarks.load import CLK_TCK, HOST, process_usage
from config.services import (
    free_port,
    port_open,
    python_service,
    redis_answers,
    redis_service,
    wait_until,
)

SEATS = 4


async def table(number: int, base: str, stop: asyncio.Event, latencies: list[float]) -> int:
    """Play one table flat out; return its actions."""
    sockets = [
        await websockets.connect(f"{base}/ws/bare/{number}/", max_size=2**23) for _ in range(SEATS)
    ]
    actions = 0
    try:
        while not stop.is_set():
            actor = sockets[actions % SEATS]
            sent = time.perf_counter()
            await actor.send(orjson.dumps({"type": "act", "version": actions}))
            for ws in sockets:
                while orjson.loads(await asyncio.wait_for(ws.recv(), 30))["version"] != actions:
                    pass
            latencies.append((time.perf_counter() - sent) * 1000)
            actions += 1
    finally:
        for ws in sockets:
            with contextlib.suppress(Exception):
                await ws.close()
    return actions


async def play(
    base: str, tables: int, seconds: float, pid: int
) -> tuple[int, list[float], float, float]:
    stop = asyncio.Event()
    latencies: list[float] = []
    players = [asyncio.create_task(table(n, base, stop, latencies)) for n in range(tables)]
    await asyncio.sleep(2)  # every socket connected and warm
    latencies.clear()
    ticks, started = process_usage(pid)[0], time.perf_counter()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - started
    cpu = (process_usage(pid)[0] - ticks) / CLK_TCK
    done = len(latencies)
    stop.set()
    await asyncio.gather(*players)
    return done, sorted(latencies[:done]), elapsed, cpu


def run(tables: int, seconds: float) -> tuple[int, list[float], float, float]:
    """Start Redis and the bare consumer, play ``tables`` tables flat out for ``seconds``,
    stop everything; return the actions, their latencies (ms, sorted), the seconds
    measured and uvicorn's CPU seconds meanwhile."""
    folder = Path(tempfile.mkdtemp(prefix="dp-bare-"))
    redis_port, web_port = free_port(), free_port()
    env = {**os.environ, "REDIS_URL": f"redis://{HOST}:{redis_port}/0", "PYTHONUNBUFFERED": "1"}
    redis = redis_service(redis_port, folder / "redis", persist=False).start()
    server = None
    try:
        wait_until(lambda: redis_answers(env["REDIS_URL"]), 15, "Redis", [redis])
        server = python_service(
            "bare-asgi",
            [
                *("-m", "uvicorn", "benchmarks.bare_app:application", "--host", HOST),
                *("--port", str(web_port), "--lifespan", "off", "--log-level", "warning"),
            ],
            env,
        ).start()
        wait_until(lambda: port_open(HOST, web_port), 30, "uvicorn", [redis, server])
        assert server.process is not None  # started above
        return asyncio.run(play(f"ws://{HOST}:{web_port}", tables, seconds, server.process.pid))
    finally:
        for service in (server, redis):
            if service is not None:
                service.stop()
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--platform", action="store_true", help="then the platform, and the comparison"
    )
    args = parser.parse_args()
    done, ms, elapsed, cpu = run(args.tables, args.seconds)
    print(
        f"bare Channels consumer on the {os.environ.get('BARE_LAYER', 'platform')} channel "
        f"layer, one uvicorn process, {args.tables} tables "
        f"of {SEATS} sockets, a 2 KB state to every socket per action, flat out:"
    )
    print(f"{done} actions in {elapsed:.1f} s: {done / elapsed:.0f} actions/s")
    if ms:
        print(
            f"act -> every view: p50 {ms[len(ms) // 2]:.1f} ms, "
            f"p95 {ms[min(len(ms) - 1, int(len(ms) * 0.95))]:.1f} ms, max {ms[-1]:.1f} ms"
        )
    print(f"uvicorn CPU: {cpu:.1f} s, {1000 * cpu / max(1, done):.2f} ms per action")
    if not args.platform:
        return
    platform = live.run(args.tables * SEATS)
    round_trips = sorted(platform.round_trips)
    print(
        f"the platform, one uvicorn process, {args.tables} tables of {SEATS} random clients "
        f"(Data-Tycoon expert) to the end of their games: {platform.actions} actions in "
        f"{platform.seconds:.1f} s: {platform.actions / platform.seconds:.0f} actions/s, "
        f"act -> own new state p50 {1000 * round_trips[len(round_trips) // 2]:.1f} ms; "
        f"uvicorn CPU: {platform.uvicorn_cpu:.1f} s, "
        f"{1000 * platform.uvicorn_cpu / platform.actions:.2f} ms per action (connecting, "
        f"the first states and the games' ends included)"
    )
    if platform.too_fast:
        print(f"{platform.too_fast} acts refused as too fast, sent again 1 s later")
    # Compared in steady play, as the floor is measured (after its sockets connected).
    rate = platform.steady_actions / platform.steady_seconds
    per_action = platform.steady_cpu / platform.steady_actions
    loop_per_action = platform.steady_loop_cpu / platform.steady_actions
    floor, floor_per_action = done / elapsed, cpu / done
    print(
        f"in steady play (every seat connected, every table playing): "
        f"{platform.steady_actions} actions in {platform.steady_seconds:.1f} s: "
        f"{rate:.0f} actions/s; uvicorn CPU {1000 * per_action:.2f} ms per action"
    )
    print(
        f"the floor's throughput is {floor / rate:.1f} times the platform's in steady "
        f"play, and the platform's uvicorn CPU an action {per_action / floor_per_action:.1f} "
        f"times the floor's (the target: within 2)"
    )
    # The floor does all its work in the event loop; the platform hands each move's
    # database work, rules and views to other threads: what its loop alone costs is
    # the least the platform could cost were those free.
    print(
        f"of the platform's CPU an action, the event loop's thread (receiving, sending, the "
        f"channel layer) {1000 * loop_per_action:.2f} ms: "
        f"{loop_per_action / floor_per_action:.1f} times the floor's whole action; the "
        f"other threads (each move's transaction, rules, views and what follows) "
        f"{1000 * (per_action - loop_per_action):.2f} ms"
    )


if __name__ == "__main__":
    main()
