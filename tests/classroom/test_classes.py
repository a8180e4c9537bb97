"""Classes: create, rename and edit the roster, archive and unarchive, delete."""

import html

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from classroom import actions
from classroom.catalogue import game_name
from classroom.models import Participant, SchoolClass
from tests.classroom.conftest import join_client, open_session
from tests.i18n.test_catalogues import compiled_catalogues, fresh_translations  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _language_reset():
    """Leave no language active after a test: a test client's request leaves its
    Accept-Language's active in this thread, and a later test would render in it."""
    yield
    translation.deactivate()


def test_create_class_with_roster(client_a, teacher_a):
    form = client_a.get(reverse("classroom:class_create"))
    page = form.content.decode()
    assert "Students never give an e-mail address or a full name" in page
    assert '<label for="id_name">Name of the class</label>' in page
    response = client_a.post(
        reverse("classroom:class_create"),
        {"name": "6C", "roster": "  Blue   Fox \n\nGreen Owl\n"},
    )
    school_class = SchoolClass.objects.get()
    assert response.status_code == 302
    assert response["Location"] == school_class.get_absolute_url()
    assert school_class.teacher == teacher_a
    assert school_class.pseudonyms() == ["Blue Fox", "Green Owl"]


@pytest.mark.parametrize(
    ("roster", "message"),
    [
        ("Blue Fox\nblue fox", "listed twice"),
        ("Blue Fox\nX", "at least 2 characters"),
        ("Blue Fox\nBig Idiot", "«Big Idiot»: This nickname is not allowed: give a friendly one."),
        ("Blue Fox\nTeacher", "for the teacher, an administrator, the platform or a bot: give"),
    ],
)
def test_roster_pseudonyms_are_checked_like_nicknames(client_a, roster, message):
    response = client_a.post(reverse("classroom:class_create"), {"name": "6C", "roster": roster})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not SchoolClass.objects.exists()


def test_a_rosters_refusals_address_the_teacher(fresh_translations, client_a):  # noqa: F811
    """A refused pseudonym is told as a teacher is addressed ("vous"), not as a student
    asked to choose ("tu")."""
    client_a.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    response = client_a.post(
        reverse("classroom:class_create"), {"name": "6C", "roster": "Big Idiot\nTeacher\nx"}
    )
    page = html.unescape(response.content.decode())
    nbsp = "\u00a0"
    refused = f"«{nbsp}Big Idiot{nbsp}»{nbsp}: Ce pseudo n'est pas autorisé{nbsp}: donnez-en"
    assert refused + " un sympa." in page
    assert "donnez-en un autre" in page and "2 caractères" in page
    assert "Choisis" not in page


def test_rename_and_edit_roster(client_a, school_class):
    response = client_a.post(
        reverse("classroom:class_edit", args=[school_class.pk]),
        {"name": "5B (2nd term)", "roster": "Red Panda"},
    )
    assert response.status_code == 302
    school_class.refresh_from_db()
    assert school_class.name == "5B (2nd term)"
    assert school_class.roster == "Red Panda"


def test_archive_and_unarchive(client_a, school_class):
    client_a.post(reverse("classroom:class_archive", args=[school_class.pk]))
    school_class.refresh_from_db()
    assert school_class.is_archived
    dashboard = client_a.get(reverse("classroom:dashboard"))
    assert list(dashboard.context["active_classes"]) == []
    assert list(dashboard.context["archived_classes"]) == [school_class]
    client_a.post(reverse("classroom:class_unarchive", args=[school_class.pk]))
    school_class.refresh_from_db()
    assert not school_class.is_archived


def test_archive_needs_post(client_a, school_class):
    response = client_a.get(reverse("classroom:class_archive", args=[school_class.pk]))
    assert response.status_code == 302
    school_class.refresh_from_db()
    assert not school_class.is_archived


def test_delete_asks_then_deletes_with_sessions(client_a, school_class):
    session = open_session(school_class)
    join_client(session, "Sam")
    confirm = client_a.get(reverse("classroom:class_delete", args=[school_class.pk]))
    assert confirm.status_code == 200
    assert "cannot be undone" in confirm.content.decode()
    assert SchoolClass.objects.exists()
    response = client_a.post(reverse("classroom:class_delete", args=[school_class.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("classroom:dashboard")
    assert not SchoolClass.objects.exists()
    assert not Participant.objects.exists()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_class_page_names_each_sessions_game(client_a, school_class, language):
    made = {
        slug: actions.do_create_session(
            school_class,
            game=slug,
            variant="standard",
            language="en",
            table_size=3,
            bots_fill=True,
        )
        for slug in ("data_thief", "data_tycoon", "conspiranoia")
    }
    page = client_a.get(
        reverse("classroom:class_detail", args=[school_class.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    for slug, session in made.items():
        link = page.split(f'<a href="{session.get_absolute_url()}">', 1)[1].split("</a>", 1)[0]
        assert f" · {escape(game_name(slug, language))} · " in link, link
        assert session.join_code in link
