"""Socket churn: devices that connect and vanish, against the real stack.

A classroom's Wi-Fi drops phones all the time. This starts the platform as
``benchmarks.outage`` does (its own Redis, worker, beat and uvicorn in a temporary
folder), keeps one student's socket open, and has the other student's device connect,
take its first ``state`` and drop the connection without a close frame, again and
again. It prints the ASGI server's memory as the drops add up, the time from connect
to the first ``state``, and the seat counts the dashboard shows at the end (one socket
on the seat that stayed, none on the other).

    .venv/bin/python -m benchmarks.sockets [--drops 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import websockets
from websockets.asyncio.client import ClientConnection
from websockets.typing import Origin

from benchmarks.outage import Platform, Timeline, environment, open_class
from benchmarks.stack import use_database
from config.services import free_port

CHECKPOINTS = (0, 100, 250, 500, 1000, 2000)


def rss_kib(pid: int) -> int:
    """Return a process's resident memory in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def first_state(ws: ClientConnection) -> None:
    while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "state":
        pass


async def open_seat(url: str, token: str, origin: str) -> ClientConnection:
    """Open a seat's socket; its token is the first message (docs/protocol.md)."""
    ws = await websockets.connect(url, origin=Origin(origin), max_size=2**23)
    await ws.send(json.dumps({"type": "auth", "token": token}))
    return ws


async def churn(
    urls: list[tuple[str, str]], origin: str, drops: int, server_pid: int, match_id: int
) -> dict:
    """Keep the first URL's socket open; connect and abort the second's drops times;
    read the seat counts while the first socket is still open."""
    stay = await open_seat(*urls[0], origin)
    await first_state(stay)
    memory, waits = {}, []
    for done in range(drops + 1):
        if done in CHECKPOINTS or done == drops:
            await asyncio.sleep(1)  # let the server finish with the last drop
            memory[done] = rss_kib(server_pid)
        if done == drops:
            break
        started = time.perf_counter()
        ws = await open_seat(*urls[1], origin)
        await first_state(ws)
        waits.append(time.perf_counter() - started)
        ws.transport.abort()  # no close frame, as when a phone leaves the Wi-Fi
    await asyncio.sleep(2)
    counts = await asyncio.to_thread(seat_counts, match_id)
    await stay.close()
    return {"memory": memory, "waits": waits, "counts": counts}


def seat_counts(match_id: int) -> dict[int, int]:
    from classroom.models import Seat

    return dict(Seat.objects.filter(table__match_id=match_id).values_list("number", "connected"))


def run(folder: Path, drops: int) -> None:
    redis_port = free_port()
    env = environment(folder, redis_port)
    platform = Platform(folder, env, redis_port, free_port())
    timeline = Timeline()
    try:
        use_database(env)
        platform.start()
        _code, match_id, joined = open_class(platform, seed=1)
        ws_base = platform.base.replace("http://", "ws://")
        urls = [(f"{ws_base}{j['ws']}", j["token"]) for j in joined]
        server = next(s for s in platform.others if s.name == "asgi")
        assert server.process is not None  # platform.start() started it
        result = asyncio.run(churn(urls, platform.base, drops, server.process.pid, match_id))
    finally:
        platform.stop(timeline)
    base = result["memory"][0]
    print(f"Socket churn: {drops} connections dropped without a close frame\n")
    print("drops   server RSS   growth since the first")
    for done, kib in result["memory"].items():
        print(f"{done:>5}   {kib / 1024:7.1f} MiB   {(kib - base) / 1024:+6.1f} MiB")
    waits = sorted(result["waits"])
    print(
        f"\nconnect to first state: median {statistics.median(waits) * 1000:.1f} ms, "
        f"p95 {waits[int(len(waits) * 0.95)] * 1000:.1f} ms"
    )
    print(
        f"seat counts at the end (seat: open sockets): {result['counts']} "
        "(expected: one socket on the seat that stayed, none on the other)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drops", type=int, default=1000)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="dp-sockets-"))
    try:
        run(folder, args.drops)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
