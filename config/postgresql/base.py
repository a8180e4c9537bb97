"""PostgreSQL, with the connection health check skipped for a connection in steady use.

Django's health check (``CONN_HEALTH_CHECKS``) runs ``SELECT 1`` before the first query
after every ``close_old_connections``, and Channels calls that around every piece of a
socket's database work: one more round trip to the database for each move and each
step of a socket's connect. A connection that ran a query less than
``HEALTH_CHECK_IDLE_SECONDS`` ago is taken as alive; one idle longer is checked as
before. A connection that failed meanwhile is still found: the failed query marks it
(Django's ``errors_occurred``) and it is checked, and closed, before its next use.
A restart or a failover drops every connection at once: once one is found dropped, each
other connection of the process is checked before its next use too (``lost_at``), so
that one piece of work, not one a connection, meets the drop.

The same rule checks a connection of a pool (``OPTIONS["pool"]``, which the ASGI
server's HTTP requests share: config/settings.py; its sockets' threads keep their own)
when the pool hands it out (Django's pool would check every time, or never); the pool
itself discards one returned broken. A thread that finds no free connection within the
pool's timeout opens one of its own, so that a database that is away refuses at once
and one that is back serves at once, where the pool alone would make every piece of
work wait out its timeout, and after an outage reconnect only on its back-off schedule.
Those connections beside the pool are at most ``POOL_OVERFLOW`` a process (the
database's ``max_connections`` is shared by every process): past that a thread waits
for a connection of either kind, and is refused after ``BUSY_SECONDS``.
"""

from __future__ import annotations

import contextlib
import threading
import time
from types import ModuleType
from typing import TYPE_CHECKING

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS
from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool, PoolTimeout

from config.postgresql.deadlines import deadlines

# A dropped connection (a database restart, a network or proxy timeout) is most often
# one that sat idle; one in use a moment ago answered then.
HEALTH_CHECK_IDLE_SECONDS = 5.0
# When each database (by alias) was last found to have dropped a connection of this
# process. A restart or a failover drops them all at once: every other connection used
# before that is checked before its next use too, rather than each failing its own
# query first (a page's 503, a move's second try).
lost_at: dict[str, float] = {}


def used_lately(connection: psycopg.Connection, alias: str) -> bool:
    """Whether the connection ran a query less than HEALTH_CHECK_IDLE_SECONDS ago, and
    since the database ``alias`` was last found to have dropped one."""
    used_at = getattr(connection, "used_at", None)
    return (
        used_at is not None
        and time.monotonic() - used_at < HEALTH_CHECK_IDLE_SECONDS
        and used_at > lost_at.get(alias, 0.0)
    )


def alive(connection: psycopg.Connection) -> bool:
    """Whether the connection answers a query (one round trip)."""
    try:
        ConnectionPool.check_connection(connection)
    except psycopg.Error:
        return False
    return True


def found_lost(alias: str) -> None:
    """Note that the database ``alias`` dropped a connection of this process just now."""
    lost_at[alias] = time.monotonic()


def serves_live_play() -> bool:
    """Whether this thread does live play's work now, marked so by live (its sockets'
    threads, a worker's bot move, timer or sweep): its statements have a deadline
    (config/postgresql/deadlines.py)."""
    return getattr(threading.current_thread(), "serves_live_play", False)


def keeps_database_connection() -> bool:
    """Whether this thread keeps a database connection of its own between uses, on
    PostgreSQL too, where the ASGI server's other threads share a pool: a thread that
    lives as long as the server and does its sockets' work, marked so by live.sockets.
    Its work then never waits for the pool, which a burst of HTTP requests (a class
    joining) may hold."""
    return getattr(threading.current_thread(), "keeps_database_connection", False)


# After the database refused a connection, the threads open their own (refused at once
# while it is away, taken at once when it is back) instead of waiting for the pool,
# which reconnects on its own schedule, backing off, for this long.
REFUSED_SECONDS = 2.0
# When each database (by alias) last refused a connection.
refused_at: dict[str, float] = {}


def refused_lately(alias: str) -> bool:
    """Whether the database refused a connection less than REFUSED_SECONDS ago."""
    refused = refused_at.get(alias)
    return refused is not None and time.monotonic() - refused < REFUSED_SECONDS


# A thread that finds the pool busy and every connection beside it open waits this long
# for either, then is refused (an HTTP request gets the 503 page): the requests holding
# them take some milliseconds each, so this is a database that does not answer.
BUSY_SECONDS = 5.0


class Overflow:
    """The connections a process opens beside a pool: at most ``size`` open at once."""

    def __init__(self, size: int) -> None:
        self.size, self.open = size, 0
        self._closed = threading.Condition()

    def take(self, timeout: float) -> bool:
        """Count one more open, waiting up to ``timeout`` seconds for room; say if done."""
        with self._closed:
            if not self._closed.wait_for(self._has_room, timeout):
                return False
            self.open += 1
            return True

    def give_back(self) -> None:
        """Count one fewer open (closed, or never opened)."""
        with self._closed:
            self.open -= 1
            self._closed.notify()

    def _has_room(self) -> bool:
        return self.open < self.size


# Each pooled database's overflow (by alias), as Django keeps each one's pool.
overflows: dict[str, Overflow] = {}


class DatabaseWrapper(base.DatabaseWrapper):
    # The connection was opened beside the pool (closed after its use, not given back).
    own_connection = False

    if TYPE_CHECKING:
        # Django's PostgreSQL backend has these; its stubs do not say so.
        Database: ModuleType  # psycopg
        pool: ConnectionPool | None  # None without OPTIONS["pool"]

        def _configure_connection(self, connection: psycopg.Connection) -> None: ...

    def __init__(self, settings_dict: dict, alias: str = DEFAULT_DB_ALIAS) -> None:
        """A thread that keeps its connection (``keeps_database_connection``) takes none
        from the pool: it keeps one for DB_CONN_MAX_AGE seconds, checked by
        the rule above."""
        if settings_dict["OPTIONS"].get("pool") and keeps_database_connection():
            options = {k: v for k, v in settings_dict["OPTIONS"].items() if k != "pool"}
            settings_dict = {
                **settings_dict,
                "OPTIONS": options,
                "CONN_MAX_AGE": settings.DB_CONN_MAX_AGE,
                "CONN_HEALTH_CHECKS": True,
            }
        super().__init__(settings_dict, alias)
        self.execute_wrappers.append(self._statement_within_deadline)

    def _statement_within_deadline(self, execute, sql, params, many, context):
        with self._within_deadline("a statement"):
            return execute(sql, params, many, context)

    def _within_deadline(self, what: str) -> contextlib.AbstractContextManager[None]:
        """Run the block within DB_STATEMENT_SECONDS when this thread serves live play
        (``serves_live_play``): its statements are short, and a table waits on them."""
        if self.connection is None or not serves_live_play():
            return contextlib.nullcontext()
        return deadlines.within(self.connection, settings.DB_STATEMENT_SECONDS, what)

    def _commit(self) -> None:
        with self._within_deadline("a COMMIT"):
            super()._commit()  # type: ignore[misc]  # Django's, not in the stubs

    def _rollback(self) -> None:
        with self._within_deadline("a ROLLBACK"):
            super()._rollback()  # type: ignore[misc]  # Django's, not in the stubs

    def get_new_connection(self, conn_params: dict) -> psycopg.Connection:
        """With a pool: a sound connection of the pool, or else one of this thread's own.

        A pooled connection that sat idle is checked; one that does not answer goes
        back (the pool discards a broken one) and the next is taken. When none comes
        within the pool's timeout (every one busy, or the database gone: the pool's
        wait would end only with its timeout, and after the database is back the pool
        reconnects only on its back-off schedule) the thread opens its own, as it would
        without a pool: a database that is away refuses it at once. Those are at most
        ``overflow.size`` at once; with none free the thread tries both again, and after
        ``BUSY_SECONDS`` is refused.
        """
        if self.pool is None:
            return super().get_new_connection(conn_params)
        overflow = self.overflow
        deadline = time.monotonic() + BUSY_SECONDS
        while True:
            if refused_lately(self.alias):
                wait = self.pool.timeout  # the pool is skipped: wait for room here
            else:
                connection = self._pooled_connection(conn_params)
                if connection is not None:
                    return connection
                wait = 0.0  # the pool's timeout was just waited
            if overflow.take(wait):
                return self._own_connection(conn_params)
            if time.monotonic() >= deadline:
                raise self.Database.OperationalError(
                    f"every database connection of this process is busy "
                    f"({self.pool.max_size} pooled, {overflow.size} beside the pool)"
                )

    @property
    def overflow(self) -> Overflow:
        """This database's connections beside the pool (``POOL_OVERFLOW``, at least 1:
        the one that finds a database away)."""
        overflow = overflows.get(self.alias)
        if overflow is None:
            assert self.pool is not None  # only a pooled database has connections beside it
            size = max(1, self.settings_dict.get("POOL_OVERFLOW", self.pool.max_size))
            overflow = overflows.setdefault(self.alias, Overflow(size))
        return overflow

    def close_pool(self) -> None:
        super().close_pool()  # type: ignore[misc]  # Django's, not in the stubs
        overflows.pop(self.alias, None)

    def _pooled_connection(self, conn_params: dict) -> psycopg.Connection | None:
        pool = self.pool
        assert pool is not None  # get_new_connection checked it
        for _ in range(pool.max_size):
            try:
                connection = super().get_new_connection(conn_params)
            except PoolTimeout:
                return None
            if used_lately(connection, self.alias) or alive(connection):
                return connection
            found_lost(self.alias)
            pool.putconn(connection)
        return None

    def _own_connection(self, conn_params: dict) -> psycopg.Connection:
        """Open a connection beside the pool (its room in ``overflow`` taken)."""
        try:
            connection = self.Database.connect(**conn_params, autocommit=True)
        except psycopg.OperationalError:
            refused_at[self.alias] = time.monotonic()
            self.overflow.give_back()
            raise
        refused_at.pop(self.alias, None)
        try:
            # What the pool does to each connection it opens (the time zone, the role).
            self._configure_connection(connection)
        except Exception:
            connection.close()
            self.overflow.give_back()
            raise
        self.own_connection = True
        return connection

    def _close(self) -> None:
        if self.own_connection:
            self.own_connection = False
            self.overflow.give_back()
            if self.connection is not None:
                with self.wrap_database_errors:
                    self.connection.close()
                self.connection = None
            return
        super()._close()  # type: ignore[misc]  # Django's, not in the stubs

    def close_if_health_check_failed(self) -> None:
        """Check a kept connection only when it sat idle (a new one is not checked before
        the next ``close_old_connections`` anyway)."""
        if (
            self.connection is not None
            and not self.pool
            and used_lately(self.connection, self.alias)
        ):
            self.health_check_done = True
        super().close_if_health_check_failed()

    def is_usable(self) -> bool:
        """Whether the connection answers; one that does not is noted (``found_lost``)."""
        with self._within_deadline("a health check"):
            usable = super().is_usable()
        if usable:
            return True
        if self.connection is not None:
            found_lost(self.alias)
        return False

    def _cursor(self, name=None):
        cursor = super()._cursor(name)  # type: ignore[misc]  # Django's, not in the stubs
        self.connection.used_at = time.monotonic()
        return cursor
