"""The lesson library is open to everyone, in the chosen language; quiz results to the teacher."""

import re

import pytest
from django.test import Client

from classroom.actions import do_end_session
from lessons.actions import do_answer, do_record_moment, draw_quiz, lesson_mode
from lessons.models import Lesson

from .conftest import join, logged_in

pytestmark = pytest.mark.django_db


def get(url, language="en", client=None):
    client = client or Client()
    client.cookies["django_language"] = language
    return client.get(url)


@pytest.mark.parametrize("language", ["en", "es", "fr", "ru"])
@pytest.mark.parametrize("url", ["/lessons/", "/lessons/articles/", "/lessons/consent/"])
def test_library_pages_are_open_to_anyone_in_each_language(url, language):
    response = get(url, language)
    assert response.status_code == 200
    assert 'href="/static/css/lessons.css"' in response.content.decode()


def test_the_library_lists_every_lesson_by_game():
    page = get("/lessons/").content.decode()
    assert "Data-Tycoon" in page
    lessons = list(Lesson.objects.all())
    assert len(lessons) >= 20
    for lesson in lessons:
        assert f'href="/lessons/{lesson.slug}/"' in page


def test_the_library_leads_to_each_games_lessons_in_one_tap():
    """A phone scrolls a long way past four games' lessons: a link to each game's list,
    with how many lessons it holds, and each link's section is on the page."""
    page = get("/lessons/").content.decode()
    jumps = re.findall(r'<a href="#(game-[\w-]+)">[^<]+</a> <span class="muted">\((\d+)\)', page)
    assert len(jumps) >= 4, jumps
    for anchor, count in jumps:
        section = re.search(rf'id="{anchor}".*?</section>', page, re.S)
        assert section is not None, anchor
        assert section.group().count('class="lesson-item"') == int(count), anchor


def test_the_library_is_in_the_chosen_language():
    assert "Consentimiento: un sí libre y claro" in get("/lessons/", "es").content.decode()
    assert "Согласие: свободное и ясное «да»" in get("/lessons/", "ru").content.decode()


def test_the_article_index_groups_lessons_by_article():
    page = get("/lessons/articles/").content.decode()
    assert 'id="article-9"' in page and 'id="article-10"' in page and 'id="article-83"' in page
    assert page.index('id="article-9"') < page.index('id="article-10"')
    assert page.index('id="article-10"') < page.index('id="article-83"')


@pytest.mark.parametrize(
    ("language", "query", "slug"),
    [
        ("en", "fingerprint", "biometric-data"),
        ("fr", "empreinte", "biometric-data"),
        ("fr", "GENETIQUE", "genetic-data"),  # case and accents do not matter
        ("es", "huella dactilar", "biometric-data"),
        ("ru", "ОТПЕЧАТОК", "biometric-data"),
    ],
)
def test_search_looks_in_the_texts_of_the_chosen_language(language, query, slug):
    page = get(f"/lessons/?q={query}", language).content.decode()
    assert f'href="/lessons/{slug}/"' in page


def test_search_does_not_match_another_language():
    page = get("/lessons/?q=empreinte", "en").content.decode()
    assert 'href="/lessons/biometric-data/"' not in page


def test_the_lesson_page_shows_everything_with_answers_behind_details():
    page = get("/lessons/consent/").content.decode()
    for text in ("Art. 6(1)(a)", "Planet49", "2019", "An app says", "<details", "Show the answer"):
        assert text in page
    assert page.index("<details") < page.index("Consent must be an active")


def test_an_unknown_lesson_is_a_404():
    assert get("/lessons/no-such-lesson/").status_code == 404


def test_base_navigation_links_the_library():
    assert 'href="/lessons/"' in get("/").content.decode()


@pytest.fixture
def answered(session_a):
    """Two students: Sam finished the quiz with every answer right, Alex answered one wrongly."""
    do_record_moment(session_a, Lesson.objects.get(slug="sanctions"), "attack", table=1)
    sam, alex = join(session_a, "Sam"), join(session_a, "Alex")
    quiz = draw_quiz(session_a, sam, table=1)
    for question in quiz.questions():
        do_answer(quiz, question, question.answer)
    other = draw_quiz(session_a, alex, table=1)
    first = other.questions()[0]
    do_answer(other, first, (first.answer + 1) % 2)
    join(session_a, "Kim")
    return session_a


def test_the_teacher_sees_right_answers_per_question_and_who_finished(answered, teacher_a):
    response = logged_in(teacher_a).get(f"/lessons/sessions/{answered.pk}/results/")
    page = response.content.decode()
    assert response.status_code == 200
    assert "1 of 3 students finished" in page
    for nickname in ("Sam", "Alex", "Kim"):
        assert nickname in page
    assert "Finished" in page and "Answering" in page and "Not started" in page
    assert "100 %" in page


def test_only_the_sessions_teacher_sees_the_results(answered, teacher_b):
    url = f"/lessons/sessions/{answered.pk}/results/"
    assert logged_in(teacher_b).get(url).status_code == 404
    assert Client().get(url).status_code == 404


def test_the_teacher_sees_the_lessons_shown_per_table(session_a, teacher_a):
    do_record_moment(session_a, Lesson.objects.get(slug="sanctions"), "attack", table=1, seat=0)
    do_record_moment(session_a, Lesson.objects.get(slug="sanctions"), "attack", table=1, seat=1)
    do_record_moment(session_a, Lesson.objects.get(slug="consent"), "countered", table=2, seat=0)
    page = logged_in(teacher_a).get(f"/lessons/sessions/{session_a.pk}/results/").content.decode()
    assert "Table 1" in page and "Table 2" in page
    assert "Sanctions: warnings, bans and big fines" in page and "shown 2 times" in page


def test_the_teacher_chooses_the_lesson_mode(session_a, teacher_a, teacher_b):
    url = f"/lessons/sessions/{session_a.pk}/mode/"
    assert logged_in(teacher_b).post(url, {"mode": "pause"}).status_code == 404
    assert lesson_mode(session_a) == "show"
    response = logged_in(teacher_a).post(url, {"mode": "pause"})
    assert response.status_code == 302
    assert lesson_mode(session_a) == "pause"


def test_an_ended_sessions_results_no_longer_offer_the_lesson_mode(session_a, teacher_a):
    client = logged_in(teacher_a)
    results_url = f"/lessons/sessions/{session_a.pk}/results/"
    assert 'name="mode"' in client.get(results_url).content.decode()
    do_end_session(session_a)
    page = client.get(results_url).content.decode()
    assert 'name="mode"' not in page and "/mode/" not in page
    assert "Show: lesson cards appear, play goes on" in page  # what it was
    assert "The session has ended: this setting can no longer change anything." in page
    answer = client.post(f"/lessons/sessions/{session_a.pk}/mode/", {"mode": "off"}, follow=True)
    assert "this setting can no longer change anything" in answer.content.decode()
    assert lesson_mode(session_a) == "show"
