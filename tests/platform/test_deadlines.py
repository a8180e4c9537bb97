"""The watchdog of live play's statements (config/postgresql/deadlines.py), on a socket
pair standing for a database connection: a statement left unanswered past its deadline
has its connection shut, and one answered in time is left alone."""

import os
import socket
import time
from types import SimpleNamespace
from typing import cast

import psycopg

from config.postgresql.deadlines import Deadlines
from config.postgresql.deadlines import deadlines as process_deadlines


def connection_on(sock: socket.socket) -> psycopg.Connection:
    """An object with what the watchdog reads of a psycopg connection: its socket."""
    # a stand-in, typed as what the watchdog takes: it reads nothing else of it
    return cast(psycopg.Connection, SimpleNamespace(pgconn=SimpleNamespace(socket=sock.fileno())))


def test_a_statement_left_unanswered_past_its_deadline_has_its_connection_shut(caplog):
    deadlines = Deadlines()
    client, server = socket.socketpair()
    with client, server:
        started = time.monotonic()
        with deadlines.within(connection_on(client), 0.3, "a statement"):
            answer = client.recv(1)  # the database never answers
        waited = time.monotonic() - started
    assert answer == b""  # shut: the read ends, as on a dropped connection
    assert 0.3 <= waited < 2
    assert deadlines.given_up == 1
    assert "left a statement unanswered past its deadline" in caplog.text


def test_a_statement_answered_in_time_keeps_its_connection():
    deadlines = Deadlines()
    client, server = socket.socketpair()
    with client, server:
        for _ in range(3):
            with deadlines.within(connection_on(client), 0.3, "a statement"):
                server.send(b"x")
                assert client.recv(1) == b"x"
        time.sleep(0.5)  # past the deadlines of the statements done
        server.send(b"y")
        assert client.recv(1) == b"y"
    assert deadlines.given_up == 0


def test_a_forked_child_starts_afresh():
    """A Celery worker's pool process is forked: the parent's watchdog thread is not
    the child's, and the child starts its own."""
    client, server = socket.socketpair()
    with client, server:
        with process_deadlines.within(connection_on(client), 5, "a statement"):
            pass
        assert process_deadlines._watchdog is not None  # the parent's
        child = os.fork()
        if child == 0:  # pragma: no cover (the child's exit status is the answer)
            fresh = process_deadlines._watchdog is None
            client.settimeout(3)  # without a watchdog of its own, nothing shuts it
            with process_deadlines.within(connection_on(client), 0.2, "a statement"):
                try:
                    shut = client.recv(1) == b""
                except TimeoutError:
                    shut = False
            os._exit(0 if fresh and shut else 1)
        _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
