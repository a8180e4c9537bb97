"""The Celery broker's transport: kombu's Redis transport, one client per channel.

kombu's Redis channel makes a new redis-py client for every message it publishes (and
for every other command outside its consumer's connection): a client copies a table of
about 170 reply parsers when it is made, a tenth of the CPU of queueing a bot's move or
a timer, which live play does after most moves. The client shares the channel's
connection pool, which is where the connections and their state live, so one client per
channel, made when first needed, does the same (kombu keeps its consumer's client the
same way; config.cache does it for Django's cache). A redis-py client is safe to share
between threads.

kombu names the broker by its transport in its log lines ("Cannot connect to
config.broker:Transport://127.0.0.1:6399/0" while Redis is away).
"""

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cached_property

from kombu.transport import redis
from redis import Redis


class Channel(redis.Channel):
    """kombu's Redis channel, its commands sent through one client."""

    @cached_property
    def _commands_client(self):
        return self._create_client()

    @contextmanager
    def conn_or_acquire(self, client: Redis | None = None) -> Iterator[Redis]:
        yield client or self._commands_client


class Transport(redis.Transport):
    """kombu's Redis transport with ``Channel``."""

    Channel = Channel
