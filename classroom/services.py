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


def describe(error: BaseException) -> str:
    """Return one log line's worth about a service failure."""
    return f"{error.__class__.__module__}.{error.__class__.__name__}: {error}"
