"""Lesson moments are recorded; each student draws a quiz of 3 to 5 questions and answers it."""

import pytest

from classroom.actions import ActionRefused
from lessons.actions import (
    QUIZ_MAX,
    QUIZ_MIN,
    do_answer,
    do_record_event,
    do_record_moment,
    do_set_lesson_mode,
    draw_quiz,
    lesson_card,
    lesson_mode,
    next_question,
    seats_involved,
    seen_at_table,
)
from lessons.models import Lesson, LessonMoment, QuizAnswer, QuizQuestion

from .conftest import join, open_session

pytestmark = pytest.mark.django_db


def lesson(slug):
    return Lesson.objects.get(slug=slug)


def test_recording_a_moment_keeps_session_table_seat_lesson_event_and_time(session_a):
    event = {"type": "attack", "seat": 0, "target": 2, "card": "dt-086", "kind": "sanction"}
    moment = do_record_moment(session_a, lesson("sanctions"), event, table=3, seat=2)
    moment.refresh_from_db()
    assert (moment.session, moment.table, moment.seat) == (session_a, 3, 2)
    assert moment.lesson.slug == "sanctions" and moment.event == "attack"
    assert moment.details == event and moment.created_at is not None


def test_a_moment_may_have_no_table_or_seat(session_a):
    moment = do_record_moment(session_a, lesson("consent"), "treasure_split")
    assert moment.table is None and moment.seat is None and moment.event == "treasure_split"


def test_recording_an_event_records_one_moment_per_seat_involved(session_a):
    event = {"type": "attack", "seat": 0, "target": 1, "card": "x", "kind": "sanction"}
    moments = do_record_event(session_a, "data_tycoon", event, table=1, seats=[0, 1])
    assert [m.seat for m in moments] == [0, 1]
    assert {m.lesson.slug for m in moments} == {"sanctions"}
    assert do_record_event(session_a, "data_tycoon", {"type": "turn", "seat": 0}) == []


def test_the_seats_involved_are_the_actor_and_the_target(session_a):
    event = {"type": "attack", "seat": 2, "target": 0, "card": "x", "kind": "sanction"}
    assert seats_involved("data_tycoon", event) == [0, 2]
    assert seats_involved("data_tycoon", {"type": "countered", "seat": 1, "kind": "lawyer"}) == [1]
    moments = do_record_event(session_a, "data_tycoon", event, table=5)
    assert [(m.table, m.seat) for m in moments] == [(5, 0), (5, 2)]


def test_the_lesson_card_carries_title_short_articles_and_link(session_a):
    card = lesson_card(lesson("sanctions"), session_a)
    assert card["lesson"] == "sanctions"
    assert card["articles"] == ["58(2)", "83(4)", "83(5)", "84"]
    assert card["url"] == "/lessons/sanctions/"
    assert card["title"] and card["short"]


def test_the_lesson_card_is_in_the_session_language(teacher_a):
    session = open_session(teacher_a, language="ru", name="9R")
    card = lesson_card(lesson("sanctions"), session)
    assert card["title"].startswith("Санкции")


def test_the_quiz_draws_from_the_lessons_at_the_students_table(session_a, student):
    slugs = ["sanctions", "biometric-data", "security", "restriction"]
    for slug in slugs:
        do_record_moment(session_a, lesson(slug), "attack", table=1, seat=0)
    do_record_moment(session_a, lesson("geolocation"), "capture", table=2, seat=0)
    quiz = draw_quiz(session_a, student, table=1)
    drawn = [question.lesson.slug for question in quiz.questions()]
    assert sorted(drawn) == sorted(slugs)
    assert quiz.table == 1 and not quiz.is_finished


def test_core_lessons_fill_a_short_quiz_up_to_three(session_a, student):
    do_record_moment(session_a, lesson("geolocation"), "capture", table=1, seat=0)
    quiz = draw_quiz(session_a, student, table=1)
    lessons = [question.lesson for question in quiz.questions()]
    assert len(lessons) == QUIZ_MIN
    assert lessons[0].slug == "geolocation"
    assert all(lesson.core for lesson in lessons[1:])
    assert len(set(lessons)) == len(lessons)


def test_a_table_where_no_lesson_came_up_gets_three_core_questions(session_a, student):
    quiz = draw_quiz(session_a, student, table=4)
    lessons = [question.lesson for question in quiz.questions()]
    assert len(lessons) == QUIZ_MIN and all(lesson.core for lesson in lessons)


def test_the_quiz_has_at_most_five_questions(session_a, student):
    lessons = list(Lesson.objects.all()[:9])
    assert len(lessons) == 9
    for item in lessons:
        do_record_moment(session_a, item, "attack", table=1)
    quiz = draw_quiz(session_a, student, table=1)
    assert len(quiz.question_ids) == QUIZ_MAX
    assert len({q.lesson_id for q in quiz.questions()}) == QUIZ_MAX


def test_the_quiz_is_drawn_once_per_student(session_a, student):
    first = draw_quiz(session_a, student, table=1)
    do_record_moment(session_a, lesson("sanctions"), "attack", table=1)
    assert draw_quiz(session_a, student, table=1) == first


def test_answering_stores_the_answer_and_finishes_the_quiz(session_a, student):
    quiz = draw_quiz(session_a, student, table=1)
    questions = quiz.questions()
    right = questions[0]
    answer = do_answer(quiz, right, right.answer)
    assert answer.correct and answer.chosen == right.answer
    assert (answer.session, answer.participant, answer.question) == (session_a, student, right)
    wrong = questions[1]
    answer = do_answer(quiz, wrong, (wrong.answer + 1) % 2)
    assert not answer.correct
    assert next_question(quiz) == questions[2]
    for question in questions[2:]:
        do_answer(quiz, question, 0)
    quiz.refresh_from_db()
    assert quiz.is_finished and next_question(quiz) is None
    assert QuizAnswer.objects.filter(participant=student).count() == len(questions)


def test_answering_again_keeps_the_first_answer(session_a, student):
    quiz = draw_quiz(session_a, student)
    question = quiz.questions()[0]
    first = do_answer(quiz, question, question.answer)
    again = do_answer(quiz, question, (question.answer + 1) % 2)
    assert again == first and again.correct
    assert QuizAnswer.objects.filter(participant=student, question=question).count() == 1


def test_answers_outside_the_quiz_or_the_choices_are_refused(session_a, student):
    quiz = draw_quiz(session_a, student)
    other = QuizQuestion.objects.exclude(pk__in=quiz.question_ids).first()
    assert other is not None
    with pytest.raises(ActionRefused):
        do_answer(quiz, other, 0)
    with pytest.raises(ActionRefused):
        do_answer(quiz, quiz.questions()[0], 9)
    assert not QuizAnswer.objects.exists()


def test_two_students_draw_their_own_quizzes(session_a, student):
    other = join(session_a, "Alex")
    do_record_moment(session_a, lesson("sanctions"), "attack", table=1)
    mine, theirs = draw_quiz(session_a, student, 1), draw_quiz(session_a, other, 1)
    assert mine != theirs and mine.participant == student and theirs.participant == other


def test_moments_and_answers_belong_to_their_session(session_a, session_b, student):
    do_record_moment(session_a, lesson("sanctions"), "attack", table=1)
    assert not LessonMoment.objects.filter(session=session_b).exists()
    other = join(session_b, "Kim")
    quiz = draw_quiz(session_b, other, table=1)
    questions = quiz.questions()
    assert len(questions) == QUIZ_MIN
    assert all(question.lesson.core for question in questions)


def test_the_lesson_mode_is_show_until_the_teacher_chooses(session_a):
    assert lesson_mode(session_a) == "show"
    do_set_lesson_mode(session_a, "pause")
    assert lesson_mode(session_a) == "pause"
    do_set_lesson_mode(session_a, "off")
    assert lesson_mode(session_a) == "off"
    with pytest.raises(ActionRefused):
        do_set_lesson_mode(session_a, "loud")


def test_a_lesson_seen_at_a_table_is_known_there_only(session_a):
    sanctions = lesson("sanctions")
    assert not seen_at_table(session_a, 1, sanctions)
    do_record_moment(session_a, sanctions, "attack", table=1, seat=0)
    assert seen_at_table(session_a, 1, sanctions)
    assert not seen_at_table(session_a, 2, sanctions)
