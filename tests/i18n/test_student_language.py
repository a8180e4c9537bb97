"""A student's pages are in their language: the one they chose with the language switch
on this device (Django's language cookie), else the session's.

The lobby, the play page (its ``<html lang>``, the board's ``data-language`` that
names the cards, the JavaScript catalogue) and the quiz follow the choice; the
session keeps its own language, and another student of it keeps the session's.
"""

from __future__ import annotations

import html
import json

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from classroom import actions
from classroom.identity import new_device_id, set_student_cookie
from classroom.models import ClassSession, Participant
from lessons.actions import draw_quiz
from lessons.texts import question_text
from tests.i18n.test_catalogues import (  # noqa: F401
    catalogue,
    compiled_catalogues,
    fresh_translations,
)
from tests.live.conftest import open_session

pytestmark = pytest.mark.django_db


def hello(language: str, name: str) -> str:
    with translation.override(language):
        return html.escape(gettext("Hello, %(name)s!") % {"name": name})


def student(session: ClassSession, nickname: str) -> tuple[Client, Participant]:
    participant = actions.do_join_session(session, nickname, new_device_id())
    assert isinstance(participant, Participant)  # no approval asked: a seat at once
    response = Client().get("/")
    set_student_cookie(response, participant)
    client = Client()
    for name, morsel in response.cookies.items():
        client.cookies[name] = morsel.value
    return client, participant


@pytest.fixture
def session(django_user_model):
    teacher = django_user_model.objects.create_user(username="lang-teacher", password="x-Pass-9")
    return open_session(actions.do_create_class(teacher, "4B"), bots=True, language="fr")


def test_a_sessions_join_page_offers_the_switch_before_the_student_joins(
    fresh_translations,  # noqa: F811
    session,
):
    """A student who reached the session's join page (its QR code) reads it in the
    session's language, and may switch before typing a nickname."""
    join = reverse("classroom:join_code", args=[session.join_code])
    client = Client()
    page = client.get(join).content.decode()
    assert '<html lang="fr"' in page
    assert 'action="/i18n/setlang/"' in page
    assert '<option value="fr" lang="fr" selected>' in page
    client.post(reverse("set_language"), {"language": "ru", "next": join})
    assert '<html lang="ru"' in client.get(join).content.decode()


def test_the_lobby_is_in_the_session_language_until_the_student_chooses(
    fresh_translations,  # noqa: F811
    session,
):
    ana, _ = student(session, "Ana")
    ben, _ = student(session, "Ben")
    lobby = reverse("classroom:lobby", args=[session.join_code])
    page = ana.get(lobby, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert '<html lang="fr"' in page and hello("fr", "Ana") in page
    # the switch: each language named in itself, the current one selected
    assert 'action="/i18n/setlang/"' in page
    for code, name in (("en", "English"), ("es", "Español"), ("fr", "Français"), ("ru", "Русский")):
        assert f'lang="{code}"' in page and name in page
    assert '<option value="fr" lang="fr" selected>' in page

    response = ana.post(reverse("set_language"), {"language": "es", "next": lobby})
    assert response.status_code == 302 and response["Location"] == lobby
    page = ana.get(lobby).content.decode()
    assert '<html lang="es"' in page and hello("es", "Ana") in page
    assert '<option value="es" lang="es" selected>' in page
    # Ben did not choose, and the session keeps its language
    assert hello("fr", "Ben") in ben.get(lobby).content.decode()
    assert ClassSession.objects.get(pk=session.pk).language == "fr"


def test_the_join_page_of_a_session_follows_the_choice_too(fresh_translations, session):  # noqa: F811
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    page = client.get(reverse("classroom:join_code", args=[session.join_code])).content.decode()
    assert '<html lang="ru"' in page


@pytest.mark.parametrize("language", ["en", "es", "ru"])
def test_the_play_page_and_its_catalogue_follow_the_choice(
    fresh_translations,  # noqa: F811
    session,
    language,
):
    ana, _ = student(session, "Ana")
    actions.do_start_session(session)
    ana.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = ana.get(reverse("live:play", args=[session.join_code])).content.decode()
    assert f'<html lang="{language}"' in page
    assert f'data-language="{language}"' in page  # the cards' names (kit.js)
    src = reverse("javascript-catalog-in", args=[language])
    assert f'<script src="{src}">' in page
    with translation.override(language):
        assert html.escape(gettext("Game log")) in page


@pytest.mark.parametrize("language", ["es", "fr", "ru"])
def test_the_javascript_catalogue_is_the_one_of_its_url(fresh_translations, language):  # noqa: F811
    catalog = catalogue(language, "djangojs")
    assert catalog is not None
    sample = next(m for m in catalog if m.id and not m.pluralizable)
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the URL wins over the cookie
    response = client.get(reverse("javascript-catalog-in", args=[language]))
    assert response.status_code == 200
    assert json.dumps(sample.string) in response.content.decode()
    assert client.get("/jsi18n/xx/").status_code == 404


def test_the_quiz_follows_the_choice(fresh_translations, session):  # noqa: F811
    ana, participant = student(session, "Ana")
    actions.do_start_session(session)
    actions.do_end_session(session)
    ana.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    page = ana.get(reverse("lessons:quiz")).content.decode()
    assert '<html lang="ru"' in page
    quiz = draw_quiz(session, participant)
    questions = list(quiz.questions())
    assert questions
    assert html.escape(question_text(questions[0], "ru").text) in page
    assert html.escape(question_text(questions[0], "fr").text) not in page


def test_the_session_page_names_the_session_language(session):
    teacher_client = Client()
    teacher_client.force_login(session.school_class.teacher)
    page = teacher_client.get(reverse("classroom:session_detail", args=[session.pk]))
    assert page.status_code == 200
    # named in itself, whatever the teacher's language
    assert "Language: Français" in page.content.decode()
