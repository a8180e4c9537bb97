"""A database machine gone without a word, in a network of the test's own.

Run as ``unshare --net python -m tests.platform.dead_database_peer`` (as root): in a new
network namespace it starts a throwaway PostgreSQL server on its loopback, connects to it
as the platform does (Django, ``config.settings`` read from this environment), and then
discards silently every packet to or from the server's port, as a machine powered off or a
cut network would: no reset comes back. It prints, as JSON, how long the next query took
to fail and why (``error`` is null if it did not fail within ``WAIT_SECONDS``), then how
long a new connection's attempt took to fail and why (``connect_seconds``,
``connect_error``).
"""

import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

import django
from django.db import OperationalError, connection

from config.services import free_port, postgres_answers, postgres_service, wait_until
from tests.namespaces import cut_off, open_loopback

# How long the query is given to fail before the answer says it did not.
WAIT_SECONDS = 30.0


def time_a_query(port: int) -> dict:
    """Connect, cut ``port`` off, and return how long the next query took to fail
    (seconds) on the connection kept from before, and a new connection's attempt."""
    answer: dict[str, str | float | None] = {
        "seconds": None,
        "error": None,
        "connect_seconds": None,
        "connect_error": None,
    }

    def query() -> None:  # in one thread: Django's connection is the thread's own
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        cut_off(port)
        started = time.monotonic()
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
        except OperationalError as error:
            answer["error"] = str(error).strip()
        answer["seconds"] = time.monotonic() - started
        connection.close()
        started = time.monotonic()
        try:
            connection.ensure_connection()
        except OperationalError as error:
            answer["connect_error"] = str(error).strip()
        answer["connect_seconds"] = time.monotonic() - started

    # A thread of its own: without a limit the query waits on the kernel for many minutes.
    querying = threading.Thread(target=query, daemon=True)
    querying.start()
    querying.join(WAIT_SECONDS)
    return answer


def main() -> int:
    open_loopback()
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="dp-dead-peer-") as folder:
        server = postgres_service(Path(folder), port).start()
        try:
            wait_until(lambda: postgres_answers(port), 30, "PostgreSQL", [server])
            os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:{port}/postgres"
            django.setup()
            sys.stdout.write(json.dumps(time_a_query(port)) + "\n")
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
