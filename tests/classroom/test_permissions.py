"""The permission matrix: every class, session and deck URL, four kinds of visitor, GET
and POST."""

import pytest
from django.test import Client
from django.urls import get_resolver, reverse

from classroom.actions import do_create_class
from classroom.catalogue import deck_games
from classroom.models import Deck
from tests.classroom.conftest import join_client, open_session

CLASS_URLS = [
    "class_detail",
    "class_edit",
    "class_archive",
    "class_unarchive",
    "class_delete",
    "session_create",
]
SESSION_URLS = [
    "session_detail",
    "session_lock",
    "session_unlock",
    "session_start",
    "session_pause",
    "session_resume",
    "session_end",
    "session_kick",
    "live:session_live",  # live play's page of the session, with the same permissions
    "table_pause",
    "table_resume",
    "seat_to_bot",
    "seat_to_student",
    "move_approve",
    "move_refuse",
    "join_approve",
    "join_refuse",
    "rename",
    "join_rules",
]
# A teacher's built decks (the deck builder).
DECK_URLS = ["deck_edit", "deck_delete"]
# Classroom URLs that name no class, session or deck: the matrix does not apply to them
# (the deck builder's list, new deck and live check name a game: tests/classroom/test_decks.py).
OTHER_URLS = {
    "deck_list",
    "deck_create",
    "deck_check",
    "dashboard",
    "class_create",
    "join",
    "join_code",
    "join_wait",
    "lobby",
    "seat_move",
}


def classroom_url_names():
    """Return every route name of the classroom namespace."""
    resolver = get_resolver()
    _prefix, sub = resolver.namespace_dict["classroom"]
    return {name for name in sub.reverse_dict if isinstance(name, str)}


def test_no_classroom_url_escapes_the_matrix():
    named = {name for name in [*CLASS_URLS, *SESSION_URLS, *DECK_URLS] if ":" not in name}
    assert classroom_url_names() == named | OTHER_URLS


@pytest.fixture
def world(teacher_a, teacher_b, school_class, session):
    """A's class and session, with one seated student; clients for each kind of visitor."""
    student = join_client(session, "Sam")
    participant = session.participants.get()
    b = Client()
    b.force_login(teacher_b)
    a = Client()
    a.force_login(teacher_a)
    game = deck_games()[0]
    cards = next(iter(game.starter_decks().values()))["cards"]
    deck = Deck.objects.create(teacher=teacher_a, game=game.slug, name="A's deck", cards=cards)
    return {
        "class": school_class,
        "session": session,
        "deck": deck,
        "participant": participant,
        "clients": {"owner": a, "other_teacher": b, "anonymous": Client(), "student": student},
    }


def url_for(name, world):
    if name in DECK_URLS:
        return reverse(f"classroom:{name}", args=[world["deck"].pk])
    pk = world["class"].pk if name in CLASS_URLS else world["session"].pk
    return reverse(name if ":" in name else f"classroom:{name}", args=[pk])


ALL = CLASS_URLS + SESSION_URLS + DECK_URLS


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("who", ["owner", "other_teacher", "anonymous", "student"])
def test_matrix(world, name, method, who):
    client = world["clients"][who]
    url = url_for(name, world)
    data = {"participant": world["participant"].pk} if method == "post" else None
    response = getattr(client, method)(url, data)
    if who == "owner":
        assert response.status_code in (200, 302)
    elif who == "other_teacher":
        assert response.status_code == 404
    else:
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


@pytest.mark.django_db
@pytest.mark.parametrize("name", ALL)
def test_other_teacher_changes_nothing(world, name):
    """Teacher B's POSTs leave A's class and session as they were."""
    world["clients"]["other_teacher"].post(
        url_for(name, world), {"participant": world["participant"].pk, "name": "hacked"}
    )
    world["class"].refresh_from_db()
    world["session"].refresh_from_db()
    world["participant"].refresh_from_db()
    world["deck"].refresh_from_db()
    assert world["deck"].name == "A's deck" and len(world["deck"].cards) >= 20
    assert world["class"].name == "5B" and world["class"].archived_at is None
    assert world["session"].state == "lobby" and not world["session"].locked
    assert not world["participant"].kicked


@pytest.mark.django_db
def test_dashboard_lists_only_own_classes(world, teacher_b):
    do_create_class(teacher_b, "B's own class")
    response = world["clients"]["other_teacher"].get(reverse("classroom:dashboard"))
    assert response.status_code == 200
    assert "B&#x27;s own class" in response.content.decode()
    assert ">5B<" not in response.content.decode()
    assert world["session"].join_code not in response.content.decode()


@pytest.mark.django_db
def test_dashboard_needs_login():
    response = Client().get(reverse("classroom:dashboard"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.django_db
def test_kick_of_another_sessions_participant_is_404(world, teacher_a):
    """A participant id from another of A's sessions cannot be kicked through this one."""
    other = open_session(world["class"])
    join_client(other, "Alex")
    foreign = other.participants.get()
    response = world["clients"]["owner"].post(
        reverse("classroom:session_kick", args=[world["session"].pk]), {"participant": foreign.pk}
    )
    assert response.status_code == 404
    foreign.refresh_from_db()
    assert not foreign.kicked
