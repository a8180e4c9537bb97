"""Teacher accounts: sign up (no e-mail needed), log in, log out, change password, delete
one's own account."""

import importlib
import json
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse

from classroom import actions
from classroom.models import ClassSession, Deck, Participant, SchoolClass
from lessons.models import Lesson, LessonOverride
from tests.classroom.conftest import PASSWORD, join_client, open_session
from tests.i18n.test_catalogues import compiled_catalogues, fresh_translations  # noqa: F401

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "Another-long-passw0rd"


def test_home_page_sends_students_to_join_and_teachers_to_log_in():
    body = Client().get(reverse("home")).content.decode()
    assert reverse("classroom:join") in body
    assert reverse("login") in body and reverse("signup") in body
    assert 'class="skip-link" href="#main"' in body
    assert 'action="/i18n/setlang/"' in body


def test_signup_asks_for_no_email_address_and_logs_in():
    """The platform sends no e-mail: it asks for no address, and keeps none it is sent."""
    client = Client()
    page = client.get(reverse("signup")).content.decode()
    assert 'name="username"' in page and 'name="password1"' in page
    assert 'type="email"' not in page and 'name="email"' not in page
    response = client.post(
        reverse("signup"),
        {
            "username": "ms-smith",
            "email": "smith@school.example",
            "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("classroom:dashboard")
    user = get_user_model().objects.get(username="ms-smith")
    assert user.email == ""
    assert client.get(reverse("classroom:dashboard")).status_code == 200


def test_the_addresses_earlier_sign_ups_asked_for_are_forgotten(teacher_a, teacher_b):
    """A teacher's address, asked for at sign-up once and never used, is blanked; an
    administrator's, set in the administration, stays."""
    users = get_user_model().objects
    users.filter(pk=teacher_a.pk).update(email="a@school.example")
    admin_user = users.create_user("it", "it@school.example", "x", is_staff=True)
    migration = importlib.import_module("classroom.migrations.0008_forget_teacher_emails")
    migration.forget_teacher_emails(apps, SimpleNamespace(connection=connection))
    assert dict(users.values_list("username", "email")) == {
        teacher_a.username: "",
        teacher_b.username: "",
        admin_user.username: "it@school.example",
    }


def test_a_teacher_page_opened_logged_out_says_why_the_login_comes(teacher_a):
    client = Client()
    response = client.get(reverse("classroom:dashboard"), follow=True)
    assert response.redirect_chain[-1][0].startswith(reverse("login") + "?next=")
    assert "Log in to open the page you asked for." in response.content.decode()
    assert "Log in to open the page" not in client.get(reverse("login")).content.decode()


def test_the_login_page_says_who_sets_a_forgotten_password():
    page = Client().get(reverse("login")).content.decode()
    assert "Your school's IT administrator can set a new one for you" in page


def test_signup_form_errors():
    response = Client().post(
        reverse("signup"), {"username": "x", "password1": "short", "password2": "other"}
    )
    assert response.status_code == 200
    assert not get_user_model().objects.filter(username="x").exists()


@pytest.mark.parametrize(
    "sent, field, words",
    [
        ({"username": "ms smith"}, "username", ["no space"]),
        ({"username": "Teacher-A"}, "username", ["taken: choose another, or log in"]),
        ({"password1": "abc", "password2": "abc"}, "password2", ["at least 8 characters"]),
        (
            {"password1": "12345678", "password2": "12345678"},
            "password2",
            ["one of the most common ones", "digits only: add letters"],
        ),
        ({"password1": "ms-smith1", "password2": "ms-smith1"}, "password2", ["close to your"]),
        ({"password2": NEW_PASSWORD + "!"}, "password2", ["type the same one twice"]),
    ],
)
def test_a_refused_sign_up_says_what_to_do(teacher_a, sent, field, words):
    """Each refusal of the sign-up form names its remedy, in the platform's words, and
    keeps the username typed."""
    data = {"username": "ms-smith", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    response = Client().post(reverse("signup"), {**data, **sent})
    assert response.status_code == 200
    errors = " ".join(response.context["form"].errors[field])
    for word in words:
        assert word in errors
    assert f'value="{data["username"] if "username" not in sent else sent["username"]}"' in (
        response.content.decode()
    )
    assert not get_user_model().objects.filter(username__startswith="ms").exists()


def test_a_short_password_typed_twice_differently_is_told_both_at_once(teacher_a):
    """The password's rules are told beside the mismatch, not at the next try."""
    response = Client().post(
        reverse("signup"), {"username": "ms-smith", "password1": "abc", "password2": "abd"}
    )
    errors = response.context["form"].errors
    assert "at least 8 characters" in " ".join(errors["password1"])
    assert "type the same one twice" in " ".join(errors["password2"])
    client = Client()
    client.force_login(teacher_a)
    response = client.post(
        reverse("account"),
        {"old_password": PASSWORD, "new_password1": "12345678", "new_password2": "12345679"},
    )
    errors = response.context["form"].errors
    assert "digits only" in " ".join(errors["new_password1"])
    assert "type the same one twice" in " ".join(errors["new_password2"])
    assert get_user_model().objects.get(pk=teacher_a.pk).check_password(PASSWORD)


# Django's own Spanish says "usted" ("Su contraseña…", "introduzca…"), the platform "tú".
FORMAL_SPANISH = ("Su contraseña", "ntroduzca", "Por favor", "Observe", "vuelva a")


def test_the_account_pages_say_tu_in_spanish(fresh_translations, teacher_a):  # noqa: F811
    """Sign-up, log-in and password change, and each of their refusals, in Spanish: no
    formal "usted" of Django's own texts, and the platform's words instead."""
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    pages = [client.get(reverse("signup")).content.decode()]
    for sent in (
        {"username": "a b", "password1": "abc", "password2": "abd"},
        {"username": "ms-smith", "password1": "12345678", "password2": "12345678"},
        {"username": "ms-smith", "password1": "ms-smith1", "password2": "ms-smith1"},
    ):
        pages.append(client.post(reverse("signup"), sent).content.decode())
    pages.append(
        client.post(
            reverse("login"), {"username": "teacher-a", "password": "wrong"}
        ).content.decode()
    )
    client.force_login(teacher_a)
    pages.append(
        client.post(
            reverse("account"),
            {"old_password": "wrong", "new_password1": "abc", "new_password2": "abd"},
        ).content.decode()
    )
    text = "\n".join(pages)
    assert [word for word in FORMAL_SPANISH if word in text] == []
    for words in (
        "Que no tenga solo cifras.",
        "Un nombre de usuario solo puede tener letras",
        "Esta contraseña solo tiene cifras: añade letras.",
        "se parece demasiado a tu nombre de usuario",
        "Usuario o contraseña incorrectos.",
        "Esta no es tu contraseña actual",
        "Las dos contraseñas no son iguales",
        "Escribe la misma contraseña otra vez",
    ):
        assert words in text


def test_login_logout_and_password_change(teacher_a):
    client = Client()
    assert client.get(reverse("login")).status_code == 200
    response = client.post(reverse("login"), {"username": "teacher-a", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("classroom:dashboard")
    response = client.post(
        reverse("account"),
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


def test_a_teacher_deletes_their_own_account_with_all_it_holds(
    teacher_a, teacher_b, client_a, client_b, roster_class
):
    """The right to erasure, practised: the password confirms; the classes, their
    sessions with the students' data and the decks go; the teacher is logged out."""

    session = open_session(roster_class, game="data_tycoon", variant="basic")
    join_client(session, "Blue Fox")
    Deck.objects.create(teacher=teacher_a, game="data_monsters", name="mine", cards=[])
    kept = actions.do_create_class(teacher_b, "B's class", "Green Owl")
    url = reverse("account_delete")

    page = client_a.get(url).content.decode()
    assert "<li>1 class (1 with a roster of pseudonyms)</li>" in page
    assert "<li>1 session, with its stud" in page
    assert "debrief files. 1 session is still open: it ends now.</li>" in page
    assert "<li>1 deck</li>" in page and "lessons in your own words" not in page
    assert f'from <a href="{reverse("classroom:dashboard")}">My classes</a>' in page
    assert url in client_a.get(reverse("account")).content.decode()

    wrong = client_a.post(url, {"password": "not-it"})
    assert wrong.status_code == 200
    assert "This is not your password. Your account was not deleted." in wrong.content.decode()
    assert get_user_model().objects.filter(pk=teacher_a.pk).exists()
    assert Participant.objects.filter(session=session).count() == 1

    response = client_a.post(url, {"password": PASSWORD}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("home")
    assert "Your account and everything it held are deleted." in response.content.decode()
    assert not get_user_model().objects.filter(pk=teacher_a.pk).exists()
    assert not SchoolClass.objects.filter(pk=roster_class.pk).exists()
    assert not ClassSession.objects.filter(pk=session.pk).exists()
    assert not Participant.objects.filter(nickname="Blue Fox").exists()
    assert not Deck.objects.filter(name="mine").exists()
    assert client_a.get(reverse("classroom:dashboard")).status_code == 302  # logged out
    # The other teacher keeps everything, and stays logged in.
    assert SchoolClass.objects.get(pk=kept.pk).roster == "Green Owl"
    assert client_b.get(reverse("classroom:dashboard")).status_code == 200


def test_the_account_deletion_page_names_only_what_the_account_holds(teacher_a, client_a):
    url = reverse("account_delete")
    page = client_a.get(url).content.decode()
    assert "It holds no class, deck or lesson in your own words yet." in page
    assert "<li>" not in page.split("<main", 1)[1].split("</form>", 1)[0]
    actions.do_create_class(teacher_a, "6C")  # no roster, no session
    page = client_a.get(url).content.decode()
    assert "<li>1 class</li>" in page
    assert "roster" not in page and "0 " not in page and "debrief reports" not in page


def test_a_teacher_downloads_what_their_account_holds_and_nothing_of_anyone_else(
    teacher_a, teacher_b, client_a, roster_class
):
    """The right to data portability: the teacher's own data, as JSON, no student's."""

    session = actions.do_create_session(
        roster_class,
        game="conspiranoia",
        variant="quick",
        language="es",
        table_size=4,
        bots_fill=True,
        options={"life_points": 15},
    )
    Participant.objects.create(
        session=session, nickname="Secret Fox", nickname_key="secret fox", device_id="d1"
    )
    Deck.objects.create(teacher=teacher_a, game="data_monsters", name="Lab 1", cards=["a", "b"])
    LessonOverride.objects.create(
        teacher=teacher_a,
        lesson=Lesson.objects.get(slug="sanctions"),
        language="fr",
        title="Mes mots",
    )
    actions.do_create_class(teacher_b, "B's class", "Other Owl")
    Deck.objects.create(teacher=teacher_b, game="data_monsters", name="B's deck", cards=[])

    response = client_a.get(reverse("account_download"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == 'attachment; filename="my-account.json"'
    assert response["Cache-Control"] == "no-store"
    text = response.content.decode()
    data = json.loads(text)
    assert data["format"] == 1
    assert data["account"]["username"] == "teacher-a"
    [school_class] = data["classes"]
    assert school_class["name"] == "4A"
    assert school_class["roster"] == ["Blue Fox", "Green Owl", "Red Panda"]
    [exported] = school_class["sessions"]
    assert exported["game"] == "conspiranoia" and exported["language"] == "es"
    assert exported["options"] == {"life_points": 15} and exported["ended_at"] is None
    assert [deck["name"] for deck in data["decks"]] == ["Lab 1"]
    assert data["decks"][0]["cards"] == ["a", "b"]
    [wording] = data["lesson_wordings"]
    assert (wording["lesson"], wording["language"], wording["title"]) == (
        "sanctions",
        "fr",
        "Mes mots",
    )
    for elsewhere in ("Secret Fox", "Other Owl", "B's deck", "B's class", "teacher-b", "password"):
        assert elsewhere not in text
    assert reverse("account_download") in client_a.get(reverse("account")).content.decode()


def test_account_deletion_needs_login_and_spares_administrators(admin_client):
    url = reverse("account_delete")
    response = Client().post(url, {"password": "anything"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    response = admin_client.post(url, {"password": "password"}, follow=True)
    assert "An administrator&#x27;s account is managed in the administration." in (
        response.content.decode()
    )
    assert get_user_model().objects.filter(is_superuser=True).count() == 1
    assert url not in admin_client.get(reverse("account")).content.decode()
    # staff without being superuser is an administrator too; a teacher is offered it
    staff = get_user_model().objects.create_user("staff-only", password="x", is_staff=True)
    teacher = get_user_model().objects.create_user("teacher-only", password="x")
    for user, offered in ((staff, False), (teacher, True)):
        client = Client()
        client.force_login(user)
        assert (url in client.get(reverse("account")).content.decode()) is offered
        client.post(url, {"password": "x"})
        assert get_user_model().objects.filter(pk=user.pk).exists() is not offered


def test_the_account_page_needs_login_and_keeps_its_old_address():
    response = Client().get(reverse("account"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    old = Client().get("/password/change/")
    assert old.status_code == 301 and old["Location"] == reverse("account") == "/account/"


def test_admin_registers_the_models():
    for model in (SchoolClass, ClassSession, Participant):
        assert admin.site.is_registered(model)


def test_admin_pages_render(admin_client, session):
    join_client(session, "Sam")
    for url in (
        "/admin/classroom/schoolclass/",
        f"/admin/classroom/schoolclass/{session.school_class.pk}/change/",
        "/admin/classroom/classsession/",
        f"/admin/classroom/classsession/{session.pk}/change/",
        "/admin/classroom/participant/",
    ):
        assert admin_client.get(url).status_code == 200, url
