"""The servers keep their database connection between uses: the sockets of an ASGI
process reuse one (their database work runs in one thread), instead of opening one for
every message; an HTTP request's own is closed when the request ends."""

import random
import time

import pytest
from django.core.signals import request_finished
from django.db import connection, transaction

from classroom import actions
from classroom.models import Table
from config import asgi
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
