"""A student answers the end-of-game quiz one question at a time, each then explained."""

import pytest
from django.test import Client
from django.utils import timezone

from classroom import actions
from classroom.models import Participant, Seat, Table
from games.matches import create_match
from lessons.actions import do_record_moment
from lessons.models import Lesson, Quiz, QuizAnswer

from .conftest import logged_in, student_client

pytestmark = pytest.mark.django_db


def seat_at_table(session, nickname, number=2):
    """Seat the student at table ``number`` with a fresh match; return the match."""
    match = create_match(session.game, session.variant, 2)
    table = Table.objects.create(session=session, number=number, match=match)
    participant = Participant.objects.get(session=session, nickname=nickname)
    Seat.objects.create(table=table, number=0, participant=participant)
    Seat.objects.create(table=table, number=1, bot="random")
    return match


def test_a_device_without_a_seat_has_no_quiz():
    assert Client().get("/lessons/quiz/").status_code == 404


def test_the_quiz_waits_for_the_end_of_the_students_match(session_a):
    client = student_client(session_a, "Sam")
    match = seat_at_table(session_a, "Sam", number=2)
    do_record_moment(session_a, Lesson.objects.get(slug="profiling"), "capture", table=2)
    do_record_moment(session_a, Lesson.objects.get(slug="geolocation"), "capture", table=1)
    assert "The quiz opens when your game is over." in client.get("/lessons/quiz/").content.decode()
    assert not Quiz.objects.exists()
    match.finished_at = timezone.now()
    match.save(update_fields=["finished_at"])
    assert "Question 1 of 3" in client.get("/lessons/quiz/").content.decode()
    quiz = Quiz.objects.get()
    slugs = [question.lesson.slug for question in quiz.questions()]
    assert quiz.table == 2 and slugs[0] == "profiling" and "geolocation" not in slugs


def test_a_student_answers_every_question_and_the_teacher_sees_it(session_a, teacher_a):
    do_record_moment(session_a, Lesson.objects.get(slug="sanctions"), "attack", table=None)
    client = student_client(session_a, "Sam")
    actions.do_end_session(session_a)
    page = client.get("/lessons/quiz/").content.decode()
    quiz = Quiz.objects.get(participant__nickname="Sam")
    assert 3 <= len(quiz.question_ids) <= 5
    assert quiz.questions()[0].lesson.slug == "sanctions"
    assert f"Question 1 of {len(quiz.question_ids)}" in page
    for index, question in enumerate(quiz.questions()):
        response = client.post("/lessons/quiz/", {"question": question.pk, "choice": 0})
        assert response.status_code == 302
        page = client.get(response["Location"]).content.decode()
        explanation = question.texts.get(language="en").explanation
        assert explanation.replace("'", "&#x27;") in page
        if index + 1 < len(quiz.question_ids):
            assert f"Question {index + 2} of" in page
    assert "Finished:" in page
    quiz.refresh_from_db()
    assert quiz.is_finished
    assert QuizAnswer.objects.filter(participant=quiz.participant).count() == len(quiz.question_ids)
    results = logged_in(teacher_a).get(f"/lessons/sessions/{session_a.pk}/results/")
    assert "1 of 1 student finished" in results.content.decode()


def test_a_missing_choice_is_refused_with_a_message(session_a):
    client = student_client(session_a, "Sam")
    actions.do_end_session(session_a)
    client.get("/lessons/quiz/")
    question = Quiz.objects.get().questions()[0]
    response = client.post("/lessons/quiz/", {"question": question.pk}, follow=True)
    assert "Please choose one of the answers." in response.content.decode()
    assert not QuizAnswer.objects.exists()


def test_the_quiz_is_in_the_chosen_language(session_a):
    client = student_client(session_a, "Sam")
    actions.do_end_session(session_a)
    client.cookies["django_language"] = "fr"
    quiz_page = client.get("/lessons/quiz/").content.decode()
    question = Quiz.objects.get().questions()[0]
    assert question.texts.get(language="fr").text.replace("'", "&#x27;") in quiz_page


def test_the_ended_lobby_offers_the_quiz_to_a_student_who_played(session_a):
    """The teacher ended the session mid-game: the lobby's "ended" page (a reload of the
    table lands there) leads to the quiz, which opens."""
    client = student_client(session_a, "Sam")
    seat_at_table(session_a, "Sam")  # a match still going
    actions.do_end_session(session_a)
    page = client.get(f"/lobby/{session_a.join_code}/").content.decode()
    assert "ended this session" in page
    assert 'href="/lessons/quiz/"' in page and "Take the quiz" in page
    assert 'href="/lessons/"' in page
    assert "Thank you for playing!" in page
    # a teacher's next session has a new code: the join form is a tap away
    assert 'href="/join/">Join another game</a>' in page
    assert "Question 1 of" in client.get("/lessons/quiz/").content.decode()


def test_the_ended_lobby_offers_no_quiz_to_a_student_who_never_played(session_a):
    """Ended from the lobby, before any game: the library only."""
    client = student_client(session_a, "Sam")
    actions.do_end_session(session_a)
    page = client.get(f"/lobby/{session_a.join_code}/").content.decode()
    assert "ended this session" in page
    assert "/lessons/quiz/" not in page
    assert 'href="/lessons/"' in page
    assert "Thank you for playing" not in page  # nobody played
    assert 'href="/join/">Join another game</a>' in page
