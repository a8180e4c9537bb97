"""A teacher's own wording shows to that teacher's classes only; the shipped text stays."""

import pytest
from django.test import Client

from lessons.actions import do_save_override, lesson_card
from lessons.models import Lesson, LessonOverride, LessonText
from lessons.texts import LessonGone, lesson_content

from .conftest import logged_in, student_client

pytestmark = pytest.mark.django_db

MINE = "Sanctions in our school rules"


@pytest.fixture
def sanctions():
    return Lesson.objects.get(slug="sanctions")


@pytest.fixture
def override(teacher_a, sanctions):
    return do_save_override(teacher_a, sanctions, "en", title=MINE, short="", body="")


def test_the_override_replaces_only_the_fields_written(override, teacher_a, sanctions):
    shipped = lesson_content(sanctions, "en")
    mine = lesson_content(sanctions, "en", teacher=teacher_a)
    assert mine.title == MINE and mine.overridden
    assert mine.short == shipped.short and mine.body == shipped.body
    assert LessonText.objects.get(lesson=sanctions, language="en").title != MINE


def test_a_lesson_is_told_in_english_else_in_a_language_it_has_and_gone_without_text(sanctions):
    assert lesson_content(sanctions, "fr").language == "fr"
    sanctions.texts.filter(language="fr").delete()
    assert lesson_content(sanctions, "fr").language == "en"
    sanctions.texts.exclude(language="es").delete()
    assert lesson_content(sanctions, "fr").language == "es"
    sanctions.texts.all().delete()
    with pytest.raises(LessonGone):
        lesson_content(sanctions, "fr")


def test_the_override_is_per_language(override, teacher_a, sanctions):
    assert lesson_content(sanctions, "fr", teacher=teacher_a).title.startswith("Sanctions :")


def test_the_lesson_card_shows_the_override_in_that_teachers_sessions_only(
    override, sanctions, session_a, session_b
):
    assert lesson_card(sanctions, session_a)["title"] == MINE
    assert lesson_card(sanctions, session_b)["title"] != MINE


def test_the_library_shows_the_override_to_the_teacher_and_their_students_only(
    override, teacher_a, teacher_b, session_a, session_b
):
    url = "/lessons/sanctions/"
    assert MINE in logged_in(teacher_a).get(url).content.decode()
    assert MINE in student_client(session_a, "Sam").get(url).content.decode()
    assert MINE not in logged_in(teacher_b).get(url).content.decode()
    assert MINE not in student_client(session_b, "Kim").get(url).content.decode()
    assert MINE not in Client().get(url).content.decode()


def test_saving_blank_fields_removes_the_override(override, teacher_a, sanctions):
    assert do_save_override(teacher_a, sanctions, "en", title=" ") is None
    assert not LessonOverride.objects.exists()


def test_a_teacher_adapts_a_lesson_with_the_form(teacher_a, sanctions):
    client = logged_in(teacher_a)
    page = client.get("/lessons/sanctions/adapt/")
    assert page.status_code == 200
    response = client.post(
        "/lessons/sanctions/adapt/",
        {"title": "", "short": "Fines hurt. Follow the rules.", "body": "", "discussion": ""},
    )
    assert response.status_code == 302 and response["Location"] == "/lessons/sanctions/"
    override = LessonOverride.objects.get(teacher=teacher_a, lesson=sanctions, language="en")
    assert override.short == "Fines hurt. Follow the rules." and override.title == ""


def test_adapting_needs_a_login():
    response = Client().get("/lessons/sanctions/adapt/")
    assert response.status_code == 302 and "/login/" in response["Location"]
