"""A notice sent from one of the ASGI server's threads (the sockets' database thread, a
request's thread) runs on the server's event loop without holding the thread, in the
order the thread sent it, on the real Redis channel layer."""

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from classroom import broadcast
from config.channel_layer import PlatformLoopLayer
from tests.classroom.channels_testing import in_own_event_loop

TIMEOUT = 10


@in_own_event_loop
async def test_a_send_from_the_servers_database_thread_does_not_hold_it(monkeypatch):
    """Redis stalls under a send: the thread that sent it goes on at once (it serves
    every socket's database work), and the notices arrive in the order they were sent
    once Redis answers."""
    broadcast.serve_from(asyncio.get_running_loop())
    layer = get_channel_layer()
    listener = await layer.new_channel()
    await layer.group_add("session-1", listener)
    stalled = asyncio.Event()
    real_group_send = PlatformLoopLayer.group_send

    async def group_send(loop_layer, group, message):
        await stalled.wait()
        return await real_group_send(loop_layer, group, message)

    monkeypatch.setattr(PlatformLoopLayer, "group_send", group_send)

    def notify_three_times() -> float:
        started = time.monotonic()
        for number in range(3):
            broadcast.send_group("session-1", {"type": "lobby.changed", "n": number})
        return time.monotonic() - started

    took = await asyncio.wait_for(sync_to_async(notify_three_times)(), TIMEOUT)
    assert took < 1, f"the thread waited {took:.1f} s for the stalled sends"
    stalled.set()
    received = [await asyncio.wait_for(layer.receive(listener), TIMEOUT) for _ in range(3)]
    assert [message["n"] for message in received] == [0, 1, 2]
    await layer.flush()


@in_own_event_loop
async def test_a_send_outside_a_server_is_done_when_it_returns(monkeypatch):
    """A Celery worker or a management command has no server loop: its sends are done
    (or have failed and been logged) when the call returns."""
    broadcast.serve_from(None)
    done = []
    real_group_send = PlatformLoopLayer.group_send

    async def group_send(loop_layer, group, message):
        await asyncio.sleep(0.2)
        await real_group_send(loop_layer, group, message)
        done.append(message["type"])

    monkeypatch.setattr(PlatformLoopLayer, "group_send", group_send)

    def notify() -> list[str]:
        broadcast.send_group("session-2", {"type": "lobby.changed"})
        return list(done)

    assert await sync_to_async(notify)() == ["lobby.changed"]


# The batch handed to the stopped loop is never run, so never awaited.
@pytest.mark.filterwarnings("ignore:coroutine .* was never awaited")
def test_a_batch_left_on_a_loop_that_stopped_does_not_hold_up_the_next_loop(monkeypatch):
    """A send handed to a loop that stopped before running it never ends: the sends
    handed to the next loop (the next test's, a restarted server's) do not wait for it."""
    stopped = asyncio.new_event_loop()
    runs = threading.Event()
    stopper = threading.Thread(target=lambda: (stopped.call_soon(runs.set), stopped.run_forever()))
    stopper.start()
    runs.wait(TIMEOUT)
    broadcast.serve_from(stopped)
    stopped.call_soon_threadsafe(stopped.stop)
    stopper.join(TIMEOUT)
    # Handed a batch just before it stopped.
    monkeypatch.setattr(stopped, "is_running", lambda: True)
    # From a thread of its own: a browser test's loop may run in the main thread.
    handing = ThreadPoolExecutor(1)
    assert handing.submit(broadcast._server.hand, lambda: asyncio.sleep(0)).result()
    handing.shutdown()
    monkeypatch.setattr(stopped, "is_running", lambda: False)

    @in_own_event_loop
    async def next_loop() -> None:
        broadcast.serve_from(asyncio.get_running_loop())
        layer = get_channel_layer()
        listener = await layer.new_channel()
        await layer.group_add("session-3", listener)
        await sync_to_async(broadcast.send_group)("session-3", {"type": "lobby.changed"})
        message = await asyncio.wait_for(layer.receive(listener), TIMEOUT)
        assert message == {"type": "lobby.changed"}
        await layer.flush()

    next_loop()
    stopped.close()


def test_a_workers_sends_run_on_one_loop_of_its_own_over_kept_connections(settings, monkeypatch):
    """A Celery worker's sends (a bot move's states) each made an event loop and a
    channel layer of their own: a Redis connection opened and closed per send. From the
    process's own loop they share the layer's connections, and each send is still done
    when it returns; a forked child starts a loop of its own."""
    broadcast.serve_from(None)
    own = broadcast.OwnLoop()
    monkeypatch.setattr(broadcast, "_own", own)
    broadcast.send_from_own_loop()
    client = redis.Redis.from_url(settings.REDIS_URL)
    listener = client.pubsub()
    # The group's own channel: the suite's other services publish on this Redis too.
    listener.subscribe(
        f"{settings.CHANNEL_LAYERS['default']['CONFIG']['prefix']}__group__session-4"
    )
    assert listener.get_message(timeout=TIMEOUT)["type"] == "subscribe"

    def heard() -> int:
        count = 0
        while (message := listener.get_message(timeout=0.2)) is not None:
            count += message["type"] == "message"
        return count

    def opened() -> int:
        return client.info("stats")["total_connections_received"]

    broadcast.send_group("session-4", {"type": "lobby.changed"})  # the loop starts
    assert heard() == 1
    first = own.loop
    assert first is not None
    before = opened()
    for number in range(10):
        broadcast.send_group("session-4", {"type": "lobby.changed", "n": number})
    assert opened() == before  # no connection opened by the ten sends
    assert heard() == 10
    assert own.loop is first

    monkeypatch.setattr(broadcast.os, "getpid", lambda: -1)  # as a forked child sees it
    broadcast.send_group("session-4", {"type": "lobby.changed"})
    assert heard() == 1
    assert own.loop is not None
    assert own.loop is not first and own.loop.is_running()
    for loop in (first, own.loop):
        loop.call_soon_threadsafe(loop.stop)
        # Closed here, in a thread where no loop runs: a loop left to the collector closes
        # in whichever later test collects it, and the channel layer's flush fails there.
        closing = threading.Thread(target=close_once_stopped, args=(loop,))
        closing.start()
        closing.join(TIMEOUT)
        assert loop.is_closed()
    listener.close()
    client.close()


def close_once_stopped(loop: asyncio.AbstractEventLoop) -> None:
    deadline = time.monotonic() + TIMEOUT
    while loop.is_running() and time.monotonic() < deadline:
        time.sleep(0.01)
    loop.close()
