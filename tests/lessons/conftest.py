"""Fixtures of the lesson tests: two teachers, a Data-Tycoon session each, students."""

import pytest
from django.test import Client

from classroom import actions, ratelimit
from classroom.identity import new_device_id

PASSWORD = "a-Long-teacher-passw0rd"


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """Hash test passwords cheaply."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_rate_limit():
    """Start every test with no wrong join code counted for the test client."""
    ratelimit.reset("127.0.0.1")
    yield
    ratelimit.reset("127.0.0.1")


@pytest.fixture
def teacher_a(django_user_model):
    return django_user_model.objects.create_user(username="teacher-a", password=PASSWORD)


@pytest.fixture
def teacher_b(django_user_model):
    return django_user_model.objects.create_user(username="teacher-b", password=PASSWORD)


def open_session(teacher, language="en", name="5B"):
    """Open a Data-Tycoon session for a new class of the teacher."""
    school_class = actions.do_create_class(teacher, name)
    return actions.do_create_session(
        school_class,
        game="data_tycoon",
        variant="expert",
        language=language,
        table_size=4,
        bots_fill=False,
    )


@pytest.fixture
def session_a(teacher_a):
    return open_session(teacher_a)


@pytest.fixture
def session_b(teacher_b):
    return open_session(teacher_b, name="4A")


def join(session, nickname):
    """Seat a student in the session; return the participant."""
    return actions.do_join_session(session, nickname, new_device_id())


@pytest.fixture
def student(session_a):
    return join(session_a, "Sam")


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def student_client(session, nickname):
    """Join the session through the real join view; return the client with its cookies."""
    client = Client()
    response = client.post("/join/", {"code": session.join_code, "nickname": nickname})
    assert response.status_code == 302, response.content.decode()[:2000]
    return client
