"""Live play's statements given up when the database leaves them unanswered too long.

A database server process stopped or stalled (its machine swapping, its disk frozen, a
debugger attached) keeps its TCP connections alive: the kernel acknowledges every packet,
so ``tcp_user_timeout`` never fires, and the server's own timeouts cannot run either. A
socket's thread waiting on such a statement was held until the server woke, and with it
every table that thread serves (a worker, every bot and timer). A statement of live
play's work (the sockets' table and drawing threads, a worker's bot move, timer or
sweep: milliseconds of short statements; ``serves_live_play`` in base.py) that is not
answered within ``DB_STATEMENT_SECONDS`` is given up: one watchdog thread a process shuts
its connection's socket, the statement fails as on a dropped connection, and the work
goes the usual way (once more on a new connection, then refused with its message; a
COMMIT given up is of unknown outcome: ``games.commit.CommitUnanswered``).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import socket
import threading
import time
from collections.abc import Iterator

import psycopg

logger = logging.getLogger(__name__)


class Deadlines:
    """The statements in flight with a deadline, and the watchdog that gives up those
    past it (started with the first one)."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        # by serial number: (deadline, connection, thread name, statement)
        self._in_flight: dict[int, tuple[float, psycopg.Connection, str, str]] = {}
        self._serial = itertools.count()
        self._watchdog: threading.Thread | None = None
        self.given_up = 0

    def forget(self) -> None:
        """Start afresh in a forked child (a Celery worker's pool process): the parent's
        watchdog and lock are not its own."""
        self.__init__()  # type: ignore[misc]  # every field afresh; no subclass

    @contextlib.contextmanager
    def within(self, connection: psycopg.Connection, seconds: float, what: str) -> Iterator[None]:
        """Run the block (one statement on ``connection``) within ``seconds``, or have
        its connection shut."""
        key = next(self._serial)
        name = threading.current_thread().name
        with self._changed:
            if not self._in_flight:
                # the watchdog waits for a first statement (for a later one, it wakes at
                # the first's deadline: one limit for all, the first is due first)
                self._changed.notify()
            self._in_flight[key] = (time.monotonic() + seconds, connection, name, what)
            if self._watchdog is None:
                self._watchdog = threading.Thread(
                    target=self._watch, name="database-deadlines", daemon=True
                )
                self._watchdog.start()
        try:
            yield
        finally:
            with self._changed:
                self._in_flight.pop(key, None)

    def _watch(self) -> None:
        with self._changed:
            while True:
                if not self._in_flight:
                    self._changed.wait()
                    continue
                key, (deadline, connection, name, what) = min(
                    self._in_flight.items(), key=lambda item: item[1][0]
                )
                left = deadline - time.monotonic()
                if left > 0:
                    self._changed.wait(left)
                    continue
                # Still in flight, under the lock its thread takes to say it is done.
                del self._in_flight[key]
                self.given_up += 1
                logger.warning(
                    "%s: the database left %s unanswered past its deadline: connection given up",
                    name,
                    what,
                )
                shut(connection)


def shut(connection: psycopg.Connection) -> None:
    """Shut the connection's socket: a statement waiting on it fails at once, as on a
    connection the database dropped."""
    try:
        descriptor = os.dup(connection.pgconn.socket)
    except (psycopg.Error, OSError):
        return  # closed meanwhile: nothing waits on it
    with socket.socket(fileno=descriptor) as duplicate, contextlib.suppress(OSError):
        duplicate.shutdown(socket.SHUT_RDWR)


# The process's statements with a deadline.
deadlines = Deadlines()
os.register_at_fork(after_in_child=deadlines.forget)
