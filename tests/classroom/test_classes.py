"""Classes: create, rename and edit the roster, archive and unarchive, delete."""

import pytest
from django.urls import reverse

from classroom.models import Participant, SchoolClass
from tests.classroom.conftest import join_client, open_session

pytestmark = pytest.mark.django_db


def test_create_class_with_roster(client_a, teacher_a):
    form = client_a.get(reverse("classroom:class_create"))
    assert "No e-mail address and no full name is needed or wanted" in form.content.decode()
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
        ("Blue Fox\nBig Idiot", "not allowed"),
    ],
)
def test_roster_pseudonyms_are_checked_like_nicknames(client_a, roster, message):
    response = client_a.post(reverse("classroom:class_create"), {"name": "6C", "roster": roster})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not SchoolClass.objects.exists()


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
