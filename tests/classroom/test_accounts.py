"""Teacher accounts: sign up (no e-mail needed), log in, log out, change password."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "Another-long-passw0rd"


def test_home_page_sends_students_to_join_and_teachers_to_log_in():
    body = Client().get(reverse("home")).content.decode()
    assert reverse("classroom:join") in body
    assert reverse("login") in body and reverse("signup") in body
    assert 'class="skip-link" href="#main"' in body
    assert 'action="/i18n/setlang/"' in body


def test_signup_without_email_logs_in():
    client = Client()
    response = client.post(
        reverse("signup"),
        {"username": "ms-smith", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("classroom:dashboard")
    user = get_user_model().objects.get(username="ms-smith")
    assert user.email == ""
    assert client.get(reverse("classroom:dashboard")).status_code == 200


def test_signup_form_errors():
    response = Client().post(
        reverse("signup"), {"username": "x", "password1": "short", "password2": "other"}
    )
    assert response.status_code == 200
    assert not get_user_model().objects.filter(username="x").exists()


def test_login_logout_and_password_change(teacher_a):
    from tests.classroom.conftest import PASSWORD

    client = Client()
    assert client.get(reverse("login")).status_code == 200
    response = client.post(reverse("login"), {"username": "teacher-a", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("classroom:dashboard")
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert client.get(response["Location"]).status_code == 200
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert client.get(reverse("classroom:dashboard")).status_code == 302
    again = Client().post(reverse("login"), {"username": "teacher-a", "password": NEW_PASSWORD})
    assert again.status_code == 302 and again["Location"] == reverse("classroom:dashboard")


def test_password_change_needs_login():
    response = Client().get(reverse("password_change"))
    assert response.status_code == 302


def test_admin_registers_the_models():
    from django.contrib import admin

    from classroom.models import ClassSession, Participant, SchoolClass

    for model in (SchoolClass, ClassSession, Participant):
        assert admin.site.is_registered(model)


def test_admin_pages_render(admin_client, session):
    from tests.classroom.conftest import join_client

    join_client(session, "Sam")
    for url in (
        "/admin/classroom/schoolclass/",
        f"/admin/classroom/schoolclass/{session.school_class.pk}/change/",
        "/admin/classroom/classsession/",
        f"/admin/classroom/classsession/{session.pk}/change/",
        "/admin/classroom/participant/",
    ):
        assert admin_client.get(url).status_code == 200, url
