"""Every write of the lessons app goes through a do_* function (and the quiz draw).

The live-play server calls these: ``kept_links`` (lessons.links) tells which
lesson an engine event opens, ``do_record_moment`` keeps it for the debrief,
``lesson_card`` is what the seats and the projector show; at the end of a match
``draw_quiz`` gives each student their questions and ``do_answer`` stores answers.
"""

import random
from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from classroom.actions import ActionRefused
from classroom.models import ClassSession, Participant
from games.engine.base import Game
from games.registry import get_game
from lessons.links import kept_links
from lessons.models import (
    Lesson,
    LessonMoment,
    LessonOverride,
    Quiz,
    QuizAnswer,
    QuizQuestion,
    SessionLessonMode,
)
from lessons.texts import OVERRIDABLE, lesson_content, session_teacher, supported_language

QUIZ_MIN = 3
QUIZ_MAX = 5


# Lesson moments

Mode = SessionLessonMode.Mode


def lesson_mode(session: ClassSession) -> str:
    """Return how the session shows lesson cards during play: "off", "show" or "pause"."""
    setting = SessionLessonMode.objects.filter(session=session).first()
    return setting.mode if setting is not None else Mode.SHOW


def do_set_lesson_mode(session: ClassSession, mode: str) -> SessionLessonMode:
    """Choose how the session shows lesson cards during play."""
    if mode not in Mode.values:
        raise ActionRefused(_("Unknown lesson mode."), code="bad_mode")
    setting, _created = SessionLessonMode.objects.update_or_create(
        session=session, defaults={"mode": mode}
    )
    return setting


def on_session_created(
    sender: type[ClassSession], session: ClassSession, choices: dict, **kwargs: Any
) -> None:
    """Receive classroom.signals.session_created: keep the lesson mode chosen at launch."""
    do_set_lesson_mode(session, choices.get("lesson_mode") or Mode.SHOW)


def _moment(
    session: ClassSession,
    lesson: Lesson,
    event: dict | str,
    table: int | None,
    seat: int | None,
    *,
    version: int | None = None,
) -> LessonMoment:
    """Return an unsaved moment of ``lesson`` for ``event`` (an event dict or its type)."""
    details = event if isinstance(event, dict) else {"type": event}
    return LessonMoment(
        session=session,
        table=table,
        seat=seat,
        lesson=lesson,
        event=details["type"],
        details=details,
        version=version,
    )


def do_record_moment(
    session: ClassSession,
    lesson: Lesson,
    event: dict | str,
    *,
    table: int | None = None,
    seat: int | None = None,
) -> LessonMoment:
    """Record that ``lesson`` was shown at a table for ``event`` (an event dict or its type)."""
    moment = _moment(session, lesson, event, table, seat)
    moment.save()
    return moment


def _or_no_seat(seats: list[int]) -> list[int | None]:
    """Return ``seats``, or ``[None]`` (one moment without a seat) when there are none."""
    found: list[int | None] = list(seats)
    return found or [None]


def do_record_moments(
    session: ClassSession,
    table: int,
    opened: list[tuple[Lesson, dict, list[int]]],
    version: int | None = None,
) -> list[list[LessonMoment]]:
    """Record the moments of an action's lessons (``(lesson, event, seats involved)``),
    each once per seat involved (once without a seat when none is), in one statement:
    all or none. Return them by lesson. ``version``: the match's, after the action."""
    moments = [
        [
            _moment(session, lesson, event, table, seat, version=version)
            for seat in _or_no_seat(seats)
        ]
        for lesson, event, seats in opened
    ]
    rows = [moment for group in moments for moment in group]
    if len(rows) == 1:
        # One INSERT is all or none by itself: bulk_create would wrap it in a transaction,
        # two more round trips to a database server (most moves open one moment).
        rows[0].save(force_insert=True)
    else:
        LessonMoment.objects.bulk_create(rows)
    return moments


def recorded_moments(session: ClassSession, table: int, version: int) -> list[list[LessonMoment]]:
    """Return the moments recorded for the action that made the match's ``version`` at
    the table, by lesson in the order they were recorded (as ``do_record_moments``
    returns them); [] when none were."""
    by_lesson: dict[int, list[LessonMoment]] = {}
    for moment in (
        LessonMoment.objects.filter(session=session, table=table, version=version)
        .select_related("lesson")
        .order_by("pk")
    ):
        by_lesson.setdefault(moment.lesson_id, []).append(moment)
    return list(by_lesson.values())


def seen_at_table(session: ClassSession, table: int, lesson: Lesson) -> bool:
    """Tell whether the lesson was already shown at the table (to show frequent ones once)."""
    return LessonMoment.objects.filter(session=session, table=table, lesson=lesson).exists()


def seats_involved(game: Game | str, event: dict) -> list[int]:
    """Return the seats an engine event concerns, as its game (or game slug) says."""
    return (get_game(game) if isinstance(game, str) else game).event_seats(event)


def do_record_event(
    session: ClassSession,
    game: Game | str,
    event: dict,
    *,
    table: int | None = None,
    seats: Iterable[int] | None = None,
) -> list[LessonMoment]:
    """Record the lesson moment of an engine event, one per seat involved; [] if no lesson.

    ``seats`` defaults to :func:`seats_involved`; an event naming no seat gives one
    moment without a seat.
    """
    lesson = kept_links(game).lesson_for_event(event)  # the links as live play reads them
    if lesson is None:
        return []
    involved = _or_no_seat(list(seats if seats is not None else seats_involved(game, event)))
    return [do_record_moment(session, lesson, event, table=table, seat=seat) for seat in involved]


def lesson_card(
    lesson: Lesson,
    session: ClassSession | None = None,
    language: str | None = None,
    overrides: dict[str, LessonOverride] | None = None,
) -> dict:
    """Return the JSON-able lesson card a seat or the projector shows for a moment
    (``overrides``: as ``lessons.texts.lesson_content`` takes them)."""
    teacher = session_teacher(session) if session is not None else None
    language = language or (session.language if session is not None else None)
    content = lesson_content(lesson, language, teacher=teacher, overrides=overrides)
    return {
        "lesson": lesson.slug,
        "title": content.title,
        "short": content.short,
        "articles": list(lesson.articles),
        "url": reverse("lessons:detail", args=[lesson.slug]),
    }


# End-of-game quiz


def _lessons_seen(session: ClassSession, table: int | None) -> list[Lesson]:
    """Return the lessons shown in the session (at ``table`` if given), first seen first."""
    moments = LessonMoment.objects.filter(session=session).select_related("lesson")
    if table is not None:
        moments = moments.filter(table=table)
    return list(dict.fromkeys(moment.lesson for moment in moments.order_by("created_at", "pk")))


def _fill_lessons(session: ClassSession, exclude: set[int]) -> list[Lesson]:
    """Return the lessons that fill a short quiz: the game's core lessons, then the others."""
    lessons = Lesson.objects.filter(links__game=session.game).exclude(pk__in=exclude).distinct()
    if not lessons.exists():
        lessons = Lesson.objects.exclude(pk__in=exclude)
    ordered = list(lessons.order_by("order", "slug"))
    return [lesson for lesson in ordered if lesson.core] + [
        lesson for lesson in ordered if not lesson.core
    ]


def _questions_by_lesson(lessons: list[Lesson]) -> dict[int, list[int]]:
    """Return the question ids of each of ``lessons`` that has questions, by number (one
    query, not one per lesson)."""
    found: dict[int, list[int]] = {}
    rows = QuizQuestion.objects.filter(lesson__in=[lesson.pk for lesson in lessons])
    for lesson_id, pk in rows.order_by("lesson_id", "number").values_list("lesson_id", "pk"):
        found.setdefault(lesson_id, []).append(pk)
    return found


def draw_quiz(session: ClassSession, participant: Participant, table: int | None = None) -> Quiz:
    """Return the student's quiz, drawing it once: 3 to 5 questions, one per lesson.

    The questions come from the lessons that came up at the student's table (all of
    them, up to five, picked at random when more); core lessons fill the quiz up to
    three. The draw is random but seeded by the session and the student.
    """
    existing = Quiz.objects.filter(session=session, participant=participant).first()
    if existing is not None:
        return existing
    rng = random.Random(f"{session.pk}:{participant.pk}")
    seen_lessons = _lessons_seen(session, table)
    questions = _questions_by_lesson(seen_lessons)
    seen = [lesson for lesson in seen_lessons if lesson.pk in questions]
    if len(seen) > QUIZ_MAX:
        seen = sorted(rng.sample(seen, QUIZ_MAX), key=seen.index)
    chosen = list(seen)
    if len(chosen) < QUIZ_MIN:
        fill_lessons = _fill_lessons(session, {lesson.pk for lesson in chosen})
        questions.update(_questions_by_lesson(fill_lessons))
        fill = [lesson for lesson in fill_lessons if lesson.pk in questions]
        core = [lesson for lesson in fill if lesson.core]
        rng.shuffle(core)
        rest = [lesson for lesson in fill if not lesson.core]
        chosen += (core + rest)[: QUIZ_MIN - len(chosen)]
    question_ids = [rng.choice(questions[lesson.pk]) for lesson in chosen]
    try:
        with transaction.atomic():
            return Quiz.objects.create(
                session=session, participant=participant, table=table, question_ids=question_ids
            )
    except IntegrityError:  # drawn meanwhile by another request of the same student
        return Quiz.objects.get(session=session, participant=participant)


def do_answer(quiz: Quiz, question: QuizQuestion, chosen: int) -> QuizAnswer:
    """Store the student's answer to a question of their quiz; answering again changes nothing."""
    if question.pk not in quiz.question_ids:
        raise ActionRefused(_("This question is not part of your quiz."), code="not_in_quiz")
    text = question.texts.first()
    assert text is not None  # a question's texts are stored with it (lessons.content)
    choices = text.choices
    if not 0 <= chosen < len(choices):
        raise ActionRefused(_("Please choose one of the answers."), code="bad_choice")
    with transaction.atomic():
        answer, _created = QuizAnswer.objects.get_or_create(
            participant=quiz.participant,
            question=question,
            defaults={
                "session": quiz.session,
                "chosen": chosen,
                "correct": chosen == question.answer,
            },
        )
        answered = QuizAnswer.objects.filter(
            participant=quiz.participant, question_id__in=quiz.question_ids
        ).count()
        if quiz.finished_at is None and answered >= len(quiz.question_ids):
            quiz.finished_at = timezone.now()
            quiz.save(update_fields=["finished_at"])
    return answer


def next_question(quiz: Quiz) -> QuizQuestion | None:
    """Return the first question of the quiz that the student has not answered yet."""
    answered = set(
        QuizAnswer.objects.filter(
            participant=quiz.participant, question_id__in=quiz.question_ids
        ).values_list("question_id", flat=True)
    )
    return next((q for q in quiz.questions() if q.pk not in answered), None)


# Teachers' own wording


def do_save_override(
    teacher: User, lesson: Lesson, language: str, **texts: str
) -> LessonOverride | None:
    """Store a teacher's wording of a lesson in a language; all fields blank removes it."""
    language = supported_language(language)
    values = {field: (texts.get(field) or "").strip() for field in OVERRIDABLE}
    if not any(values.values()):
        LessonOverride.objects.filter(teacher=teacher, lesson=lesson, language=language).delete()
        return None
    override, _created = LessonOverride.objects.update_or_create(
        teacher=teacher, lesson=lesson, language=language, defaults=values
    )
    return override
