"""How the teacher drives lessons in live play (issue 5, items 3 and 4): the lesson mode
chosen at launch and on the dashboard, ending a lesson pause from the dashboard, and the
dashboard's count of finished quizzes."""

import pytest
from django.test import Client
from django.urls import reverse

from classroom import actions
from classroom.identity import new_device_id
from games.models import Match
from lessons.actions import do_answer, draw_quiz, lesson_mode
from lessons.links import kept_links
from lessons.models import LessonMoment
from lessons.moments import lesson_moments
from live import messages, scheduling, write
from tests.lessons.conftest import PASSWORD
from tests.live.test_lessons_live import sanction_table


def logged_in(teacher):
    client = Client()
    response = client.post(reverse("login"), {"username": teacher.username, "password": PASSWORD})
    assert response.status_code == 302
    return client


def launch(client, school_class, **extra):
    data = {
        "game": "data_tycoon",
        "variant": "standard",
        "language": "en",
        "table_size": 2,
        **extra,
    }
    return client.post(reverse("classroom:session_create", args=[school_class.pk]), data)


@pytest.mark.django_db
def test_the_teacher_chooses_the_lesson_mode_when_launching(teacher_a):
    client = logged_in(teacher_a)
    school_class = actions.do_create_class(teacher_a, "2B")
    form = client.get(reverse("classroom:session_create", args=[school_class.pk]))
    assert 'name="lesson_mode"' in form.content.decode()
    assert launch(client, school_class, lesson_mode="pause").status_code == 302
    assert lesson_mode(school_class.sessions.get()) == "pause"
    other = actions.do_create_class(teacher_a, "2C")
    assert launch(client, other).status_code == 302  # not given: lesson cards show
    assert lesson_mode(other.sessions.get()) == "show"
    third = actions.do_create_class(teacher_a, "2D")
    assert launch(client, third, lesson_mode="loud").status_code == 200
    assert not third.sessions.exists()


@pytest.mark.django_db(transaction=True)
def test_the_dashboard_sets_the_mode_and_ends_a_lesson_pause(teacher_a):
    school_class = actions.do_create_class(teacher_a, "3C")
    session, table, card, _people = sanction_table(school_class, "pause")
    client = logged_in(teacher_a)
    dashboard = reverse("live:session_live", args=[session.pk])
    page = client.get(dashboard).content.decode()
    assert "GDPR lessons" in page and 'value="pause" selected' in page

    write.act(table.match_id, 0, {"type": "attack", "card": card, "target": 1}, 0)
    assert Match.objects.get(pk=table.match_id).status == Match.Status.PAUSED
    assert LessonMoment.objects.filter(session=session, lesson__slug="sanctions").count() == 2
    page = client.get(dashboard).content.decode()
    assert "Lesson pause: Sanctions" in page and "still reading: Ana, Ben" in page

    mode_url = reverse("lessons:session_mode", args=[session.pk])
    response = client.post(mode_url, {"dismiss": table.pk, "next": dashboard})
    assert response.status_code == 302 and response["Location"] == dashboard
    assert messages.lesson_pause(table.match_id) is None
    assert Match.objects.get(pk=table.match_id).status == Match.Status.RUNNING
    assert "Lesson pause" not in client.get(dashboard).content.decode()

    response = client.post(mode_url, {"mode": "off", "next": "https://example.com/"})
    assert response["Location"] == reverse("lessons:session_results", args=[session.pk])
    assert lesson_mode(session) == "off"


@pytest.mark.django_db(transaction=True)
def test_leaving_the_pause_mode_ends_the_lesson_pauses_but_not_the_teachers(teacher_a, monkeypatch):
    monkeypatch.setattr(scheduling, "send_task", lambda *args, **kwargs: None)
    school_class = actions.do_create_class(teacher_a, "3D")
    session, table, card, _people = sanction_table(school_class, "pause")
    write.act(table.match_id, 0, {"type": "attack", "card": card, "target": 1}, 0)
    actions.do_set_table_paused(table, True)
    match = Match.objects.get(pk=table.match_id)
    assert sorted(match.holds.values_list("kind", flat=True)) == ["lesson", "table"]

    mode_url = reverse("lessons:session_mode", args=[session.pk])
    assert logged_in(teacher_a).post(mode_url, {"mode": "show"}).status_code == 302
    assert messages.lesson_pause(table.match_id) is None
    assert list(match.holds.values_list("kind", flat=True)) == ["table"]
    assert Match.objects.get(pk=table.match_id).status == Match.Status.PAUSED
    actions.do_set_table_paused(table, False)
    assert Match.objects.get(pk=table.match_id).status == Match.Status.RUNNING


@pytest.mark.django_db
def test_the_dashboard_shows_who_finished_the_quiz(teacher_a):
    school_class = actions.do_create_class(teacher_a, "4D")
    session = actions.do_create_session(
        school_class,
        game="data_tycoon",
        variant="standard",
        language="en",
        table_size=2,
        bots_fill=True,
    )
    ana = actions.do_join_session(session, "Ana", new_device_id())
    actions.do_join_session(session, "Ben", new_device_id())
    actions.do_start_session(session)
    quiz = draw_quiz(session, ana, 1)
    for question in quiz.questions():
        do_answer(quiz, question, question.answer)
    page = logged_in(teacher_a).get(reverse("live:session_live", args=[session.pk]))
    html = page.content.decode()
    assert "Quiz: 1 of 2 students finished." in html
    assert reverse("lessons:session_results", args=[session.pk]) in html
    assert "Ana" in html and "finished" in html


@pytest.mark.django_db(transaction=True)
def test_a_lesson_this_process_kept_that_is_gone_is_read_again(teacher_a):
    school_class = actions.do_create_class(teacher_a, "3E")
    session, table, card, _people = sanction_table(school_class, "show")
    attack = {"type": "attack", "seat": 0, "target": 1, "card": card, "kind": "sanction"}
    # As a server that kept the links while the content was loaded anew with new rows.
    kept_links("data_tycoon").event_link(attack).lesson.pk = 10**6
    sent = lesson_moments(Match.objects.get(pk=table.match_id), [attack], table)
    assert [message["lesson"]["slug"] for message in sent] == ["sanctions"]
    moments = LessonMoment.objects.filter(session=session)
    assert sorted(moments.values_list("seat", flat=True)) == [0, 1]
    assert {moment.lesson.slug for moment in moments} == {"sanctions"}
    assert sent[0]["moment"] in {moment.pk for moment in moments}
    assert kept_links("data_tycoon").event_link(attack).lesson.pk != 10**6
