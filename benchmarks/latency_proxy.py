"""A TCP relay on loopback that delays every byte, to stand in for a database on another
machine (``benchmarks.load --database-latency``).

    .venv/bin/python -m benchmarks.latency_proxy --listen PORT --to PORT --ms 0.5

Each direction holds what it reads for half of ``--ms`` before writing it on, in order:
a query and its answer cross in ``--ms`` more than on loopback, as over a network with
that round trip. Pipelined bytes are not held one behind the other (each chunk is due
its own read time plus the delay), so the relay adds latency, not a bandwidth limit.
Loopback only; it runs until it is stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import time

HOST = "127.0.0.1"


async def pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float) -> None:
    """Copy ``reader`` to ``writer``, each chunk ``delay`` seconds after it was read."""
    chunks: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

    async def read() -> None:
        while data := await reader.read(65536):
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


async def relay(target_port: int, delay: float, client_reader, client_writer) -> None:
    """Connect one client to the target and relay both ways with the delay."""
    try:
        server_reader, server_writer = await asyncio.open_connection(HOST, target_port)
    except OSError:
        client_writer.close()
        return
    await asyncio.gather(
        pump(client_reader, server_writer, delay),
        pump(server_reader, client_writer, delay),
        return_exceptions=True,
    )


async def serve(listen_port: int, target_port: int, round_trip_ms: float) -> None:
    delay = round_trip_ms / 2000

    async def handle(reader, writer):
        await relay(target_port, delay, reader, writer)

    server = await asyncio.start_server(handle, HOST, listen_port)
    async with server:
        await server.serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listen", type=int, required=True, help="the port clients use")
    parser.add_argument("--to", type=int, required=True, help="the port of the real server")
    parser.add_argument("--ms", type=float, required=True, help="the round trip added, in ms")
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args.listen, args.to, args.ms))


if __name__ == "__main__":
    main()
