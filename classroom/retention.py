"""Retention of student data, privacy by design.

A session's student data is deleted ``RETENTION_DAYS`` after the session ends (Celery
beat runs ``classroom.tasks.purge_expired_sessions`` hourly), or at once when its
teacher asks. Deleted: the participants (nicknames, device ids, hashed network
addresses, device changes), the join requests that waited for the teacher, the
tables, seats and matches with their action logs, timers and pause holds, the lesson moments, the
quizzes and quiz answers, what other apps register here (the debrief exports with
their files), and the admin log's entries about any of these (a staff edit in the Django
admin records the object's name, a nickname for a participant). Kept: the session row
itself (game, variant, dates) with ``purged_at`` set, and the teacher's account.

A join request the teacher left unanswered expires ``JOIN_REQUEST_MINUTES`` after it was
made (it leaves the dashboard at once, and its device may ask again); the same hourly
task deletes it, whether the session is still open or not.
"""

from __future__ import annotations

from datetime import timedelta

from django.apps import apps
from django.conf import settings
from django.db import transaction
from django.db.models import CharField, Q
from django.db.models.functions import Cast
from django.utils import timezone


def _model(label: str):
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


def purge_session(session) -> dict[str, int]:
    """Delete every piece of one session's student data now; return counts by kind.

    An open session is ended first, so that no table keeps playing on deleted data.
    """
    from classroom.actions import do_end_session

    ClassSession = _model("classroom.ClassSession")
    if session.state != ClassSession.State.FINISHED:
        session = do_end_session(session)
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


def _delete_admin_log(session) -> int:
    """Delete the admin log's entries about the session's student data; return how many."""
    if not apps.is_installed("django.contrib.admin"):
        return 0
    from django.contrib.admin.models import LogEntry
    from django.contrib.contenttypes.models import ContentType

    about = Q(pk__in=[])
    for label, lookup in [*STUDENT_DATA.items(), *REGISTERED.values()]:
        model = _model(label)
        ids = (
            model.objects.filter(**{lookup: session})
            .annotate(text_pk=Cast("pk", CharField()))
            .values("text_pk")
        )
        content_type = ContentType.objects.get_for_model(model)
        about |= Q(content_type=content_type, object_id__in=ids)
    deleted, _detail = LogEntry.objects.filter(about).delete()
    return deleted


def _delete(model, **lookup) -> int:
    """Delete the model's rows matching ``lookup`` (cascades included); count the model's own."""
    _total, detail = model.objects.filter(**lookup).delete()
    return detail.get(model._meta.label, 0)


def expired_sessions(retention_days: int, now=None):
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


def purge_expired_join_requests(now=None) -> int:
    """Delete the join requests that expired unanswered (marked expired, or pending for
    longer than JOIN_REQUEST_MINUTES), with the admin log's entries about them; count them.

    A refused request stays until its session is purged: it keeps its device out.
    """
    JoinRequest = _model("classroom.JoinRequest")
    expired = JoinRequest.objects.filter(
        Q(status=JoinRequest.Status.EXPIRED)
        | Q(status=JoinRequest.Status.PENDING, created_at__lt=JoinRequest.expiry_cutoff(now))
    )
    with transaction.atomic():
        if apps.is_installed("django.contrib.admin"):
            from django.contrib.admin.models import LogEntry
            from django.contrib.contenttypes.models import ContentType

            ids = expired.annotate(text_pk=Cast("pk", CharField())).values("text_pk")
            LogEntry.objects.filter(
                content_type=ContentType.objects.get_for_model(JoinRequest), object_id__in=ids
            ).delete()
        return _delete(JoinRequest, pk__in=list(expired.values_list("pk", flat=True)))


def purge_login_attempts(now=None) -> int:
    """Delete the records of failed teacher logins older than LOGIN_ATTEMPT_HOURS; return
    how many went (django-axes keeps them to count wrong passwords)."""
    now = now or timezone.now()
    cutoff = now - timedelta(hours=settings.LOGIN_ATTEMPT_HOURS)
    attempts = apps.get_model("axes", "AccessAttempt").objects.filter(attempt_time__lt=cutoff)
    return attempts.delete()[0]


def purge_expired(retention_days: int, now=None) -> int:
    """Purge every expired session's student data and every expired join request; return
    how many participants went."""
    purge_expired_join_requests(now)
    deleted = 0
    for session in expired_sessions(retention_days, now):
        deleted += purge_session(session)["participants"]
    return deleted
