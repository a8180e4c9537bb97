"""Every Redis client has deliberate timeouts, and a Redis that is gone is a clear
message, never a crash (docs/ops.md, "Redis connections")."""

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels_redis.utils import create_pool
from django.core.cache import BaseCache, cache, caches
from django.test import override_settings
from kombu.transport import redis as kombu_redis

from config import broker
from config.celery import app
from config.services import free_port
from live.write import REDIS_PROBE_KEY
from tests.classroom.channels_testing import in_own_event_loop


def redis_client(of: BaseCache = cache, *, write: bool = False) -> redis.Redis:
    """The redis-py client of a Redis cache object (``cache``: this thread's default)."""
    # Django's RedisCache has _cache (its RedisCacheClient); its stubs do not say so.
    return of._cache.get_client(write=write)  # type: ignore[attr-defined]


@in_own_event_loop
async def test_the_channel_layer_notices_a_silent_redis_before_its_read_timeout(settings):
    """The layer's subscription is pinged (config/channel_layer.py): the ping and its
    answer must come before a send's read timeout, so a stalled Redis closes the sockets
    first; and the connection has no retries, so a lost subscription is never mended
    behind the sockets' back."""
    layer = get_channel_layer()
    shard = layer._get_layer()._shards[0]
    assert shard.ping_seconds == settings.CHANNEL_LAYER_PING_SECONDS
    assert shard.pong_timeout == settings.CHANNEL_LAYER_PONG_TIMEOUT
    kwargs = create_pool(shard.host).connection_kwargs
    assert shard.ping_seconds + shard.pong_timeout <= kwargs["socket_timeout"]
    assert kwargs["socket_timeout"] == settings.CHANNEL_LAYER_READ_TIMEOUT
    assert kwargs["socket_connect_timeout"] == settings.REDIS_CONNECT_TIMEOUT
    assert kwargs["health_check_interval"] > 0 and kwargs["socket_keepalive"]
    assert create_pool(shard.host).make_connection().retry.get_retries() == 0


def test_the_cache_and_celery_have_short_deliberate_timeouts(settings):
    kwargs = redis_client().connection_pool.connection_kwargs
    assert kwargs["socket_timeout"] == settings.REDIS_CACHE_TIMEOUT
    assert kwargs["socket_connect_timeout"] == settings.REDIS_CONNECT_TIMEOUT
    with app.connection_for_write() as connection:
        options = connection.transport_options
        assert options["socket_timeout"] == settings.CELERY_REDIS_READ_TIMEOUT
        assert options["socket_connect_timeout"] == settings.REDIS_CONNECT_TIMEOUT
        # kombu's broker polls with a 1 s BRPOP: its read timeout must outlast that.
        assert options["socket_timeout"] > connection.default_channel.brpop_timeout
    assert app.conf.redis_socket_timeout == settings.CELERY_REDIS_READ_TIMEOUT
    assert app.conf.redis_socket_connect_timeout == settings.REDIS_CONNECT_TIMEOUT


def test_the_broker_sends_its_commands_through_one_client_per_channel(monkeypatch):
    """kombu's Redis channel made a redis-py client for every message it published;
    the project's (config.broker) makes one, and the messages still arrive."""
    made = []
    create = kombu_redis.Channel._create_client

    def counted(channel, asynchronous=False):
        if not asynchronous:
            made.append(channel)
        return create(channel, asynchronous)

    monkeypatch.setattr(kombu_redis.Channel, "_create_client", counted)
    with app.connection_for_write() as connection:
        assert isinstance(connection.default_channel, broker.Channel)
        with connection.SimpleQueue("dp-test-broker") as queue:
            for number in range(5):
                queue.put({"number": number})
            received = []
            for _ in range(5):
                message = queue.get(timeout=5)
                received.append(message.payload["number"])
                message.ack()
            queue.clear()
    assert received == [0, 1, 2, 3, 4]
    assert len(made) == len(set(made)) == 1, made


@in_own_event_loop
async def test_an_idle_channel_layer_receive_outlasts_its_pings(settings):
    """The real layer on the test Redis: a receive with nothing to read waits through
    several of the layer's pings without an error, then gets its message."""
    layer = get_channel_layer()
    channel = await layer.new_channel()

    async def send_later():
        await asyncio.sleep(2 * settings.CHANNEL_LAYER_PING_SECONDS + 1)
        await layer.send(channel, {"type": "hello"})

    sender = asyncio.create_task(send_later())
    message = await asyncio.wait_for(layer.receive(channel), 30)
    await sender
    assert message == {"type": "hello"}


BURST = 400


@in_own_event_loop
async def test_a_burst_of_sockets_leaving_at_once_fits_the_channel_layers_pool():
    """When a school's network drops or a class ends, hundreds of sockets of one server
    process leave their groups at once while the moves go on being sent. Each group
    operation takes a pooled connection; redis-py 8 caps a pool at 100 and failed the
    rest with "Too many connections" (states lost, groups never left)."""
    layer = get_channel_layer()
    channels = [await layer.new_channel() for _ in range(BURST)]
    await asyncio.gather(*(layer.group_add(f"burst-{n}", c) for n, c in enumerate(channels)))
    outcomes = await asyncio.gather(
        *(layer.group_discard(f"burst-{n}", c) for n, c in enumerate(channels)),
        *(layer.group_send(f"burst-{n}", {"type": "state"}) for n in range(BURST)),
        return_exceptions=True,
    )
    failures = [repr(outcome) for outcome in outcomes if isinstance(outcome, BaseException)]
    assert failures == [], f"{len(failures)} of {2 * BURST} failed, e.g. {failures[0]}"
    await layer.flush()


SOCKETS = 30


@in_own_event_loop
async def test_the_sockets_of_a_process_share_its_cache_connections(settings):
    """Each socket of the ASGI server is an async context of its own, and Django keeps
    a cache object per context: every socket's cache calls (the Redis check before each
    move) made a pool of their own and connected to Redis again."""

    def connections_opened() -> int:
        with redis.Redis.from_url(settings.REDIS_URL) as client:
            return client.info("stats")["total_connections_received"]

    @database_sync_to_async
    def check_redis() -> None:
        cache.get(REDIS_PROBE_KEY)

    async def socket() -> None:
        for _move in range(5):
            await check_redis()

    before = connections_opened()
    await asyncio.gather(*(asyncio.create_task(socket()) for _ in range(SOCKETS)))
    # The moves of all the sockets run one at a time in the database thread: one
    # connection serves them (the second call to connections_opened opens one more).
    assert connections_opened() - before - 1 <= 1


def test_the_cache_calls_of_a_process_share_one_redis_client():
    """Django built a redis-py client for every cache call: building one (its table of
    reply parsers) cost twice the Redis check before a move. Each thread has a cache
    object of its own; they share the client, as they share its pool."""

    def in_another_thread() -> redis.Redis:
        return redis_client(caches["default"])  # that thread's cache object

    clients = [redis_client(), redis_client(write=True)]
    clients.append(ThreadPoolExecutor(1).submit(in_another_thread).result())
    assert clients[0] is clients[1] is clients[2]
    assert cache.get(REDIS_PROBE_KEY) is None  # and it works


@pytest.mark.django_db
def test_a_request_that_meets_a_redis_that_is_gone_gets_a_503_that_says_to_try_again(client):
    dead = f"redis://127.0.0.1:{free_port()}/0"
    caches = {
        "default": {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": dead,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    with override_settings(CACHES=caches):
        program = client.post(
            "/join/",
            data=json.dumps({"code": "ZZZZZZ", "nickname": "Zed"}),
            content_type="application/json",
        )
        person = client.post("/join/", {"code": "ZZZZZZ", "nickname": "Zed"})
    assert program.status_code == 503 and program["Retry-After"] == "5"
    assert program.json()["error"]["code"] == "unavailable"
    assert "try again" in program.json()["error"]["message"]
    assert person.status_code == 503
    assert "try again in a few seconds" in person.content.decode()


@in_own_event_loop
async def test_every_redis_client_reads_its_replies_with_hiredis():
    """Each move's states reach every process as a Redis pub/sub message of several
    kilobytes, read by the channel layer's connection; redis-py parses replies in C when
    hiredis is installed (pyproject.toml), else in Python, a few percent of a server's
    time under load. A lock that lost it would slow every server without a word."""
    assert redis.utils.HIREDIS_AVAILABLE
    layer = get_channel_layer()
    await layer.group_add("hiredis-check", await layer.new_channel())
    shard = layer._get_layer()._shards[0]
    connection = shard._pubsub.connection
    assert type(connection._parser).__name__ == "_AsyncHiredisParser"
    sync = redis_client().connection_pool.get_connection()
    try:
        assert type(sync._parser).__name__ == "_HiredisParser"
    finally:
        redis_client().connection_pool.release(sync)
