"""Retention of student data, privacy by design.

A session's student data is deleted ``RETENTION_DAYS`` after the session ends (Celery
beat runs ``classroom.tasks.purge_expired_sessions`` hourly), or at once when its
teacher asks. Deleted: the participants (nicknames, device ids, hashed network
addresses, device changes), the join requests that waited for the teacher, the
tables, seats and matches with their action logs, timers and pause holds, the lesson moments, the
quizzes and quiz answers, what other apps register here (the debrief exports with
their files), and the admin log's entries about any of these (a staff edit in the Django
admin records the object's name, a nickname for a participant). Kept: the session row
itself (game, variant, dates) with ``purged_at`` set, as long as its class.

What teachers keep has its time limit too (``classroom.tasks.purge_unused_records``,
daily): a class's roster, pseudonyms of students, is emptied ``ROSTER_DAYS`` after the
class was last used (edited, or a session opened for it); a teacher's account is deleted
``ACCOUNT_DAYS`` after its last login (its sign-up, if it never logged in), with its
classes, sessions, decks, lesson wordings and exports, each session's student data purged
first; the accounts of the school's administrators (staff) are theirs to manage and kept.
The Django admin's change log keeps each entry ``ADMIN_LOG_DAYS``.

A join request the teacher left unanswered expires ``JOIN_REQUEST_MINUTES`` after it was
made (it leaves the dashboard at once, and its device may ask again); the same hourly
task deletes it, whether the session is still open or not.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import CharField, Max, Q, QuerySet
from django.db.models.functions import Cast
from django.utils import timezone

from classroom import actions
from classroom.erasures import purge_erasures, record_erasure
from classroom.models import Erasure

if TYPE_CHECKING:
    from axes.models import AccessAttempt
    from django.contrib.admin.models import LogEntry
    from django.contrib.auth.models import User

    from classroom.models import ClassSession, JoinRequest, SchoolClass


def _model(label: str) -> Any:
    # Any: a model class found by its label at run time (this module imports no model),
    # used through its ``objects``, which the stubs do not give every Model.
    return apps.get_model(label)


# Student data that an app built on the classroom keeps about a session, registered from
# that app's AppConfig.ready() (the debrief's exports), so that this module names no
# model of an app that depends on it: kind -> (model label, lookup from it to the session).
REGISTERED: dict[str, tuple[str, str]] = {}


def register_student_data(kind: str, label: str, lookup: str) -> None:
    """Have the purge delete another app's rows about a session (before the classroom's,
    lessons' and games' own), counted under ``kind``, with the admin log's entries about
    them. ``label`` names the model ("app.Model"); ``lookup`` goes from it to the session."""
    REGISTERED[kind] = (label, lookup)


def purge_session(session: ClassSession) -> dict[str, int]:
    """Delete every piece of one session's student data now; return counts by kind.

    An open session is ended first, so that no table keeps playing on deleted data.
    """
    ClassSession = _model("classroom.ClassSession")
    if session.state != ClassSession.State.FINISHED:
        session = actions.do_end_session(session)
    with transaction.atomic():
        _delete_admin_log(session)
        counts = {
            kind: _delete(_model(label), **{lookup: session})
            for kind, (label, lookup) in REGISTERED.items()
        }
        counts |= {
            "quiz_answers": _delete(_model("lessons.QuizAnswer"), session=session),
            "quizzes": _delete(_model("lessons.Quiz"), session=session),
            "lesson_moments": _delete(_model("lessons.LessonMoment"), session=session),
            # A match's deletion takes its table, seats, action log, timers and holds with it.
            "matches": _delete(_model("games.Match"), table__session=session),
            "tables": _delete(_model("classroom.Table"), session=session),
            "join_requests": _delete(_model("classroom.JoinRequest"), session=session),
            "participants": _delete(_model("classroom.Participant"), session=session),
        }
        ClassSession.objects.filter(pk=session.pk).update(purged_at=timezone.now())
        record_erasure(Erasure.Kind.SESSION_DATA, session.pk)
    session.refresh_from_db()
    return counts


# Every kind of student data, with the lookup from the model to its session.
STUDENT_DATA = {
    "classroom.Participant": "session",
    "classroom.SeatMove": "participant__session",
    "classroom.JoinRequest": "session",
    "classroom.Table": "session",
    "classroom.Seat": "table__session",
    "games.Match": "table__session",
    "games.MatchAction": "match__table__session",
    "games.MatchTimer": "match__table__session",
    "games.MatchHold": "match__table__session",
    "lessons.LessonMoment": "session",
    "lessons.Quiz": "session",
    "lessons.QuizAnswer": "session",
}


def _delete_admin_log(session: ClassSession) -> int:
    """Delete the admin log's entries about the session's student data; return how many."""
    return _delete_log_entries(
        (_model(label), Q(**{lookup: session}))
        for label, lookup in [*STUDENT_DATA.items(), *REGISTERED.values()]
    )


def _delete_log_entries(about: Iterable[tuple[Any, Q]]) -> int:
    """Delete the admin log's entries about the rows of each ``(model, Q)`` in ``about``
    (a staff edit records the object's name); return how many."""
    if not apps.is_installed("django.contrib.admin"):
        return 0
    content_types = _model("contenttypes.ContentType").objects
    entries = Q(pk__in=[])
    for model, rows in about:
        ids = model.objects.filter(rows).annotate(text_pk=Cast("pk", CharField())).values("text_pk")
        entries |= Q(content_type=content_types.get_for_model(model), object_id__in=ids)
    deleted, _detail = _model("admin.LogEntry").objects.filter(entries).delete()
    return deleted


def _delete(model: Any, **lookup: Any) -> int:
    """Delete the model's rows matching ``lookup`` (cascades included); count the model's own."""
    _total, detail = model.objects.filter(**lookup).delete()
    return detail.get(model._meta.label, 0)


def expired_sessions(retention_days: int, now: datetime | None = None) -> QuerySet[ClassSession]:
    """Return the sessions whose student data is due for deletion, not yet purged.

    A finished session is due ``retention_days`` after it ended. A session that was
    never ended (a teacher forgot to) is due ``retention_days`` after it was created,
    so that no student data outlives the retention because of a missing click.
    """
    ClassSession = _model("classroom.ClassSession")
    cutoff = (now or timezone.now()) - timedelta(days=retention_days)
    finished = Q(state=ClassSession.State.FINISHED, ended_at__lt=cutoff)
    abandoned = ~Q(state=ClassSession.State.FINISHED) & Q(created_at__lt=cutoff)
    return ClassSession.objects.filter(finished | abandoned, purged_at__isnull=True)


def purge_due(session: ClassSession, retention_days: int) -> datetime:
    """Return when ``session``'s student data falls due for deletion, by the rule of
    ``expired_sessions``: ``retention_days`` after it ended, or after it was opened while
    it is not ended (the hourly purge deletes it within the hour after)."""
    if session.state == session.State.FINISHED and session.ended_at is not None:
        return session.ended_at + timedelta(days=retention_days)
    return session.created_at + timedelta(days=retention_days)


def purge_notice(session: ClassSession) -> dict[str, Any]:
    """Return what a teacher's page says of the session's deletion: ``purge_due`` (with
    the platform's ``RETENTION_DAYS``) and ``retention_days``."""
    return {
        "purge_due": purge_due(session, settings.RETENTION_DAYS),
        "retention_days": settings.RETENTION_DAYS,
    }


def expired_join_requests(now: datetime | None = None) -> QuerySet[JoinRequest]:
    """Return the join requests that expired unanswered: marked expired, or pending for
    longer than JOIN_REQUEST_MINUTES. A refused request stays until its session is
    purged: it keeps its device out."""
    JoinRequest = _model("classroom.JoinRequest")
    return JoinRequest.objects.filter(
        Q(status=JoinRequest.Status.EXPIRED)
        | Q(status=JoinRequest.Status.PENDING, created_at__lt=JoinRequest.expiry_cutoff(now))
    )


def purge_expired_join_requests(now: datetime | None = None) -> int:
    """Delete the expired join requests, with the admin log's entries about them; count
    them."""
    JoinRequest = _model("classroom.JoinRequest")
    expired = expired_join_requests(now)
    with transaction.atomic():
        _delete_log_entries([(JoinRequest, Q(pk__in=expired.values("pk")))])
        return _delete(JoinRequest, pk__in=list(expired.values_list("pk", flat=True)))


def old_login_attempts(now: datetime | None = None) -> QuerySet[AccessAttempt]:
    """Return the records of failed teacher logins whose last failure is older than
    LOGIN_ATTEMPT_HOURS (django-axes keeps them to count wrong passwords)."""
    cutoff = (now or timezone.now()) - timedelta(hours=settings.LOGIN_ATTEMPT_HOURS)
    return _model("axes.AccessAttempt").objects.filter(attempt_time__lt=cutoff)


def purge_login_attempts(now: datetime | None = None) -> int:
    """Delete the old records of failed teacher logins; return how many went."""
    return old_login_attempts(now).delete()[0]


def purge_expired(retention_days: int, now: datetime | None = None) -> int:
    """Purge every expired session's student data and every expired join request; return
    how many participants went."""
    purge_expired_join_requests(now)
    deleted = 0
    for session in expired_sessions(retention_days, now):
        deleted += purge_session(session)["participants"]
    return deleted


def unused_rosters(roster_days: int, now: datetime | None = None) -> QuerySet[SchoolClass]:
    """Return the classes with a roster whose class was last used more than
    ``roster_days`` ago: neither edited nor given a session since."""
    cutoff = (now or timezone.now()) - timedelta(days=roster_days)
    return (
        _model("classroom.SchoolClass")
        .objects.exclude(roster="")
        .annotate(last_session=Max("sessions__created_at"))
        .filter(updated_at__lt=cutoff)
        .filter(Q(last_session__isnull=True) | Q(last_session__lt=cutoff))
    )


def empty_unused_rosters(roster_days: int, now: datetime | None = None) -> int:
    """Empty the rosters of classes unused for ``roster_days`` (the class stays, and its
    "last edited" date: emptying is not a use); return how many."""
    # The admin log's entries about a class name its fields, never their text: they stay.
    ids = list(unused_rosters(roster_days, now).values_list("pk", flat=True))
    return _model("classroom.SchoolClass").objects.filter(pk__in=ids).update(roster="")


# An administrator's account (staff or superuser) is managed in the administration
# pages: neither deleted for being unused nor by its owner from "My account".
ADMINISTRATOR = Q(is_staff=True) | Q(is_superuser=True)


def is_administrator(user: User) -> bool:
    """Return True for an administrator's account (see ``ADMINISTRATOR``)."""
    return user.is_staff or user.is_superuser


def unused_accounts(account_days: int, now: datetime | None = None) -> QuerySet[User]:
    """Return the teachers' accounts (not the administrators') with no login for
    ``account_days``, or never logged in and signed up that long ago."""
    cutoff = (now or timezone.now()) - timedelta(days=account_days)
    return (
        get_user_model()
        .objects.filter(
            Q(last_login__lt=cutoff) | Q(last_login__isnull=True, date_joined__lt=cutoff)
        )
        .exclude(ADMINISTRATOR)
    )


def owned_by(user: User) -> dict[str, int]:
    """Count what a teacher's account holds: classes, sessions, decks, lesson wordings."""
    return {
        "classes": _model("classroom.SchoolClass").objects.filter(teacher=user).count(),
        "sessions": _model("classroom.ClassSession")
        .objects.filter(school_class__teacher=user)
        .count(),
        "decks": _model("classroom.Deck").objects.filter(teacher=user).count(),
        "wordings": _model("lessons.LessonOverride").objects.filter(teacher=user).count(),
    }


def delete_account(user: User) -> dict[str, int]:
    """Delete a teacher's account and everything it owns, all or nothing; return counts
    by kind.

    Each session's student data is purged first (an open session is ended, its exports'
    files go once all is committed); then the admin log's entries about the account and
    its rows, and the account with its classes, sessions, decks and lesson wordings (the
    foreign keys cascade)."""
    with transaction.atomic():
        sessions = _model("classroom.ClassSession").objects.filter(school_class__teacher=user)
        for session in sessions.filter(purged_at__isnull=True):
            purge_session(session)
        return _delete_owned(user)


def _delete_owned(user: User) -> dict[str, int]:
    """Delete the account, the admin log's entries about it and all it owns; count them."""
    owned = [
        (get_user_model(), Q(pk=user.pk)),
        (_model("classroom.SchoolClass"), Q(teacher=user)),
        (_model("classroom.ClassSession"), Q(school_class__teacher=user)),
        (_model("classroom.Deck"), Q(teacher=user)),
        (_model("lessons.LessonOverride"), Q(teacher=user)),
    ]
    counts = owned_by(user) | {"log_entries": _delete_log_entries(owned)}
    user.delete()
    return counts


def delete_unused_accounts(account_days: int, now: datetime | None = None) -> int:
    """Delete every teacher account unused for ``account_days``; return how many."""
    deleted = 0
    for user in unused_accounts(account_days, now):
        delete_account(user)
        deleted += 1
    return deleted


def old_log_entries(admin_log_days: int, now: datetime | None = None) -> QuerySet[LogEntry] | None:
    """Return the admin's change-log entries older than ``admin_log_days`` (none without
    the admin app)."""
    if not apps.is_installed("django.contrib.admin"):
        return None
    cutoff = (now or timezone.now()) - timedelta(days=admin_log_days)
    return _model("admin.LogEntry").objects.filter(action_time__lt=cutoff)


def purge_admin_log(admin_log_days: int, now: datetime | None = None) -> int:
    """Delete the admin's change-log entries older than ``admin_log_days``; count them."""
    entries = old_log_entries(admin_log_days, now)
    return entries.delete()[0] if entries is not None else 0


def purge_unused(
    roster_days: int,
    account_days: int,
    admin_log_days: int,
    now: datetime | None = None,
    *,
    backup_days: int | None = None,
) -> dict:
    """Empty the unused rosters, delete the unused accounts, the old admin log entries
    and (given ``backup_days``) the erasure records older than every backup; return the
    counts."""
    counts = {
        "rosters": empty_unused_rosters(roster_days, now),
        "accounts": delete_unused_accounts(account_days, now),
        "log_entries": purge_admin_log(admin_log_days, now),
    }
    if backup_days is not None:
        counts["erasures"] = purge_erasures(backup_days, now)
    return counts
