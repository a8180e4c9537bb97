"""What a teacher's account holds, as data the teacher can take away (the right to data
portability, GDPR Art. 20): their account, classes with rosters, sessions with their
settings and dates, decks and own wordings of lessons, in JSON.

Only what the teacher wrote or set: the rosters they typed, but nothing students did (the
nicknames they chose, their games, their answers: a session's debrief export holds
those, while the session's student data is kept). The lessons app's model
is found in the app registry, as in classroom.retention: the classroom names no model of
an app built on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.apps import apps

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from classroom.models import SchoolClass

# Bumped when a field changes meaning, so that a program reading the file can tell.
FORMAT = 1


def account_data(user: User) -> dict:
    """Return everything ``user``'s account holds that is theirs, as JSON-ready data."""
    classes = user.school_classes.order_by("created_at", "pk").prefetch_related("sessions")
    overrides = apps.get_model("lessons", "LessonOverride").objects.filter(teacher=user)
    return {
        "format": FORMAT,
        "account": {
            "username": user.get_username(),
            "email": user.email,
            "date_joined": user.date_joined,
            "last_login": user.last_login,
        },
        "classes": [_school_class(school_class) for school_class in classes],
        "decks": [
            {
                "game": deck.game,
                "name": deck.name,
                "cards": deck.cards,
                "created_at": deck.created_at,
                "updated_at": deck.updated_at,
            }
            for deck in user.decks.order_by("game", "name", "pk")
        ],
        "lesson_wordings": [
            {
                "lesson": override.lesson.slug,
                "language": override.language,
                "title": override.title,
                "short": override.short,
                "body": override.body,
                "discussion": override.discussion,
                "updated_at": override.updated_at,
            }
            for override in overrides.select_related("lesson").order_by("lesson__slug", "language")
        ],
    }


def _school_class(school_class: SchoolClass) -> dict:
    sessions = sorted(school_class.sessions.all(), key=lambda s: (s.created_at, s.pk))
    return {
        "name": school_class.name,
        "roster": school_class.pseudonyms(),
        "archived_at": school_class.archived_at,
        "created_at": school_class.created_at,
        "sessions": [
            {
                "game": session.game,
                "variant": session.variant,
                "language": session.language,
                "table_size": session.table_size,
                "bots_fill": session.bots_fill,
                "bot": session.bot,
                "options": session.options,
                "state": session.state,
                "created_at": session.created_at,
                "started_at": session.started_at,
                "ended_at": session.ended_at,
                "student_data_deleted_at": session.purged_at,
            }
            for session in sessions
        ],
    }
