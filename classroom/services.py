"""The backing services' failures (Redis gone or stalled, the database locked or down,
the Celery broker unreachable), named once for every handler that catches them.

A failing service is a message to the person, never a crash: the sockets of live play
and the broadcasts catch these, and the project's middleware
(config.unavailable.ServiceUnavailableMiddleware) answers an HTTP request that met one
with a 503. They live in the lowest app that catches them, so that no app imports the
project package (config imports the apps, for its routes).
"""

from __future__ import annotations

from django.db import DatabaseError
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import RedisError

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
