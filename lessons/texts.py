"""A lesson's texts in one language, with a teacher's own wording laid over them."""

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeVar

from django.conf import settings
from django.contrib.auth.models import User
from django.utils import translation

from classroom.models import ClassSession
from lessons.models import Lesson, LessonOverride, LessonText, QuizQuestion, QuizQuestionText

OVERRIDABLE = ("title", "short", "body", "discussion")
FALLBACK_LANGUAGE = "en"
_ARTICLE_NUMBER = re.compile(r"^(\d+)")
# A lesson's or a question's text: each has one per language.
_Text = TypeVar("_Text", LessonText, QuizQuestionText)


def article_number(article: str) -> int | None:
    """Return the article number of a citation like "6(1)(a)", or None."""
    match = _ARTICLE_NUMBER.match(article.strip())
    return int(match.group(1)) if match else None


@dataclass
class LessonContent:
    """What a reader sees of a lesson in one language."""

    lesson: Lesson
    language: str
    title: str
    short: str
    body: str
    discussion: str
    case_authority: str
    case_outcome: str
    overridden: bool = False

    @property
    def slug(self) -> str:
        return self.lesson.slug

    @property
    def articles(self) -> list[str]:
        return self.lesson.articles

    @property
    def case_year(self) -> int:
        return self.lesson.case_year

    @property
    def article_refs(self) -> list[tuple[str, int | None]]:
        """Return each cited article with its article number, for links by article."""
        return [(article, article_number(article)) for article in self.lesson.articles]


def supported_language(code: str | None = None) -> str:
    """Return the platform language closest to ``code`` (default: the active one)."""
    code = (code or translation.get_language() or FALLBACK_LANGUAGE).lower()
    available = [language for language, _name in settings.LANGUAGES]
    if code in available:
        return code
    base = code.split("-")[0]
    return base if base in available else FALLBACK_LANGUAGE


class LessonGone(LookupError):
    """A lesson or question was read with no text at all: its row is gone (loading the
    content anew gives the shipped lessons new rows), and whoever kept it must read it
    again."""


def _in_language(texts: Iterable[_Text], language: str, owner: object) -> _Text:
    """Return the text in ``language``, else in English, else in any language there is."""
    by_language = {text.language: text for text in texts}
    text = by_language.get(language) or by_language.get(FALLBACK_LANGUAGE)
    if text is None:
        text = next(iter(by_language.values()), None)
    if text is None:
        raise LessonGone(f"{owner!r} has no text: it is no longer stored")
    return text


def _text(lesson: Lesson, language: str) -> LessonText:
    """Return the shipped text in ``language`` (see ``_in_language``)."""
    return _in_language(lesson.texts.all(), language, lesson)


def lesson_content(
    lesson: Lesson,
    language: str | None = None,
    teacher: User | None = None,
    overrides: dict[str, LessonOverride] | None = None,
) -> LessonContent:
    """Return the lesson in ``language``, with ``teacher``'s own wording where they wrote one.

    ``overrides``: the teacher's wordings of this lesson by language, when the caller
    read them already (``teacher_overrides``).
    """
    language = supported_language(language)
    text = _text(lesson, language)
    content = LessonContent(
        lesson=lesson,
        language=text.language,
        **{
            field: getattr(text, field)
            for field in (*OVERRIDABLE, "case_authority", "case_outcome")
        },
    )
    if teacher is not None and getattr(teacher, "is_authenticated", False):
        if overrides is None:
            overrides = teacher_overrides(lesson, teacher, language)
        override = overrides.get(language)
        if override is not None:
            for field in OVERRIDABLE:
                if getattr(override, field).strip():
                    setattr(content, field, getattr(override, field))
                    content.overridden = True
    return content


def teacher_overrides(
    lesson: Lesson, teacher: User, language: str | None = None
) -> dict[str, LessonOverride]:
    """Return the teacher's wordings of the lesson by language (only ``language``'s)."""
    found = LessonOverride.objects.filter(teacher=teacher, lesson=lesson)
    if language is not None:
        found = found.filter(language=language)
    return {override.language: override for override in found}


def session_teacher(session: ClassSession) -> User:
    """Return the teacher whose class the session belongs to."""
    return session.school_class.teacher


def question_text(question: QuizQuestion, language: str | None = None) -> QuizQuestionText:
    """Return the question's text in ``language`` (see ``_in_language``)."""
    return _in_language(question.texts.all(), supported_language(language), question)
