"""Fixtures of the classroom tests: teachers, a class, a session, a student, a fake game."""

from dataclasses import dataclass, field

import pytest
from django.test import Client

from classroom import actions, catalogue, ratelimit
from classroom.identity import new_device_id
from games.engine.base import Game

PASSWORD = "a-Long-teacher-passw0rd"


@dataclass
class FakeGame(Game):
    """The least a game offers the session form (no options of its own)."""

    slug: str = "fake_game"
    name: dict = field(default_factory=lambda: {"en": "Fake Game", "fr": "Jeu factice"})
    min_players: int = 2
    max_players: int = 5
    variants: dict = field(
        default_factory=lambda: {
            "standard": {"en": "Standard", "fr": "Standard"},
            "short": {"en": "Short", "fr": "Courte"},
        }
    )
    default_variant: str = "standard"


@pytest.fixture
def fake_game(monkeypatch):
    """Offer one fake game to the session form (the real registry is left alone)."""
    game = FakeGame()
    monkeypatch.setattr(catalogue, "available_games", lambda: [game])
    return game


@pytest.fixture
def no_game(monkeypatch):
    """Pretend that games.registry holds no game."""
    monkeypatch.setattr(catalogue, "available_games", lambda: [])


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """Hash test passwords cheaply (these tests never reach a server subprocess)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_rate_limit():
    """Start every test with no wrong code counted for the test client's address."""
    ratelimit.reset("127.0.0.1")
    yield
    ratelimit.reset("127.0.0.1")


def make_teacher(django_user_model, username):
    return django_user_model.objects.create_user(username=username, password=PASSWORD)


@pytest.fixture
def teacher_a(django_user_model):
    return make_teacher(django_user_model, "teacher-a")


@pytest.fixture
def teacher_b(django_user_model):
    return make_teacher(django_user_model, "teacher-b")


@pytest.fixture
def client_a(teacher_a):
    client = Client()
    client.force_login(teacher_a)
    return client


@pytest.fixture
def client_b(teacher_b):
    client = Client()
    client.force_login(teacher_b)
    return client


@pytest.fixture
def school_class(teacher_a):
    return actions.do_create_class(teacher_a, "5B")


@pytest.fixture
def roster_class(teacher_a):
    return actions.do_create_class(teacher_a, "4A", "Blue Fox\nGreen Owl\nRed Panda")


def open_session(school_class, language="en", **overrides):
    """Open a session of the fake game for the class."""
    options = {
        "game": "fake_game",
        "variant": "standard",
        "language": language,
        "table_size": 4,
        "bots_fill": False,
    }
    options.update(overrides)
    return actions.do_create_session(school_class, **options)


@pytest.fixture
def session(school_class):
    return open_session(school_class)


@pytest.fixture
def roster_session(roster_class):
    return open_session(roster_class)


def join_client(session, nickname, client=None):
    """Join the session through the real join view; return the client (with its cookies).
    A class with a roster takes the nickname as the pseudonym chosen from it."""
    client = client or Client()
    field = "pseudonym" if session.school_class.pseudonyms() else "nickname"
    response = client.post("/join/", {"code": session.join_code, field: nickname})
    assert response.status_code == 302, response.content.decode()[:2000]
    return client


@pytest.fixture
def student(session):
    """A student's device, seated in the session as 'Sam'."""
    return join_client(session, "Sam")


@pytest.fixture
def other_device():
    return new_device_id()
