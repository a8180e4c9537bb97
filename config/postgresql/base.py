"""PostgreSQL, with the connection health check skipped for a connection in steady use.

Django's health check (``CONN_HEALTH_CHECKS``) runs ``SELECT 1`` before the first query
after every ``close_old_connections``, and Channels calls that around every piece of a
socket's database work: one more round trip to the database for each move and each
step of a socket's connect. A connection that ran a query less than
``HEALTH_CHECK_IDLE_SECONDS`` ago is taken as alive; one idle longer is checked as
before. A connection that failed meanwhile is still found: the failed query marks it
(Django's ``errors_occurred``) and it is checked, and closed, before its next use.

The same rule checks a connection of a pool (``OPTIONS["pool"]``, which the ASGI
server's threads share: config/settings.py) when the pool hands it out (Django's pool
would check every time, or never); the pool itself discards one returned broken.
"""

from __future__ import annotations

import time

import psycopg
from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool

# A dropped connection (a database restart, a network or proxy timeout) is most often
# one that sat idle; one in use a moment ago answered then.
HEALTH_CHECK_IDLE_SECONDS = 5.0


def used_lately(connection: psycopg.Connection) -> bool:
    """Whether the connection ran a query less than HEALTH_CHECK_IDLE_SECONDS ago."""
    used_at = getattr(connection, "used_at", None)
    return used_at is not None and time.monotonic() - used_at < HEALTH_CHECK_IDLE_SECONDS


def alive(connection: psycopg.Connection) -> bool:
    """Whether the connection answers a query (one round trip)."""
    try:
        ConnectionPool.check_connection(connection)
    except psycopg.Error:
        return False
    return True


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params: dict) -> psycopg.Connection:
        """With a pool, check the connection it hands out if it sat idle; one that does
        not answer goes back (the pool discards a broken one) and the next is taken."""
        connection = super().get_new_connection(conn_params)
        pool = self.pool
        if pool is None:
            return connection
        for _ in range(pool.max_size):
            if used_lately(connection) or alive(connection):
                return connection
            pool.putconn(connection)
            connection = super().get_new_connection(conn_params)
        return connection

    def close_if_health_check_failed(self) -> None:
        """Check a kept connection only when it sat idle (a new one is not checked before
        the next ``close_old_connections`` anyway)."""
        if self.connection is not None and not self.pool and used_lately(self.connection):
            self.health_check_done = True
        super().close_if_health_check_failed()

    def _cursor(self, name=None):
        cursor = super()._cursor(name)
        self.connection.used_at = time.monotonic()
        return cursor
