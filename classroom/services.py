"""The backing services' failures (Redis gone or stalled, the database locked or down,
the Celery broker unreachable), named once for every handler that catches them.

A failing service is a message to the person, never a crash: the sockets of live play
and the broadcasts catch these, and the project's middleware
(config.unavailable.ServiceUnavailableMiddleware) answers an HTTP request that met one
with a 503. They live in the lowest app that catches them, so that no app imports the
project package (config imports the apps, for its routes). Work that may run twice
runs once more when it met a kept database connection that was lost
(``again_on_lost_connection``).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.db import DatabaseError, InterfaceError, OperationalError, connection
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

SERVICE_ERRORS: tuple[type[BaseException], ...] = (RedisError, DatabaseError, BrokerError)

# How uvloop (uvicorn's event loop) refuses a write on a connection that already closed.
# redis-py's asyncio client lets it through as it is when Redis dies under a command
# (a kill -9 of Redis, found by benchmarks/chaos.py), instead of a ConnectionError.
CLOSED_CONNECTION = "the handler is closed"


def is_service_failure(error: BaseException) -> bool:
    """Tell whether error is a backing service's failure: one of SERVICE_ERRORS, or the
    RuntimeError of a write on a connection (to Redis) that its server closed."""
    return isinstance(error, SERVICE_ERRORS) or (
        isinstance(error, RuntimeError) and CLOSED_CONNECTION in str(error)
    )


def describe(error: BaseException) -> str:
    """Return one log line's worth about a service failure."""
    return f"{error.__class__.__module__}.{error.__class__.__name__}: {error}"


def again_on_lost_connection(func: Callable[P, R]) -> Callable[P, R]:
    """Return ``func`` run once more, on a new database connection, when the kept one it
    met turns out lost: the database restarted, failed over or dropped it while the
    thread used it steadily, and no health check runs before each use then
    (config/postgresql/base.py). Only for work that may run twice: a read, or a move,
    whose version compare-and-set refuses a second run as stale if the first was stored
    after all (its commit's answer lost with the connection)."""

    @functools.wraps(func)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        kept = connection.connection is not None and not connection.in_atomic_block
        try:
            return func(*args, **kwargs)
        except (OperationalError, InterfaceError) as error:
            # A failed transaction's rollback closed a lost connection; one found lost
            # outside a transaction fails its check (psycopg refuses a broken
            # connection at once: no round trip).
            if not kept or (connection.connection is not None and connection.is_usable()):
                raise
            logger.warning("database connection lost (%s): once more on a new one", error)
            connection.close()
        return func(*args, **kwargs)

    return run
