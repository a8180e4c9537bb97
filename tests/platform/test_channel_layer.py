"""The platform's channel layer (config/channel_layer.py) on a Redis of each test's own,
which the test stalls (SIGSTOP), kills and starts again: whatever happens to Redis, a
socket's receive either gets its messages or fails, so the socket closes and its client
comes back and reads the table again. Redis pub/sub keeps nothing for a subscriber that
was away: a receive that went on waiting after such a gap would be a socket deaf to
every move, its page saying "Connected."."""

import asyncio
import signal
import time
from collections import Counter
from collections.abc import Awaitable

import pytest
import redis
from redis.exceptions import RedisError

from config.channel_layer import PlatformChannelLayer
from config.services import free_port, redis_answers, redis_service, wait_until
from tests.classroom.channels_testing import in_own_event_loop

PING_SECONDS = 0.5
PONG_TIMEOUT = 1.0
# A lost subscription is noticed within a ping and its wait, with room for a busy machine.
NOTICED_WITHIN = PING_SECONDS + PONG_TIMEOUT + 2


class OwnRedis:
    """A Redis server on a port of its own, which can be stalled, killed and restarted."""

    def __init__(self, tmp_path):
        self.port = free_port()
        self.data = tmp_path / "redis"
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.server = None
        self.start()

    def start(self) -> None:
        self.server = redis_service(self.port, self.data, persist=False).start()
        wait_until(lambda: redis_answers(self.url), 15, "Redis", [self.server])

    def layer(self) -> PlatformChannelLayer:
        host = {"address": self.url, "socket_timeout": 8, "socket_connect_timeout": 2}
        return PlatformChannelLayer(
            hosts=[host], ping_seconds=PING_SECONDS, pong_timeout=PONG_TIMEOUT
        )

    def subscribers(self, name: str) -> int:
        with redis.Redis.from_url(self.url) as client:
            return dict(client.pubsub_numsub(name))[name.encode()]


@pytest.fixture
def own_redis(tmp_path):
    server = OwnRedis(tmp_path)
    yield server
    assert server.server is not None
    server.server.signal(signal.SIGCONT)
    server.server.stop()


async def fails_within(receive: Awaitable[object], seconds: float) -> tuple[BaseException, float]:
    """Await receive; return the service error it raised and how long it took."""
    started = time.monotonic()
    with pytest.raises(RedisError) as raised:
        await asyncio.wait_for(receive, seconds + 5)
    return raised.value, time.monotonic() - started


@in_own_event_loop
async def test_group_messages_reach_every_channel_of_the_group_once(own_redis):
    layer = own_redis.layer()
    first, second, outside = [await layer.new_channel() for _ in range(3)]
    await layer.group_add("table-1", first)
    await layer.group_add("table-1", second)
    assert own_redis.subscribers("asgi__group__table-1") == 1  # one per process
    await layer.group_send("table-1", {"type": "table.states", "n": 1})
    assert await layer.receive(first) == {"type": "table.states", "n": 1}
    assert await layer.receive(second) == {"type": "table.states", "n": 1}
    await layer.group_discard("table-1", second)
    await layer.group_send("table-1", {"type": "table.states", "n": 2})
    assert await layer.receive(first) == {"type": "table.states", "n": 2}
    pending = asyncio.ensure_future(layer.receive(second))
    also = asyncio.ensure_future(layer.receive(outside))
    assert not (await asyncio.wait({pending, also}, timeout=0.5))[0]
    pending.cancel()
    also.cancel()
    await layer.flush()


@in_own_event_loop
async def test_a_group_message_is_decoded_once_for_every_channel_of_the_process(
    own_redis, monkeypatch, caplog
):
    """The sockets of a table in one process share one decoding of each move's message
    (it was unpacked in each socket's receive); a message nobody can decode is dropped
    with a warning and the next one still arrives."""
    layer = own_redis.layer()
    channels = [await layer.new_channel() for _ in range(4)]
    for channel in channels:
        await layer.group_add("table-2", channel)
    decoded = []
    real_deserialize = PlatformChannelLayer.deserialize

    def deserialize(self, data):
        decoded.append(data)
        return real_deserialize(self, data)

    monkeypatch.setattr(PlatformChannelLayer, "deserialize", deserialize)
    await layer.group_send("table-2", {"type": "table.states", "n": 1})
    received = [await asyncio.wait_for(layer.receive(c), 5) for c in channels]
    assert received == [{"type": "table.states", "n": 1}] * 4
    assert len(decoded) == 1

    with redis.Redis.from_url(own_redis.url) as client:
        client.publish("asgi__group__table-2", b"not msgpack \xc1")
    await layer.group_send("table-2", {"type": "table.states", "n": 2})
    received = [await asyncio.wait_for(layer.receive(c), 5) for c in channels]
    assert received == [{"type": "table.states", "n": 2}] * 4
    assert "dropped an undecodable message on asgi__group__table-2" in caplog.text
    await layer.flush()


@in_own_event_loop
async def test_a_stalled_redis_fails_every_waiting_receive_and_refuses_new_channels(own_redis):
    """Redis stops answering: nothing tells a subscriber (its connection stays open), so
    the layer's ping does. Every socket's receive fails within seconds, a socket set up
    meanwhile is refused, not left listening to nothing; once Redis answers again new
    channels work."""
    layer = own_redis.layer()
    channels = [await layer.new_channel() for _ in range(3)]
    for channel in channels:
        await layer.group_add("table-1", channel)
    own_redis.server.signal(signal.SIGSTOP)
    try:
        outcomes = await asyncio.gather(
            *(fails_within(layer.receive(channel), NOTICED_WITHIN) for channel in channels)
        )
        for _error, took in outcomes:
            assert took <= NOTICED_WITHIN, took
        # A socket's channel is made before it is accepted: at once, its subscription in
        # the background; joining a group waits for Redis and fails, and so does the
        # channel's receive.
        started = time.monotonic()
        arriving = await layer.new_channel()
        assert time.monotonic() - started < 0.5
        with pytest.raises(RedisError):
            await asyncio.wait_for(layer.group_add("table-1", arriving), NOTICED_WITHIN + 5)
        await fails_within(layer.receive(arriving), NOTICED_WITHIN)
    finally:
        own_redis.server.signal(signal.SIGCONT)
    again = await layer.new_channel()
    await layer.group_add("table-1", again)
    await layer.group_send("table-1", {"type": "table.states"})
    assert await asyncio.wait_for(layer.receive(again), 5) == {"type": "table.states"}
    # The channels whose subscription was lost are gone from the layer.
    assert set(layer._get_layer().channels) == {again}
    await layer.flush()


@in_own_event_loop
async def test_a_subscription_lost_to_a_restart_is_never_mended_in_silence(own_redis):
    """Redis is killed and started again. A message published while it was down is lost
    (pub/sub keeps nothing), so a channel that was listening must not be subscribed
    again quietly and go on waiting: its receive fails, and a new channel hears the
    messages sent after the restart."""
    layer = own_redis.layer()
    listening = await layer.new_channel()
    await layer.group_add("table-1", listening)
    waiting = asyncio.ensure_future(layer.receive(listening))
    await asyncio.sleep(0.2)
    own_redis.server.kill()
    own_redis.start()
    with redis.Redis.from_url(own_redis.url) as client:
        client.publish("asgi__group__table-1", b"sent while the subscriber was away")
    _error, took = await fails_within(waiting, NOTICED_WITHIN)
    assert took <= NOTICED_WITHIN
    # A socket still setting itself up (joining its table's group) when the loss came
    # fails there too, as a service failure: its client comes back.
    with pytest.raises(RedisError):
        await layer.group_add("table-2", listening)
    # redis-py subscribed the failed connection again before it raised: it is closed.
    deadline = time.monotonic() + PONG_TIMEOUT + 2
    while own_redis.subscribers("asgi__group__table-1") and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert own_redis.subscribers("asgi__group__table-1") == 0
    fresh = await layer.new_channel()
    await layer.group_add("table-1", fresh)
    await layer.group_send("table-1", {"type": "after"})
    assert await asyncio.wait_for(layer.receive(fresh), 5) == {"type": "after"}
    await layer.flush()


@in_own_event_loop
async def test_sockets_joining_as_the_subscription_drops_fail_as_a_service_error(own_redis):
    """Sockets setting themselves up (joining their groups) just as Redis drops the
    subscription connection: redis-py connected the dropped connection again for them
    while the receiving loop waited on it, and asyncio refused the second reader with a
    RuntimeError, or the write found the connection's writer gone (an AttributeError):
    defects in the server's log, where each is the connection's loss. Every join ends
    either way a socket understands: subscribed, or a service failure to come back
    from. Then the layer serves again."""
    layer = own_redis.layer()
    joins: Counter[str] = Counter()

    async def join(group: str) -> None:
        channel = await layer.new_channel()
        try:
            await layer.group_add(group, channel)
            joins["subscribed"] += 1
        except RedisError:
            joins["service failure"] += 1
        except Exception as error:
            joins[repr(error)] += 1

    for round_ in range(20):
        await join(f"table-{round_}")  # the subscription connection is up
        await asyncio.sleep(0.05)
        with redis.Redis.from_url(own_redis.url) as client:
            client.client_kill_filter(_type="pubsub")
        await asyncio.gather(*(join(f"table-{round_}-{n}") for n in range(5)))
        await asyncio.sleep(0.1)
    assert set(joins) <= {"subscribed", "service failure"}, joins
    assert joins["service failure"] > 0  # the drops were met
    fresh = await layer.new_channel()
    await layer.group_add("after", fresh)
    await layer.group_send("after", {"type": "after"})
    assert await asyncio.wait_for(layer.receive(fresh), 5) == {"type": "after"}
    await layer.flush()


@in_own_event_loop
async def test_a_send_during_a_stall_holds_up_only_itself(own_redis):
    """Publishing takes no lock: while one send waits on a stalled Redis, a channel
    setting itself up elsewhere is not queued behind it, and both end within their
    timeouts with a service error."""
    layer = own_redis.layer()
    channel, arriving = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table-1", channel)
    own_redis.server.signal(signal.SIGSTOP)
    try:
        started = time.monotonic()
        send = asyncio.ensure_future(layer.group_send("table-1", {"type": "stalled"}))
        await asyncio.sleep(0.1)
        with pytest.raises(RedisError):
            await asyncio.wait_for(layer.group_add("table-2", arriving), NOTICED_WITHIN + 5)
        refused_after = time.monotonic() - started
        assert refused_after < 8, "the new channel waited for the stalled send"
        send.cancel()
    finally:
        own_redis.server.signal(signal.SIGCONT)
    await layer.flush()


@in_own_event_loop
async def test_a_send_under_way_when_the_layer_closes_ends_as_a_service_error(own_redis):
    """A send still connecting when the layer closes (its event loop ending, a server
    shutting down) or when its subscription is lost fails as a Redis error, logged as a
    service failure (a warning), never as an error inside redis-py from the connection
    pulled from under it halfway through its handshake (logged as a crash). The close
    comes after 0, 1, 2... turns of the event loop, so that some fall in the handshake."""
    outcomes = []
    for turns in list(range(16)) * 10:
        layer = own_redis.layer()
        shard = layer._get_layer()._shards[0]
        sends = [
            asyncio.ensure_future(layer.group_send("table-1", {"type": "t"})) for _ in range(3)
        ]
        for _ in range(turns):
            await asyncio.sleep(0)
        if turns % 3 == 1:
            shard._lose(RedisError("lost on purpose"))
            await asyncio.sleep(0)
        await asyncio.wait_for(layer.flush(), PONG_TIMEOUT + 5)
        outcomes += await asyncio.gather(*sends, return_exceptions=True)
    strange = [repr(o) for o in outcomes if o is not None and not isinstance(o, RedisError)]
    assert not strange, strange
    assert None in outcomes  # the sends under way were waited for

    # Redis stalls: the close waits for the sends no longer than pong_timeout, then
    # they fail as service errors, not after their own read timeout.
    layer = own_redis.layer()
    await layer.group_send("table-1", {"type": "t"})  # a connection in the pool
    own_redis.server.signal(signal.SIGSTOP)
    try:
        sends = [
            asyncio.ensure_future(layer.group_send("table-1", {"type": "t"})) for _ in range(3)
        ]
        await asyncio.sleep(0.2)
        started = time.monotonic()
        await asyncio.wait_for(layer.flush(), PONG_TIMEOUT + 5)
        outcomes = await asyncio.gather(*sends, return_exceptions=True)
        took = time.monotonic() - started
    finally:
        own_redis.server.signal(signal.SIGCONT)
    assert all(isinstance(o, RedisError) for o in outcomes), outcomes
    assert PONG_TIMEOUT - 0.1 <= took < PONG_TIMEOUT + 2, took
