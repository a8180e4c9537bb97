"""The channel layer of the platform: channels-redis's pub/sub layer, with the failure
behaviour live play relies on.

A group send on channels-redis's core layer is three Redis commands and every idle
socket waits on a blocking read of its own; on the pub/sub layer a group send is one
``PUBLISH``, and a process subscribes once to each of its groups and reads all of them
on one connection (``benchmarks.bare``: about half the CPU per action). But Redis
pub/sub keeps nothing: a message published while a subscriber's connection is down is
gone. The pub/sub layer as shipped does not tell its sockets: its receive never fails,
a Redis that stalls leaves every socket open and deaf, and redis-py reconnects a lost
subscription quietly. Here:

- the subscription connection is never reconnected behind the sockets' back: when it
  fails, or Redis does not answer its ping within ``pong_timeout`` seconds, every socket
  of the process is told (its ``receive`` raises a redis ``ConnectionError``: the
  socket closes with "try again later", the client comes back and reads the table
  again), and the next subscription opens a new connection;
- a subscription waits for Redis to confirm it, so a socket is not set up (and its page
  does not say "Connected.") while Redis does not answer;
- publishing takes no lock: a stalled command holds up only its own send, each bounded
  by the connection's read timeout;
- a connection closed by the layer (the subscription lost, the layer flushed as its
  event loop ends) is closed once the sends on it are done, or after ``pong_timeout``;
  a send still on it then fails as a Redis ``ConnectionError``, a service failure,
  not as redis-py's own error from a connection pulled away halfway through its
  handshake.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Awaitable
from typing import Any

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _close_redis, _wrap_close, decode_hosts
from redis.asyncio.client import PubSub, Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from classroom.services import describe, is_service_failure

logger = logging.getLogger(__name__)

# The defaults of the layer's CONFIG (config.settings sets them).
PING_SECONDS = 3.0
PONG_TIMEOUT = 5.0

# A ping's payload, told apart from redis-py's own health-check pings.
PING_MESSAGE = "dp-channel-layer"

# How asyncio refuses a second reader of one connection. A subscription that comes as
# the subscription connection drops meets it: redis-py connects the dropped connection
# again for the subscription while the receiving loop, on the same connection, waits
# for its next message (found by benchmarks/chaos.py, Redis frozen and killed).
SECOND_READER = "another coroutine is already waiting for incoming data"


def connected(pubsub: PubSub) -> bool:
    """Whether a redis-py pub/sub object's connection is up."""
    connection = pubsub.connection
    return connection is not None and connection.is_connected


class Lost:
    """Put in a socket's queue when the subscription it listened on is gone."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


def lost_error(error: BaseException) -> RedisError:
    """Return the service error a socket's receive raises for a lost subscription."""
    if isinstance(error, RedisError):
        return error
    lost = RedisConnectionError(f"the channel layer lost Redis: {describe(error)}")
    lost.__cause__ = error
    return lost


def fail_pending(pending: asyncio.Future, error: BaseException) -> None:
    """Fail a subscription waiting for Redis's confirmation (marked retrieved: nobody
    else may be waiting for it)."""
    if not pending.done():
        pending.set_exception(lost_error(error))
        pending.exception()


class PlatformChannelLayer(RedisPubSubChannelLayer):
    """The pub/sub layer with a ``PlatformLoopLayer`` per event loop."""

    def _get_layer(self) -> PlatformLoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            # mypy cannot tell that ``_args`` stops before ``channel_layer``: Channels makes
            # a layer from its CONFIG's keywords, with no positional argument.
            layer = PlatformLoopLayer(*self._args, **self._kwargs, channel_layer=self)  # type: ignore[misc]
            self._layers[loop] = layer
            _wrap_close(self, loop)
        return layer


class PlatformLoopLayer(RedisPubSubLoopLayer):
    """One event loop's layer: the sockets' queues, the groups, one shard per host."""

    def __init__(
        self,
        hosts: list[str | dict] | None = None,
        prefix: str = "asgi",
        channel_layer: PlatformChannelLayer | None = None,
        ping_seconds: float = PING_SECONDS,
        pong_timeout: float = PONG_TIMEOUT,
        **kwargs: Any,
    ) -> None:
        super().__init__(hosts=hosts, prefix=prefix, channel_layer=channel_layer, **kwargs)
        self._shards = [
            Shard(host, self, ping_seconds=ping_seconds, pong_timeout=pong_timeout)
            for host in decode_hosts(hosts)
        ]

    async def new_channel(self, prefix: str = "specific.") -> str:
        """Return a new channel of this process, subscribed in the background.

        Channels asks for a socket's channel before the socket is accepted: waiting for
        Redis here would leave a page's connection hanging with no word while Redis
        stalls. The sockets hear their groups, which a socket joins once accepted
        (``group_add`` waits for Redis); when the channel's own subscription fails, its
        receive fails as when a subscription is lost.
        """
        channel = f"{self.prefix}{prefix}{uuid.uuid4().hex}"
        self.channels[channel] = asyncio.Queue()
        self._get_shard(channel).subscribe_soon(channel)
        return channel

    async def _subscribe_to_channel(self, channel: str) -> None:
        self.channels[channel] = asyncio.Queue()
        try:
            await self._get_shard(channel).subscribe(channel)
        except BaseException:
            self.channels.pop(channel, None)
            raise

    async def receive(self, channel: str) -> dict:
        """Return the next message of channel; raise a redis ``ConnectionError`` when the
        subscription it was listening on is gone (a message may have been lost)."""
        if channel not in self.channels:
            await self._subscribe_to_channel(channel)
        queue = self.channels[channel]
        try:
            message = await queue.get()
        except (TimeoutError, asyncio.CancelledError, GeneratorExit):
            # Channels cancels a socket's receive when the socket ends: the channel goes.
            self._forget(channel)
            raise
        if isinstance(message, Lost):
            self._forget(channel)
            raise lost_error(message.error)
        return message  # decoded as it arrived (Shard._receive_message)

    async def group_add(self, group: str, channel: str) -> None:
        """Add channel to group. A channel dropped because its subscription was lost (its
        receive failed) fails here as its receive did, with a service error: a socket
        still setting itself up when Redis went away (joining its table's group) then
        closes and its client comes back, as every other socket of the process does."""
        if channel not in self.channels:
            raise RedisConnectionError(f"the channel layer lost the subscription of {channel}")
        await super().group_add(group, channel)

    def _forget(self, channel: str) -> None:
        """Drop a channel and unsubscribe from it, without waiting for Redis."""
        if self.channels.pop(channel, None) is None:
            return
        self._get_shard(channel).unsubscribe_soon(channel)

    def lost(self, error: BaseException) -> None:
        """Tell every channel of this loop that its subscription is gone."""
        for queue in self.channels.values():
            queue.put_nowait(Lost(error))


class Shard(RedisSingleShardConnection):
    """One Redis host: a pool for publishing, one subscription connection read by a task,
    and a watchdog that pings Redis on that connection."""

    # Set by channels-redis's __init__ (the package has no types).
    channel_layer: PlatformLoopLayer
    _lock: asyncio.Lock
    _redis: Redis | None
    _pubsub: PubSub | None
    _subscribed_to: set[str]
    _receive_task: asyncio.Task | None

    def __init__(
        self,
        host: dict,
        channel_layer: PlatformLoopLayer,
        ping_seconds: float = PING_SECONDS,
        pong_timeout: float = PONG_TIMEOUT,
    ) -> None:
        # redis-py reconnects a pub/sub connection and subscribes again by itself when
        # its connection has retries: the messages published meanwhile would be lost
        # without a word. With none, a lost connection is an error this shard sees.
        super().__init__({**host, "retry": None, "retry_on_error": []}, channel_layer)
        self.ping_seconds = ping_seconds
        self.pong_timeout = pong_timeout
        self._confirming: dict[str, asyncio.Future] = {}
        self._pong: asyncio.Future | None = None
        self._watch_task: asyncio.Task | None = None
        self._background: set[asyncio.Task] = set()
        # The sends under way on each publishing client, waited for before it is closed.
        self._sending: dict[object, int] = {}

    async def publish(self, channel: str, message: bytes) -> None:
        self._ensure_redis()
        redis = self._redis
        assert redis is not None  # _ensure_redis made it
        self._sending[redis] = self._sending.get(redis, 0) + 1
        try:
            await redis.publish(channel, message)
        except RedisError:
            raise
        except Exception as error:
            if redis is self._redis:
                raise
            closed = RedisConnectionError("the channel layer closed this send's connection")
            raise closed from error
        finally:
            left = self._sending[redis] - 1
            if left:
                self._sending[redis] = left
            else:
                del self._sending[redis]

    async def _close(self, redis: Redis) -> None:
        """Close a publishing client this shard no longer uses, once its sends are done
        (at most ``pong_timeout`` later)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.pong_timeout
        while self._sending.get(redis) and loop.time() < deadline:
            await asyncio.sleep(0.01)
        await asyncio.wait_for(_close_redis(redis), self.pong_timeout)

    async def subscribe(self, channel: str) -> None:
        """Subscribe to channel and wait until Redis confirms it (``pong_timeout``)."""
        pending = self._confirming.get(channel)
        if pending is None and channel in self._subscribed_to:
            return
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._confirming[channel] = pending
            subscribed = self._subscribed_to
            subscribed.add(channel)
            pubsub = None
            try:
                async with self._lock:
                    self._ensure_redis()
                    self._ensure_receiver()
                    pubsub = self._pubsub
                    assert pubsub is not None  # _ensure_redis made it
                    await asyncio.wait_for(pubsub.subscribe(channel), self.pong_timeout)
            except BaseException as error:
                subscribed.discard(channel)
                if self._confirming.get(channel) is pending:
                    del self._confirming[channel]
                fail_pending(pending, error)
                failure = self._failure(error, pubsub)
                if failure is error:
                    raise
                raise failure from error
        try:
            await asyncio.wait_for(asyncio.shield(pending), self.pong_timeout)
        except TimeoutError as error:
            timeout = RedisTimeoutError(
                f"Redis did not confirm a subscription within {self.pong_timeout} s"
            )
            self._lose(timeout)
            raise timeout from error

    async def unsubscribe(self, channel: str) -> None:
        if channel not in self._subscribed_to:
            return
        self._subscribed_to.discard(channel)
        pending = self._confirming.pop(channel, None)
        if pending is not None and not pending.done():
            pending.cancel()
        if self._pubsub is None:
            return
        async with self._lock:
            await asyncio.wait_for(self._pubsub.unsubscribe(channel), self.pong_timeout)

    def subscribe_soon(self, channel: str) -> None:
        """Subscribe in the background; a failure is put in the channel's queue."""

        async def subscribe() -> None:
            try:
                await self.subscribe(channel)
            except Exception as error:
                queue = self.channel_layer.channels.get(channel)
                if queue is not None:
                    queue.put_nowait(Lost(error))

        self._in_background(subscribe())

    def _in_background(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def unsubscribe_soon(self, channel: str) -> None:
        """Unsubscribe in the background: a socket ending does not wait for Redis."""

        async def unsubscribe() -> None:
            try:
                await self.unsubscribe(channel)
            except Exception as error:  # the subscription goes with its connection
                if not is_service_failure(error) and not isinstance(error, TimeoutError):
                    raise
                logger.warning("could not unsubscribe from %s: %s", channel, describe(error))

        self._in_background(unsubscribe())

    def _failure(self, error: BaseException, pubsub: PubSub | None = None) -> BaseException:
        """Return the service error to raise for error, met while subscribing on
        ``pubsub``. Whatever redis-py raised on a subscription connection that went down
        under it (a second reader, a writer already gone) is that connection's loss:
        every socket of the process is told, as when the receiving loop finds it."""
        if isinstance(error, RedisError) or not isinstance(error, Exception):
            return error
        if isinstance(error, TimeoutError):  # asyncio's, in Python 3.11
            return RedisTimeoutError(f"Redis did not answer within {self.pong_timeout} s")
        if is_service_failure(error) or isinstance(error, OSError):
            return lost_error(error)
        went_down = pubsub is not None and (pubsub is not self._pubsub or not connected(pubsub))
        if went_down or SECOND_READER in str(error):
            lost = lost_error(error)
            if pubsub is not None and pubsub is self._pubsub:
                self._lose(lost)
            return lost
        return error

    def _ensure_receiver(self) -> None:
        super()._ensure_receiver()
        if self._watch_task is None:
            self._watch_task = asyncio.ensure_future(self._watch())

    async def _do_receiving(self) -> None:
        """Read the subscription connection; hand each message to its channels."""
        while True:
            pubsub = self._pubsub
            if pubsub is None or not pubsub.subscribed:
                await asyncio.sleep(0.1)
                continue
            try:
                message = await pubsub.get_message(timeout=0.1)
            except (asyncio.CancelledError, GeneratorExit):
                raise
            except Exception as error:
                if pubsub is self._pubsub:
                    self._lose(error)
                continue
            if message is not None and pubsub is self._pubsub:
                self._heard(message)

    def _heard(self, message: dict) -> None:
        kind = message["type"]
        if kind == "pong":
            if self._pong is not None and not self._pong.done():
                self._pong.set_result(None)
        elif kind == "subscribe":
            name = message["channel"]
            name = name.decode() if isinstance(name, bytes) else name
            pending = self._confirming.pop(name, None)
            if pending is not None and not pending.done():
                pending.set_result(None)
        elif kind == "message":
            self._receive_message(message)

    def _receive_message(self, message: dict) -> None:
        """Hand a message to the channel it names, or to every channel of this loop in
        the group it names, decoded once for all of them: decoding it in each socket's
        ``receive`` was a table's message unpacked once per socket at the table (the
        handlers read a message and never change it)."""
        name = message["channel"]
        name = name.decode() if isinstance(name, bytes) else name
        layer = self.channel_layer
        if name in layer.channels:
            receivers = [name]
        else:
            receivers = [
                channel for channel in layer.groups.get(name, ()) if channel in layer.channels
            ]
        if not receivers:
            return
        try:
            decoded = layer.channel_layer.deserialize(message["data"])
        except Exception as error:  # not a message of this layer: nobody could read it
            logger.warning("dropped an undecodable message on %s: %s", name, describe(error))
            return
        for channel in receivers:
            layer.channels[channel].put_nowait(decoded)

    async def _watch(self) -> None:
        """Ping Redis on the subscription connection; no answer in time means it is lost."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.ping_seconds)
            pubsub = self._pubsub
            if pubsub is None or not pubsub.subscribed:
                continue
            self._pong = loop.create_future()
            try:
                await asyncio.wait_for(pubsub.ping(PING_MESSAGE), self.pong_timeout)
                await asyncio.wait_for(asyncio.shield(self._pong), self.pong_timeout)
            except asyncio.CancelledError:
                raise
            except TimeoutError:
                if pubsub is self._pubsub:
                    silent = f"Redis did not answer a ping within {self.pong_timeout} s"
                    self._lose(RedisTimeoutError(silent))
            except Exception as error:
                if pubsub is self._pubsub:
                    self._lose(error)

    def _lose(self, error: BaseException) -> None:
        """The subscription connection is gone: tell every socket, start anew next time."""
        if self._redis is None:
            return
        logger.warning("channel layer: the subscription to Redis is lost: %s", describe(error))
        redis, pubsub = self._redis, self._pubsub
        self._redis, self._pubsub = None, None
        self._subscribed_to = set()
        confirming, self._confirming = self._confirming, {}
        for pending in confirming.values():
            fail_pending(pending, error)
        self.channel_layer.lost(error)

        async def close() -> None:
            # redis-py connects a failed pub/sub connection again (and subscribes it
            # again) before it raises: that connection is closed too.
            with contextlib.suppress(Exception):
                assert pubsub is not None  # made with the client (_ensure_redis)
                await asyncio.wait_for(pubsub.aclose(), self.pong_timeout)
            with contextlib.suppress(Exception):
                await self._close(redis)

        self._in_background(close())

    async def flush(self) -> None:
        """Stop the shard's tasks and close its connections (the layer's event loop is
        ending); the shard may be used again afterwards, with new connections."""
        for task in (self._watch_task, *self._background):
            if task is not None:
                task.cancel()
        self._watch_task = None
        self._confirming = {}
        async with self._lock:
            if self._receive_task is not None:
                self._receive_task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._receive_task
                self._receive_task = None
            redis, self._redis, self._pubsub = self._redis, None, None
            self._subscribed_to = set()
            if redis is not None:
                await self._close(redis)
