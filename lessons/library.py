"""The lesson library's queries: lessons by game, by article, and a text search."""

import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field

from django.contrib.auth.models import User

from classroom.catalogue import game_name
from lessons.labels import link_label
from lessons.models import Lesson, LessonLink
from lessons.texts import LessonContent, article_number, lesson_content


@dataclass
class LibraryEntry:
    """A lesson as the library lists it: its content and what opens it."""

    content: LessonContent
    opened_by: list[str] = field(default_factory=list)


def all_lessons() -> list[Lesson]:
    """Return every lesson with its texts, in library order."""
    return list(Lesson.objects.prefetch_related("texts").order_by("order", "slug"))


def contents(language: str, teacher: User | None = None) -> list[LessonContent]:
    """Return every lesson in ``language``, with the teacher's own wording where it exists."""
    return [lesson_content(lesson, language, teacher) for lesson in all_lessons()]


def by_game(
    language: str, teacher: User | None = None
) -> list[tuple[str, str, list[LibraryEntry]]]:
    """Return (game slug, game name, entries) for every game that links lessons."""
    by_lesson = {content.lesson.pk: content for content in contents(language, teacher)}
    groups: dict[str, dict[int, LibraryEntry]] = defaultdict(dict)
    for link in LessonLink.objects.exclude(lesson=None).order_by("game", "event", "pk"):
        lesson_id = link.lesson_id
        assert lesson_id is not None  # the links without a lesson are excluded
        entry = groups[link.game].setdefault(lesson_id, LibraryEntry(content=by_lesson[lesson_id]))
        label = link_label(link, language)
        if label not in entry.opened_by:
            entry.opened_by.append(label)
    return [
        (
            game,
            game_name(game, language),
            sorted(entries.values(), key=lambda e: (e.content.lesson.order, e.content.slug)),
        )
        for game, entries in sorted(groups.items())
    ]


def unlinked(language: str, teacher: User | None = None) -> list[LessonContent]:
    """Return the lessons no game links yet (in the library only, not in play)."""
    linked = set(LessonLink.objects.exclude(lesson=None).values_list("lesson_id", flat=True))
    return [content for content in contents(language, teacher) if content.lesson.pk not in linked]


def by_article(
    language: str, teacher: User | None = None
) -> list[tuple[int, list[tuple[LessonContent, list]]]]:
    """Return (article number, [(lesson, exact citations)]) for every article cited, in order."""
    groups: dict[int, list] = defaultdict(list)
    for content in contents(language, teacher):
        cited: dict[int, list[str]] = defaultdict(list)
        for article in content.articles:
            number = article_number(article)
            if number is not None:
                cited[number].append(article)
        for number, citations in cited.items():
            groups[number].append((content, citations))
    return sorted(groups.items())


def fold(text: str) -> str:
    """Return text case-folded and without accents, for matching in every language."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def _haystack(content: LessonContent) -> str:
    parts = [
        content.title,
        content.short,
        content.body,
        content.discussion,
        content.case_authority,
        content.case_outcome,
        " ".join(f"{article}" for article in content.articles),
    ]
    return fold(" ".join(parts))


def search(query: str, language: str, teacher: User | None = None) -> list[LessonContent]:
    """Return the lessons whose texts in ``language`` contain every word of the query.

    Matching ignores case and accents; lessons whose title matches come first.
    """
    words = fold(query).split()
    if not words:
        return []
    found = [c for c in contents(language, teacher) if all(w in _haystack(c) for w in words)]
    return sorted(found, key=lambda c: not all(w in fold(c.title) for w in words))
