"""The Redis cache's connections, shared by the whole process."""

from __future__ import annotations

import threading
from typing import ClassVar

import redis


class SharedConnectionPool(redis.ConnectionPool):
    """One connection pool per Redis URL and options for every cache object of a process.

    Django keeps a cache object per thread and per async context, and each object makes
    its own pool: in the ASGI server every socket is a context of its own, so a socket's
    first cache call (the Redis check before a move, the rate limits) opened a new
    connection to Redis and paid its handshake. redis-py's pools are thread-safe and
    start afresh in a forked child (the Celery pool), so one per process is enough.
    """

    _shared: ClassVar[dict[tuple, SharedConnectionPool]] = {}
    _lock: ClassVar[threading.Lock] = threading.Lock()

    @classmethod
    def from_url(cls, url: str, **kwargs) -> SharedConnectionPool:
        key = (url, tuple(sorted((name, repr(value)) for name, value in kwargs.items())))
        with cls._lock:
            pool = cls._shared.get(key)
            if pool is None:
                pool = cls._shared[key] = super().from_url(url, **kwargs)
        return pool
