"""Load the shipped lesson content from fixtures/lessons/ into the database.

``fixtures/lessons/lessons/*.json`` hold the lessons (a list per file), each with
its texts and quiz in every language; ``fixtures/lessons/links/<game>.json`` hold
one game's links: a card link is the card's ``kind``, the lesson, and the values of any
of the card attributes the game lets a link name (``game.link_attributes``). Loading
is idempotent: lessons, texts and questions are updated in place (answers already
given keep their question), a game's links are replaced; into empty tables (a new
database, or one a test flushed, which reloads it after every transactional test) the
content goes in a few inserts, with the same ids. ``manage.py load_lessons``
and the post_migrate handler (so that ``migrate`` loads and refreshes the content, and
a database flushed by a test gets it back) call :func:`load`. Shipped texts are the
fixtures' own: edit them there, not in the admin; a teacher's wording lives apart, in
LessonOverride.
"""

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.apps import AppConfig
from django.apps import apps as global_apps
from django.apps.registry import Apps
from django.db import models, transaction

from lessons.links import forget_kept_links
from lessons.moments import forget_kept_cards

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "lessons"
LANGUAGES = ("en", "es", "fr", "ru")
TEXT_FIELDS = ("title", "short", "body", "discussion", "case_authority", "case_outcome")


def read_lessons(folder: Path = FIXTURES) -> list[dict]:
    """Return every lesson dict of the fixture files, in file then list order."""
    lessons = []
    for path in sorted((folder / "lessons").glob("*.json")):
        lessons.extend(json.loads(path.read_text(encoding="utf-8")))
    return lessons


def read_links(folder: Path = FIXTURES) -> dict[str, dict]:
    """Return each game's link file, by game slug."""
    files = sorted((folder / "links").glob("*.json"))
    return {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in files}


def load(
    get_model: Callable[[str, str], type[models.Model]] | None = None,
    folder: Path = FIXTURES,
    using: str = "default",
) -> dict[str, int]:
    """Create or update every lesson, question and link; return the counts loaded.

    ``get_model(app_label, name)`` is ``apps.get_model`` in a migration; by default
    the current models are used. ``using`` is the database alias.
    """
    if get_model is None:
        get_model = global_apps.get_model

    def model(name: str) -> Any:
        # Any: a migration's historical model, with its ``objects`` (not every Model has).
        found: Any = get_model("lessons", name)
        return found.objects.db_manager(using)

    lessons = {}
    questions = 0
    with transaction.atomic(using=using):
        every_lesson = read_lessons(folder)
        if model("Lesson").exists():
            for data in every_lesson:
                lesson = _load_lesson(model, data)
                lessons[lesson.slug] = lesson
        else:  # a new database, or one a test flushed: a few inserts, not one per row
            lessons = {lesson.slug: lesson for lesson in _create_lessons(model, every_lesson)}
        questions = sum(len(data["quiz_answers"]) for data in every_lesson)
        links = 0
        for game, data in read_links(folder).items():
            links += _load_links(model, game, data, lessons)
    return {"lessons": len(lessons), "questions": questions, "links": links}


def _lesson_fields(data: dict) -> dict[str, Any]:
    """Return a lesson's own fields from its fixture entry."""
    return {
        "order": data["order"],
        "core": data.get("core", False),
        "articles": data["articles"],
        "case_year": data["case_year"],
    }


def _question_text_fields(quiz: dict) -> dict[str, Any]:
    """Return a quiz question's text fields in one language from its fixture entry."""
    return {
        "text": quiz["question"],
        "choices": quiz["choices"],
        "explanation": quiz["explanation"],
    }


def _create_lessons(model: Callable[[str], Any], every_lesson: list[dict]) -> list[Any]:
    """Create every lesson with its texts and quiz questions in four inserts (the lessons
    tables are empty); return the lessons. Rows are made in the order ``_load_lesson``
    makes them, lesson after lesson, so that they get the same ids."""
    Lesson, LessonText = model("Lesson").model, model("LessonText").model
    QuizQuestion, QuizQuestionText = model("QuizQuestion").model, model("QuizQuestionText").model
    lessons = model("Lesson").bulk_create(
        [Lesson(slug=data["slug"], **_lesson_fields(data)) for data in every_lesson]
    )
    texts, questions, question_texts = [], [], []
    for lesson, data in zip(lessons, every_lesson, strict=True):
        for language in LANGUAGES:
            fields = {field: data[language][field] for field in TEXT_FIELDS}
            texts.append(LessonText(lesson=lesson, language=language, **fields))
        for number, answer in enumerate(data["quiz_answers"], start=1):
            question = QuizQuestion(lesson=lesson, number=number, answer=answer)
            questions.append(question)
            for language in LANGUAGES:  # the question's id comes from its insert, below
                quiz = data[language]["quiz"][number - 1]
                question_texts.append(
                    QuizQuestionText(
                        question=question, language=language, **_question_text_fields(quiz)
                    )
                )
    model("LessonText").bulk_create(texts)
    model("QuizQuestion").bulk_create(questions)
    model("QuizQuestionText").bulk_create(question_texts)
    return lessons


def _load_lesson(model: Callable[[str], Any], data: dict) -> Any:
    """Create or update one lesson with its texts and its quiz questions (``model(name)``:
    the manager of a lessons model, a migration's own; the lesson is one of its rows)."""
    lesson, _created = model("Lesson").update_or_create(
        slug=data["slug"], defaults=_lesson_fields(data)
    )
    for language in LANGUAGES:
        texts = data[language]
        model("LessonText").update_or_create(
            lesson=lesson,
            language=language,
            defaults={field: texts[field] for field in TEXT_FIELDS},
        )
    for number, answer in enumerate(data["quiz_answers"], start=1):
        question, _created = model("QuizQuestion").update_or_create(
            lesson=lesson, number=number, defaults={"answer": answer}
        )
        for language in LANGUAGES:
            quiz = data[language]["quiz"][number - 1]
            model("QuizQuestionText").update_or_create(
                question=question,
                language=language,
                defaults=_question_text_fields(quiz),
            )
    # Questions dropped from the content go, unless a student already answered them.
    model("QuizQuestion").filter(lesson=lesson, number__gt=len(data["quiz_answers"])).filter(
        answers__isnull=True
    ).delete()
    return lesson


def _load_links(model: Callable[[str], Any], game: str, data: dict, lessons: dict) -> int:
    """Replace one game's links by those of its file; return how many."""
    LessonLink = model("LessonLink").model
    model("LessonLink").filter(game=game).delete()
    rows = []
    for link in data.get("cards", []):
        attributes = {key: value for key, value in link.items() if key not in ("kind", "lesson")}
        rows.append(
            LessonLink(
                game=game,
                kind=link["kind"],
                attributes=dict(sorted(attributes.items())),
                lesson=lessons[link["lesson"]],
            )
        )
    for link in data.get("events", []):
        rows.append(
            LessonLink(
                game=game,
                event=link["event"],
                qualifier=link.get("qualifier", ""),
                card_field=link.get("card_field", ""),
                once_per_table=link.get("once_per_table", False),
                lesson=lessons[link["lesson"]] if link.get("lesson") else None,
            )
        )
    model("LessonLink").bulk_create(rows)
    return len(rows)


def refresh_content(sender: AppConfig, using: str, apps: Apps | None = None, **kwargs: Any) -> None:
    """Reload the shipped lessons after migrate or flush (the post_migrate handler), when
    the lesson tables exist; each process's kept links and cards forget the old ones."""
    apps = apps or global_apps  # flush sends no migration state
    try:
        apps.get_model("lessons", "LessonLink")
    except LookupError:  # migrated back before the lessons app's tables
        return
    load(apps.get_model, using=using)
    forget_kept_links()
    forget_kept_cards()
