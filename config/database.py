"""The database connection of an HTTP request: closed when the request ends.

The servers keep their database connections between uses (``DB_CONN_MAX_AGE`` in the
settings). Django's ASGI handler runs each HTTP request in a thread of its own, so a
connection kept there would be used once and then wait for the thread to be collected;
this closes it when the request is over, as a connection age of 0 would. (Where the
requests share a pool of connections, the ASGI server on PostgreSQL, Django gives each
request's connection back to the pool when the request ends.)
"""

from __future__ import annotations

from typing import Any

from django.core.signals import request_finished
from django.db import connections


def close_request_connections(**kwargs: Any) -> None:
    """Close this thread's kept database connections (none inside a transaction: a
    test's request runs inside the test's)."""
    for connection in connections.all(initialized_only=True):
        if connection.settings_dict["CONN_MAX_AGE"] != 0 and not connection.in_atomic_block:
            connection.close()


def install() -> None:
    """Close each HTTP request's kept database connections when it ends."""
    request_finished.connect(close_request_connections, dispatch_uid="close_request_connections")
