"""Per-socket limits: a client cannot make the server answer a flood, nor ask for the
whole table again and again (``resync`` sends far more than it costs to ask)."""

import asyncio
import json

import pytest

from classroom.identity import seat_token
from live.throttle import RESYNC_BURST, Bucket
from tests.live.protocol_driver import run
from tests.live.test_resilience import (
    drain,
    next_message,
    open_socket,
    started_session,
    ws_base,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


class Clock:
    """A clock a test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_allows_its_burst_then_its_rate():
    clock = Clock()
    bucket = Bucket(per_second=0.5, burst=3, clock=clock)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    clock.now += 1.9
    assert not bucket.take()
    clock.now += 0.2  # two seconds since the last token: one more
    assert bucket.take() and not bucket.take()
    clock.now += 3600  # refills up to the burst, no further
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]


def test_five_hundred_resyncs_bring_back_a_few_states_not_five_hundred(
    school_class, live_server_url
):
    session, _table, (ana, _ben) = started_session(school_class, "Ana", "Ben")
    url = f"{ws_base(live_server_url)}/ws/play/{session.join_code}/"

    async def scenario():
        ws = await open_socket(url, live_server_url, token=seat_token(ana))
        state = await next_message(ws, {"state"})
        await drain(ws)
        sent = 0
        for _ in range(500):
            text = json.dumps({"type": "resync"})
            sent += len(text)
            await ws.send(text)
        back = await drain(ws, quiet=1.0)
        await asyncio.sleep(2.1)  # a resync token again
        await ws.send(json.dumps({"type": "resync"}))
        hello = await next_message(ws, {"hello"})
        after = await next_message(ws, {"state"})
        await ws.close()
        return state, sent, back, hello, after

    state, sent, back, hello, after = run(scenario)
    assert "catalogue" not in hello  # the socket has it from its first hello
    kinds = [json.loads(raw)["type"] for raw in back]
    print(f"answers: {kinds.count('state')} states, {kinds.count('error')} errors")
    # the burst, and a token that may come back while the 500 messages arrive
    assert kinds.count("state") <= RESYNC_BURST + 2
    errors = [json.loads(raw) for raw in back if json.loads(raw)["type"] == "error"]
    assert errors and {e["code"] for e in errors} == {"too_fast"}
    assert "wait a moment" in errors[0]["message"]
    # one refusal per refused resync while the socket's message budget lasts (its burst
    # and what refills while the flood arrives), then one word for the rest
    assert kinds.count("error") < 500 // 5
    received = sum(len(raw) for raw in back)
    print(f"500 resyncs: {sent} bytes sent, {received} bytes back, {len(back)} messages")
    assert received < 60 * sent, (sent, received)
    assert after["version"] == state["version"]  # and the socket still works
