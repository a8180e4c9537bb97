"""Fixtures of the live-play tests: a teacher, a Data-Tycoon session, seated students.

Bots move after BOT_DELAY_SECONDS; the child services (Celery worker, uvicorn) read it
from the environment, which is set here, before the session's services start.
"""

import itertools
import os
import zlib

import pytest
from django.test import Client

import games.matches
from classroom import actions, ratelimit
from classroom.identity import new_device_id

os.environ.setdefault("BOT_DELAY_SECONDS", "0.05")
os.environ.setdefault("LIVE_SWEEP_SECONDS", "1")

PASSWORD = "a-Long-teacher-passw0rd"


@pytest.fixture(autouse=True)
def _fast_bots(settings):
    """Let in-process code schedule bots as fast as the child worker plays them."""
    settings.BOT_DELAY_SECONDS = float(os.environ["BOT_DELAY_SECONDS"])


@pytest.fixture(autouse=True)
def _fresh_wrong_codes():
    """Start every test with no wrong code counted for the local addresses (a refused
    socket counts as one; in-process sockets have no client address)."""
    for address in ("127.0.0.1", "unknown"):
        ratelimit.reset(address)
    yield
    for address in ("127.0.0.1", "unknown"):
        ratelimit.reset(address)


@pytest.fixture(autouse=True)
def _seeded_deals(monkeypatch, request):
    """Deal the matches that tests start in-process from fixed seeds, so that every run
    plays the same games (a random deal made some tests pass or fail by chance). Each
    test has seeds of its own: a task left queued by an earlier test (the database
    gives a flushed match's id again) must not take a new match for its own."""
    first = zlib.crc32(request.node.nodeid.encode()) * 1000
    monkeypatch.setattr(games.matches, "new_seed", itertools.count(first).__next__)


@pytest.fixture
def teacher(django_user_model):
    return django_user_model.objects.create_user(username="live-teacher", password=PASSWORD)


@pytest.fixture
def teacher_client(teacher):
    client = Client()
    client.force_login(teacher)
    return client


@pytest.fixture
def school_class(teacher):
    return actions.do_create_class(teacher, "3C")


def open_session(
    school_class,
    *,
    table_size=2,
    bots=False,
    variant="standard",
    language="en",
    options=None,
    bot="heuristic",
):
    """Open a Data-Tycoon session for the class (``options``: the game's, as the form's;
    ``bot``: the kind of its bots)."""
    return actions.do_create_session(
        school_class,
        game="data_tycoon",
        variant=variant,
        language=language,
        table_size=table_size,
        bots_fill=bots,
        options=options,
        bot=bot,
    )


def seat_students(session, *nicknames):
    """Join students (each on a device of their own); return their participants."""
    return [actions.do_join_session(session, name, new_device_id()) for name in nicknames]


# Eight students at two tables of four (bots in no seat), the game started.
EIGHT = ["Ada", "Bao", "Cleo", "Dani", "Eli", "Femi", "Gus", "Hana"]


@pytest.fixture
def started(school_class):
    """A started session of the eight students of ``EIGHT`` at two tables."""
    session = open_session(school_class, table_size=4, bots=True)
    seat_students(session, *EIGHT)
    actions.do_start_session(session)
    session.refresh_from_db()
    return session
