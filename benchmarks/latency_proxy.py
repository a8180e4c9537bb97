"""A TCP relay on loopback that delays every byte, to stand in for a database on another
machine (``benchmarks.load --database-latency``).

    .venv/bin/python -m benchmarks.latency_proxy --listen PORT --to PORT --ms 0.5

Each direction holds what it reads for half of ``--ms`` before writing it on, in order:
a query and its answer cross in ``--ms`` more than on loopback, as over a network with
that round trip. Pipelined bytes are not held one behind the other (each chunk is due
its own read time plus the delay), so the relay adds latency, not a bandwidth limit.
With ``--count FILE`` it keeps in FILE the number of chunks its clients sent so far
and the number of connections it relayed, as "CHUNKS CONNECTIONS": a client that waits
for each answer (psycopg, Django) sends one chunk a round trip.
Loopback only; it runs until it is stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import time
from pathlib import Path

HOST = "127.0.0.1"
# How often the count file is rewritten (when the count changed).
COUNT_EVERY = 0.1


class Count:
    """The chunks the clients sent and the connections relayed, in all."""

    sent = 0
    connections = 0


async def pump(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float, counted: bool
) -> None:
    """Copy ``reader`` to ``writer``, each chunk ``delay`` seconds after it was read
    (``counted``: each chunk counted in ``Count.sent``)."""
    chunks: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

    async def read() -> None:
        while data := await reader.read(65536):
            if counted:
                Count.sent += 1
            chunks.put_nowait((time.monotonic() + delay, data))
        chunks.put_nowait((time.monotonic() + delay, b""))

    reading = asyncio.create_task(read())
    try:
        while True:
            due, data = await chunks.get()
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if not data:
                break
            writer.write(data)
            await writer.drain()
    finally:
        reading.cancel()
        with contextlib.suppress(Exception):
            writer.close()


async def relay(
    target_port: int,
    delay: float,
    client_reader: asyncio.StreamReader,
    client_writer: asyncio.StreamWriter,
) -> None:
    """Connect one client to the target and relay both ways with the delay."""
    Count.connections += 1
    try:
        server_reader, server_writer = await asyncio.open_connection(HOST, target_port)
    except OSError:
        client_writer.close()
        return
    await asyncio.gather(
        pump(client_reader, server_writer, delay, counted=True),
        pump(server_reader, client_writer, delay, counted=False),
        return_exceptions=True,
    )


async def keep_count(path: Path) -> None:
    """Rewrite ``path`` with the counts whenever they changed (replaced whole, so a
    reader never sees half a number)."""
    written = None
    while True:
        if (Count.sent, Count.connections) != written:
            written = Count.sent, Count.connections
            partial = path.with_name(path.name + ".partial")
            partial.write_text(f"{Count.sent} {Count.connections}")
            os.replace(partial, path)
        await asyncio.sleep(COUNT_EVERY)


async def serve(
    listen_port: int, target_port: int, round_trip_ms: float, count: Path | None = None
) -> None:
    delay = round_trip_ms / 2000

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await relay(target_port, delay, reader, writer)

    server = await asyncio.start_server(handle, HOST, listen_port)
    counting = asyncio.create_task(keep_count(count)) if count else None
    async with server:
        await server.serve_forever()
    if counting:
        counting.cancel()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listen", type=int, required=True, help="the port clients use")
    parser.add_argument("--to", type=int, required=True, help="the port of the real server")
    parser.add_argument("--ms", type=float, required=True, help="the round trip added, in ms")
    parser.add_argument("--count", type=Path, help="a file to keep the clients' chunk count in")
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args.listen, args.to, args.ms, args.count))


if __name__ == "__main__":
    main()
