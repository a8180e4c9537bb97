"""The games' "How to play" in every language: each text is in the catalogues, and a
student reads it in the session's language, or in the one they chose on their device."""

from __future__ import annotations

import html

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from classroom import actions
from classroom.models import ClassSession
from games.describe import how_to_play
from games.registry import all_games
from tests.i18n.test_catalogues import (  # noqa: F401
    LANGUAGES,
    catalogue,
    compiled_catalogues,
    fresh_translations,
)
from tests.i18n.test_student_language import student as joined
from tests.live.conftest import open_session


def how_to_play_texts() -> set[str]:
    """Return every heading and line of every game's how-to-play, and the box's title."""
    games = all_games()
    assert games
    texts = {"How to play"}
    for game in games:
        assert game.how_to_play, game.slug
        texts |= {t for section in game.how_to_play for t in (section.heading, *section.lines)}
    return texts


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_every_how_to_play_text_is_translated(language):
    catalog = catalogue(language, "django")
    assert catalog is not None
    translated = {m.id: m.string for m in catalog if m.id}
    missing = sorted(t for t in how_to_play_texts() if not translated.get(t))
    assert not missing, f"{language}: not translated: {missing}"


def student(session: ClassSession, nickname: str) -> Client:
    """Return a client with the cookies of a new student of the session."""
    return joined(session, nickname)[0]


def shown(slug: str, language: str, variant: str = "standard") -> list[str]:
    """Return the game's how-to-play texts in ``language``, escaped as a page shows them."""
    with translation.override(language):
        sections = how_to_play(slug, variant)
    assert sections
    return [html.escape(t) for s in sections for t in (s["heading"], *s["lines"])]


@pytest.fixture
def session(django_user_model):
    teacher = django_user_model.objects.create_user(username="rules-teacher", password="x-Pass-9")
    return open_session(actions.do_create_class(teacher, "2A"), bots=True, language="es")


@pytest.mark.django_db
def test_the_lobby_shows_how_to_play_in_the_session_language(fresh_translations, session):  # noqa: F811
    page = student(session, "Ana").get(reverse("classroom:lobby", args=[session.join_code]))
    content = page.content.decode()
    spanish, english = shown("data_tycoon", "es"), shown("data_tycoon", "en")
    assert spanish[1] != english[1]  # the goal is translated
    for text in spanish:
        assert text in content
    assert english[1] not in content


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fr", "ru"])
def test_the_play_page_shows_how_to_play_in_the_students_language(
    fresh_translations,  # noqa: F811
    session,
    language,
):
    ana = student(session, "Ana")
    actions.do_start_session(session)
    ana.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    content = ana.get(reverse("live:play", args=[session.join_code])).content.decode()
    chosen, of_the_session = shown("data_tycoon", language), shown("data_tycoon", "es")
    assert chosen[1] != of_the_session[1]
    for text in chosen:
        assert text in content
    assert of_the_session[1] not in content
    with translation.override(language):
        assert html.escape(translation.gettext("How to play")) in content
