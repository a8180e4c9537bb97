"""The servers keep their database connections between uses instead of opening one for
every message, task or request: a Celery pool process and an ASGI process's socket
threads keep theirs; on PostgreSQL an ASGI process's HTTP requests share a pool."""

import json
import random
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.signals import request_finished
from django.db import connection, transaction

from classroom import actions
from classroom.models import Participant, Table
from config import asgi
from config.postgresql.base import HEALTH_CHECK_IDLE_SECONDS
from config.services import ASGI_DB_POOL_SIZE
from games.matches import load_state
from games.models import Match, MatchAction
from live import write
from tests.live.conftest import open_session, seat_students
from tests.live.protocol_driver import drive, join, run

pytestmark = pytest.mark.django_db(transaction=True)


def sessions_opened() -> int:
    """Return how many sessions PostgreSQL has opened on the test database so far."""
    time.sleep(1.5)  # a backend reports its counts when idle for a second, or as it ends
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        return cursor.fetchone()[0]


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="PostgreSQL counts the sessions it opens"
)
def test_a_server_s_sockets_share_one_database_connection(
    school_class, live_server_url, celery_worker
):
    session = open_session(school_class, table_size=2)
    seats = [join(live_server_url, session.join_code, name) for name in ("Ana", "Ben")]
    actions.do_start_session(session)
    before = sessions_opened()
    outcome = run(
        drive, live_server_url, seats, random.Random(5), stop=lambda state: state["version"] >= 30
    )
    opened = sessions_opened() - before
    assert outcome["version"] >= 30
    # Thirty moves, each a socket message and its database work: the server's socket
    # thread kept its connection (and the worker's pool processes theirs, for timers).
    assert opened <= 4, f"{opened} database sessions opened for 30 moves"


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="PostgreSQL counts the sessions it opens"
)
def test_a_server_s_http_requests_share_its_pool_of_connections(school_class, live_server_url):
    """Django runs each HTTP request in a thread of its own: on PostgreSQL each request
    opened a database connection (a server process and a login) and closed it."""
    session = open_session(school_class, table_size=4)
    join(live_server_url, session.join_code, "Ana")  # the server's pool is open
    before = sessions_opened()
    for name in ("Ben", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hana", "Ivo", "Jade", "Kim"):
        join(live_server_url, session.join_code, name)
    opened = sessions_opened() - before
    assert Participant.objects.filter(session=session).count() == 11
    # Ten requests one after the other: each took a connection from the pool and gave it
    # back (one more only if the pool had to grow meanwhile).
    assert opened <= 1, f"{opened} database sessions opened for 10 HTTP requests"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a pool on PostgreSQL only")
def test_the_health_check_tells_how_the_server_s_pool_is_used(live_server_url, celery_worker):
    with urllib.request.urlopen(f"{live_server_url}/healthz", timeout=30) as response:
        answer = json.load(response)
    assert answer["status"] == "ok"
    pool = answer["database_pool"]
    assert pool["max"] == ASGI_DB_POOL_SIZE
    # The health check's own query holds one connection while the answer is made.
    assert 1 <= pool["connections"] <= pool["max"]
    assert 0 <= pool["free"] < pool["connections"]
    assert pool["waiting"] == 0
    assert pool["beside"] == 0  # opened only when the pool is busy
    assert pool["beside_max"] == ASGI_DB_POOL_SIZE  # DB_POOL_OVERFLOW: as the pool


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a pool on PostgreSQL only")
def test_a_server_s_pooled_connections_dropped_while_idle_are_replaced_unseen(
    school_class, live_server_url
):
    session = open_session(school_class, table_size=4)
    join(live_server_url, session.join_code, "Ana")
    with connection.cursor() as cursor:  # as a database restart would
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE state = 'idle'"
            " AND datname = current_database() AND pid <> pg_backend_pid()"
        )
        assert cursor.rowcount >= 1
    time.sleep(HEALTH_CHECK_IDLE_SECONDS + 0.5)
    # A pooled connection that sat idle is checked before it is handed out: the join is
    # answered (with a dropped one it would be a 503, "try again").
    join(live_server_url, session.join_code, "Ben")
    assert Participant.objects.filter(session=session).count() == 2


def join_page(base_url: str, code: str) -> int:
    """GET a session's join page, as a student's browser does; return its status."""
    try:
        with urllib.request.urlopen(f"{base_url}/join/{code}/", timeout=30) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a pool on PostgreSQL only")
@pytest.mark.parametrize("first", ["page", "join"])
def test_a_server_s_pooled_connections_dropped_in_steady_use_cost_no_request(
    school_class, live_server_url, service_logs, first
):
    """A database restart drops every pooled connection at once, each used a moment ago
    and so handed out unchecked: each one failed a request (a 503 page, "try again").
    Now the request that meets the first runs once more on a new connection (a page
    read, or a join, which had sent only reads when it met the drop), and every other
    connection used before that is checked before it is handed out."""
    session = open_session(school_class, table_size=4)
    code = session.join_code
    with ThreadPoolExecutor(ASGI_DB_POOL_SIZE) as browsers:  # the pool's every connection in use
        statuses = list(browsers.map(lambda _: join_page(live_server_url, code), range(40)))
        # and each used a moment ago, on a busy machine too
        statuses += browsers.map(lambda _: join_page(live_server_url, code), range(10))
    assert set(statuses) == {200}
    with connection.cursor() as cursor:  # as a database restart would
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE state = 'idle'"
            " AND datname = current_database() AND pid <> pg_backend_pid()"
        )
        dropped = cursor.rowcount
    assert dropped >= 2
    # At once, each dropped connection used less than HEALTH_CHECK_IDLE_SECONDS ago.
    names = [f"Student {number}" for number in range(dropped)]
    if first == "page":
        assert join_page(live_server_url, code) == 200
    for name in names:  # each join stored once, on a sound connection
        join(live_server_url, code, name)
    assert Participant.objects.filter(session=session, nickname__in=names).count() == dropped
    service_logs.settle()
    logged = "".join(log.read(log.checked or 0, log.size()) for log in service_logs.logs)
    # The requests' second tries (a worker of an earlier test may log its own).
    again = [
        line
        for line in logged.splitlines()
        if "config.unavailable" in line and "database connection lost" in line
    ]
    # At most the first request runs twice: once one connection is found dropped, the
    # others are checked (a connection idle past the check's limit meanwhile, on a busy
    # machine, is checked anyway, and then nothing runs twice).
    method = "GET" if first == "page" else "POST"
    assert len(again) <= 1 and all(f"{method} /join/" in line for line in again), logged


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="PostgreSQL counts the sessions it opens"
)
def test_the_workers_bot_moves_keep_their_database_connections(school_class, celery_worker):
    """Celery closed every database connection before and after each task: on
    PostgreSQL each bot move and timer started a server process of its own."""
    session = open_session(school_class, table_size=3, bots=True)
    (ana,) = seat_students(session, "Ana")
    actions.do_start_session(session)
    table = Table.objects.get(session=session)
    human = table.seats.get(participant=ana).number
    rng = random.Random(6)
    before = sessions_opened()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        match = Match.objects.get(pk=table.match_id)
        bot_moves = MatchAction.objects.filter(match=match).exclude(seat=human).exclude(seat=None)
        if bot_moves.count() >= 20 or match.status == Match.Status.FINISHED:
            break
        state = load_state(match)
        if human in state.to_move():
            write.act(match.pk, human, rng.choice(state.legal_actions(human)), match.version)
        time.sleep(0.05)
    opened = sessions_opened() - before
    assert bot_moves.count() >= 20
    # The worker's two pool processes, each with the connection it keeps.
    assert opened <= 3, f"{opened} database sessions opened for {bot_moves.count()} bot moves"


def test_an_http_request_s_kept_connection_is_closed_when_it_ends(monkeypatch):
    assert asgi.application  # the ASGI entry point connects the signal's receiver
    connection.ensure_connection()
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)
    with transaction.atomic():  # a test's request runs inside the test's transaction
        request_finished.send(sender=None)
        assert connection.connection is not None
    request_finished.send(sender=None)
    assert connection.connection is None
