"""The backing services' failures (Redis gone or stalled, the database locked or down,
the Celery broker unreachable), named once for every handler that catches them.

A failing service is a message to the person, never a crash: the sockets of live play
and the broadcasts catch these, and the project's middleware
(config.unavailable.ServiceUnavailableMiddleware) answers an HTTP request that met one
with a 503. They live in the lowest app that catches them, so that no app imports the
project package (config imports the apps, for its routes). Work that may run twice
runs once more when it met a kept database connection that was lost
(``again_on_lost_connection``); a move's second run asks ``running_again`` whether its
first may have been stored. Work that may not run twice checks its connection first
(``close_if_lost``).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from contextvars import ContextVar
from typing import ParamSpec, TypeVar

from django.db import DatabaseError, InterfaceError, OperationalError, connection
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import RedisError

from games.commit import CommitUnanswered

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


# True while work decorated with ``again_on_lost_connection`` runs its second time.
_RUNNING_AGAIN: ContextVar[bool] = ContextVar("running_again", default=False)


def running_again() -> bool:
    """Tell whether this is the second run of work that met a lost connection
    (``again_on_lost_connection``). A move's first run may then have been stored: the
    connection can be lost during its COMMIT, after the database stored it and before
    its answer came back. The second run finds the move stored rather than refused as
    stale, and finishes what follows it (games.matches.stored_move)."""
    return _RUNNING_AGAIN.get()


def again_on_lost_connection(func: Callable[P, R]) -> Callable[P, R]:
    """Return ``func`` run once more, on a new database connection, when the kept one it
    met turns out lost: the database restarted, failed over or dropped it while the
    thread used it steadily, and no health check runs before each use then
    (config/postgresql/base.py). Only for work that may run twice: a read, or a move,
    whose version tells whether the first run was stored (its commit's answer lost with
    the connection: ``running_again``). A first run that lost its connection during its
    COMMIT (``CommitUnanswered``) and a second that fails on a service as well leave the
    outcome unknown: CommitUnanswered is raised, never the plain failure, which would
    say that nothing was stored."""

    @functools.wraps(func)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        met = None if connection.in_atomic_block else connection.connection
        try:
            return func(*args, **kwargs)
        except (OperationalError, InterfaceError) as error:
            if met is None or not lost(met):
                raise
            logger.warning("database connection lost (%s): once more on a new one", error)
            connection.close()
            first = error
        again = _RUNNING_AGAIN.set(True)
        try:
            return func(*args, **kwargs)
        except SERVICE_ERRORS as second:
            if isinstance(first, CommitUnanswered):
                # The second run could not look: the first's outcome is still unknown.
                raise CommitUnanswered(f"{first}; then {describe(second)}") from second
            raise
        finally:
            _RUNNING_AGAIN.reset(again)

    return run


def lost(met: object) -> bool:
    """Tell whether the database connection ``met`` (the driver's) was lost: Django
    replaced it, or it fails its check.

    A transaction whose COMMIT or ROLLBACK failed on a lost connection had it closed,
    and Django opened the next one at once to restore autocommit; one found lost outside
    a transaction fails its check (psycopg refuses a broken connection at once: no
    round trip)."""
    return met is not connection.connection or not connection.is_usable()


def close_if_lost() -> None:
    """Close this thread's kept database connection when it no longer answers (one round
    trip on PostgreSQL; none on SQLite), so that work which may not run twice, such as
    counting a socket on its seat, begins on a sound connection rather than failing
    on a dropped one."""
    kept = connection.connection is not None and not connection.in_atomic_block
    if kept and not connection.is_usable():
        connection.close()
