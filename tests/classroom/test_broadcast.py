"""A notice sent from one of the ASGI server's threads (the sockets' database thread, a
request's thread) runs on the server's event loop without holding the thread, in the
order the thread sent it, on the real Redis channel layer."""

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
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
def test_a_batch_left_on_a_loop_that_stopped_does_not_hold_up_the_next_loop():
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
    stopped.is_running = lambda: True  # handed a batch just before it stopped
    # From a thread of its own: a browser test's loop may run in the main thread.
    handing = ThreadPoolExecutor(1)
    assert handing.submit(broadcast._server.hand, lambda: asyncio.sleep(0)).result()
    handing.shutdown()
    stopped.is_running = lambda: False

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
