"""Lesson moments in live play: the GDPR lesson an accepted action's events open, shown to
the seats involved and the projector, and the lesson pause.

The lessons app follows the games: ``on_action_stored`` receives
``games.signals.action_stored`` (connected in ``LessonsConfig.ready``) and gives back the
``table.lesson`` messages that live play sends to the table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import nullcontext
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import prefetch_related_objects

from classroom.broadcast import dashboard_group, send_group
from classroom.kept import Kept
from classroom.models import ClassSession, Seat, Table
from classroom.services import again_on_lost_connection, running_again
from games.engine.base import Game
from games.matches import hold_for_lessons
from games.models import Match
from games.registry import get_game
from lessons.actions import (
    Mode,
    do_record_moments,
    lesson_card,
    lesson_mode,
    recorded_moments,
    seats_involved,
    seen_at_table,
)
from lessons.links import (
    forget_kept_links,
    is_frequent,
    kept_links,
    lesson_after_card,
    link_lesson,
)
from lessons.models import Lesson, LessonMoment
from lessons.texts import LessonGone, session_teacher, teacher_overrides


# Run right after the move's commit, its first query meets a connection the database
# dropped, before it recorded anything: run once more on a new one.
@again_on_lost_connection
def on_action_stored(
    sender: type[Match],
    match: Match,
    events: list[dict],
    table: Table | None = None,
    seats: list[Seat] | None = None,
    **kwargs: Any,
) -> list[dict]:
    """Record the lesson moments of a stored action; return their table messages.
    ``table`` and ``seats``: as live play read them after the action, if it did."""
    return lesson_moments(match, events, table, seats)


def _lesson_json(card: dict) -> dict:
    """Return a lesson card as the protocol's ``lesson`` object."""
    return {
        "slug": card["lesson"],
        "title": card["title"],
        "short": card["short"],
        "articles": card["articles"],
        "more_url": card["url"],
    }


# Each process keeps the cards of the lessons its moves open, by lesson and teacher, as it
# keeps the links (LESSON_LINKS_SECONDS): a wording, text or lesson saved in this process
# is used at once (``forget_kept_cards``), one saved by another process within that time.
_kept_cards: Kept[dict[str, dict]] = Kept(lambda: settings.LESSON_LINKS_SECONDS)


def lesson_in_every_language(lesson: Lesson, session: ClassSession) -> dict[str, dict]:
    """Return the lesson's card in each language of the platform: every student sees it
    in their own (a table's students may have chosen different ones). Its texts and the
    teacher's wordings are read once for every language, and kept by this process."""
    teacher = session_teacher(session)

    def build() -> dict[str, dict]:
        prefetch_related_objects([lesson], "texts")
        overrides = teacher_overrides(lesson, teacher) if teacher.is_authenticated else {}
        return {
            code: _lesson_json(lesson_card(lesson, session, code, overrides))
            for code, _name in settings.LANGUAGES
        }

    return _kept_cards.get((lesson.pk, teacher.pk if teacher.is_authenticated else None), build)


# The lesson mode of each session playing here, read again after LESSON_MODE_SECONDS:
# live play asks at every move that may open a lesson; the teacher's choice saved in
# this process is used at once (``forget_kept_modes``), one saved in another within that.
_kept_modes: Kept[str] = Kept(lambda: settings.LESSON_MODE_SECONDS)


def played_lesson_mode(session: ClassSession) -> str:
    """Return the session's lesson mode (``lesson_mode``) as this process keeps it."""
    return _kept_modes.get(session.pk, lambda: lesson_mode(session))


def forget_kept_modes(**kwargs: Any) -> None:
    """Forget the lesson modes this process keeps (a signal receiver: a mode was saved)."""
    _kept_modes.forget()


def forget_kept_cards(**kwargs: Any) -> None:
    """Forget the cards this process keeps (a signal receiver: a lesson, its text or a
    teacher's wording was saved or deleted)."""
    _kept_cards.forget()


# The lessons a table was shown, as this process saw them: a moment stays recorded while
# its session lasts, so once seen, a lesson is not looked for again at that table.
_seen: set[tuple[int, int, int]] = set()
SEEN_MAX = 65536


def seen_here(session: ClassSession, table: int, lesson: Lesson) -> bool:
    """Tell whether the table was shown the lesson already (``seen_at_table``), asking
    the database only until it was."""
    key = (session.pk, table, lesson.pk)
    if key in _seen:
        return True
    if not seen_at_table(session, table, lesson):
        return False
    remember_seen(session, table, [lesson])
    return True


def remember_seen(session: ClassSession, table: int, lessons: list[Lesson]) -> None:
    """Note that the table was shown these lessons (their moments are recorded)."""
    if len(_seen) + len(lessons) > SEEN_MAX:
        _seen.clear()
    _seen.update((session.pk, table, lesson.pk) for lesson in lessons)


def forget_seen() -> None:
    """Forget the lessons this process saw shown (a test's rolled-back rows)."""
    _seen.clear()


def lessons_opened(
    game: Game | str, events: list[dict], seen: Callable[[Lesson], bool]
) -> list[tuple[Lesson, dict, list[int]]]:
    """Return the lessons an action's events open, each with its first event and the
    seats involved (merged when several events open the same lesson).

    Only the event types the game names in ``event_labels`` may open a lesson.
    ``seen(lesson)`` tells whether the table was shown the lesson already: a frequent
    lesson (a captured card's) opens once per table; after that, an event whose link
    names a lesson besides its card field opens that one instead
    (``lessons.links.lesson_after_card``).
    """
    game = get_game(game) if isinstance(game, str) else game
    found: dict[int, list] = {}
    labelled = [event for event in events if event["type"] in game.event_labels]
    if not labelled:
        return []
    links = kept_links(game)
    for event in labelled:
        link = links.event_link(event)
        if link is None:
            continue
        lesson = link_lesson(game, link, event, links.card_lesson)
        if lesson is None:
            continue
        if is_frequent(link) and seen(lesson):
            lesson = lesson_after_card(link)
            if lesson is None:
                continue
        seats = seats_involved(game, event)
        if lesson.pk in found:
            found[lesson.pk][2] = sorted(set(found[lesson.pk][2]) | set(seats))
        else:
            found[lesson.pk] = [lesson, event, seats]
    return [(lesson, event, seats) for lesson, event, seats in found.values()]


def lesson_moments(
    match: Match, events: list[dict], table: Table | None = None, seats: list | None = None
) -> list[dict]:
    """Record the lesson moments of an accepted action's events; return the table messages.

    One moment per lesson the events open (seats merged), recorded for each seat
    involved; a frequent lesson (a capture) only the first time at the table. In the
    "pause" mode, the match is held until the human seats shown the lesson dismiss it:
    the moments and the hold are stored in one transaction. ``table`` (with its session)
    and ``seats``: the match's table and its seats, when the caller read them already.

    Run a second time after a lost connection (``running_again``), it first looks for
    the moments the first run recorded for this action (and the hold with them): they
    are told again, not recorded twice.
    """
    if not events:
        return []
    labels = get_game(match.game).event_labels
    if not any(event["type"] in labels for event in events):
        return []  # no event that may open a lesson: nothing to read
    if table is None:
        table = (
            Table.objects.select_related("session__school_class__teacher")
            .filter(match=match)
            .first()
        )
    if table is None:
        return []
    session = table.session
    mode = played_lesson_mode(session)
    if mode == Mode.OFF:
        return []
    # The seats that must dismiss a lesson card before play goes on: the human ones, in
    # the "pause" mode.
    waited = (
        _human_seats(seats if seats is not None else table.seats.all())
        if mode == Mode.PAUSE and match.status != Match.Status.FINISHED
        else set()
    )
    recorded = recorded_moments(session, table.number, match.version) if running_again() else []
    if recorded:  # the first run's: the moments, and the hold stored with them
        found = [_opened(moments) for moments in recorded]
        messages = _lesson_messages(session, table, found, recorded, waited)
        if any(message["waiting"] for message in messages):
            match.refresh_from_db(fields=["status", "paused_at"])  # as the hold left it
    else:

        def seen(lesson: Lesson) -> bool:
            return seen_here(session, table.number, lesson)

        found = lessons_opened(match.game, events, seen)
        if not found:
            return []
        try:
            messages = _record(match, session, table, found, waited)
        except (IntegrityError, LessonGone):
            # A lesson this process kept may be gone: the content was loaded anew, with new
            # rows. A moment's foreign key tells at its INSERT; in a hold's transaction, only
            # at its COMMIT, after the card's texts were found missing.
            forget_kept_links()
            forget_kept_cards()
            kept = [lesson.pk for lesson, _event, _seats in found]
            found = lessons_opened(match.game, events, seen)
            if [lesson.pk for lesson, _event, _seats in found] == kept:
                raise  # the same rows, not a reload: recording them again would not help
            messages = _record(match, session, table, found, waited)
    remember_seen(session, table.number, [lesson for lesson, _event, _seats in found])
    if any(message["waiting"] for message in messages):
        send_group(
            dashboard_group(session.pk),
            {"type": "dashboard.changed", "reason": "lesson", "table": table.pk},
        )
    return messages


def _human_seats(seats: Iterable[Seat]) -> set[int]:
    """Return the numbers of the seats a student plays (not a bot)."""
    return {seat.number for seat in seats if seat.participant_id is not None and not seat.bot_kind}


def _record(
    match: Match,
    session: ClassSession,
    table: Table,
    found: list[tuple[Lesson, dict, list[int]]],
    waited: set[int],
) -> list[dict]:
    """Record the moments of the lessons ``found`` and, when a seat of ``waited`` is to
    dismiss one, the match's hold, all or none; return the table messages."""
    holds = any(seat in waited for _lesson, _event, seats in found for seat in seats)
    # One transaction only for a hold: most moments are one INSERT, all or none itself.
    with transaction.atomic() if holds else nullcontext():
        recorded = do_record_moments(session, table.number, found, version=match.version)
        messages = _lesson_messages(session, table, found, recorded, waited)
        held = [message for message in messages if message["waiting"]]
        if held:
            _start_lesson_pause(match, held)
    return messages


def _opened(moments: list[LessonMoment]) -> tuple[Lesson, dict, list[int]]:
    """Return a lesson's recorded moments as ``lessons_opened`` found it: the lesson, its
    first event and the seats involved."""
    seats = sorted(moment.seat for moment in moments if moment.seat is not None)
    return moments[0].lesson, moments[0].details, seats


def _lesson_messages(
    session: ClassSession,
    table: Table,
    found: list[tuple[Lesson, dict, list[int]]],
    recorded: list[list[LessonMoment]],
    waited: set[int],
) -> list[dict]:
    """Return the ``table.lesson`` message of each lesson found, with its moments."""
    messages = []
    # The lessons found, not a second lookup: the links may be reloaded meanwhile.
    for (lesson, event, involved), moments in zip(found, recorded, strict=True):
        waiting = [seat for seat in involved if seat in waited]
        languages = lesson_in_every_language(lesson, session)
        messages.append(
            {
                "type": "table.lesson",
                "table": table.pk,
                "moment": moments[0].pk,
                # In the session's language (the teacher's dashboard, a socket of
                # another language), and in every language for the students' sockets.
                "lesson": languages.get(session.language)
                or _lesson_json(lesson_card(lesson, session)),
                "languages": languages,
                "event": event["type"],
                "seats": involved,
                "pause": bool(waiting),
                "waiting": waiting,
            }
        )
    return messages


def _start_lesson_pause(match: Match, held: list[dict]) -> None:
    """Hold the match (its timers stop) until the waiting seats dismiss the lessons."""
    keep = ("moment", "event", "seats", "waiting")
    # The hold keeps the card in every language: a state's lesson pause shows it again
    # in each socket's (live.messages.in_language).
    paused = hold_for_lessons(
        match.pk,
        [
            {
                **{key: message[key] for key in keep},
                "lesson": {**message["lesson"], "languages": message["languages"]},
            }
            for message in held
        ],
    )
    match.status, match.paused_at = paused.status, paused.paused_at
