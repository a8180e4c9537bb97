"""The servers' database connections: an HTTP request's is closed when the request
ends; a kept one that was lost is replaced for the work that met it.

The servers keep their database connections between uses (``DB_CONN_MAX_AGE`` in the
settings). Django's ASGI handler runs each HTTP request in a thread of its own, so a
connection kept there would be used once and then wait for the thread to be collected;
this closes it when the request is over, as a connection age of 0 would. (Where the
requests share a pool of connections, the ASGI server on PostgreSQL, Django gives each
request's connection back to the pool when the request ends.)

A kept connection in steady use is not checked before each use (config/postgresql/base.py),
so the work that meets one the database dropped fails; work that may run twice is run
again on a new connection (``again_on_lost_connection``).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.core.signals import request_finished
from django.db import InterfaceError, OperationalError, connection, connections

logger = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")


def close_request_connections(**kwargs) -> None:
    """Close this thread's kept database connections (none inside a transaction: a
    test's request runs inside the test's)."""
    for database in connections.all(initialized_only=True):
        if database.settings_dict["CONN_MAX_AGE"] != 0 and not database.in_atomic_block:
            database.close()


def install() -> None:
    """Close each HTTP request's kept database connections when it ends."""
    request_finished.connect(close_request_connections, dispatch_uid="close_request_connections")


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
