"""The purge of student data, directly and through a real Celery worker."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from classroom import actions
from classroom.identity import new_device_id
from classroom.models import ClassSession, Participant
from classroom.retention import purge_expired
from classroom.tasks import purge_expired_sessions
from config.celery import app
from tests.classroom.conftest import open_session


def ended_days_ago(session, days):
    actions.do_end_session(session)
    ClassSession.objects.filter(pk=session.pk).update(
        ended_at=timezone.now() - timedelta(days=days)
    )


def three_sessions(school_class):
    """An old finished session, a recent finished one and an open one, two students each."""
    sessions = {}
    for label in ("old", "recent", "open"):
        session = open_session(school_class)
        # Rows written directly: no join broadcast, which this test is not about.
        for nickname in ("Sam", "Robin"):
            Participant.objects.create(
                session=session,
                nickname=nickname,
                nickname_key=nickname.casefold(),
                device_id=new_device_id(),
            )
        sessions[label] = session
    ended_days_ago(sessions["old"], settings.RETENTION_DAYS + 1)
    ended_days_ago(sessions["recent"], settings.RETENTION_DAYS - 1)
    return sessions


def assert_only_old_purged(sessions):
    assert not Participant.objects.filter(session=sessions["old"]).exists()
    assert Participant.objects.filter(session=sessions["recent"]).count() == 2
    assert Participant.objects.filter(session=sessions["open"]).count() == 2
    sessions["old"].refresh_from_db()
    sessions["recent"].refresh_from_db()
    assert sessions["old"].purged_at is not None
    assert sessions["recent"].purged_at is None


@pytest.mark.django_db
def test_purge_deletes_only_expired_student_data(school_class):
    sessions = three_sessions(school_class)
    assert purge_expired(settings.RETENTION_DAYS) == 2
    assert_only_old_purged(sessions)
    assert purge_expired(settings.RETENTION_DAYS) == 0


def test_beat_schedule_names_the_task():
    names = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert purge_expired_sessions.name in names


@pytest.mark.services
def test_purge_runs_in_a_real_worker(transactional_db, celery_worker, school_class):
    sessions = three_sessions(school_class)
    # Sent through the platform's Celery app (its broker and result backend on Redis).
    result = app.send_task(purge_expired_sessions.name)
    assert result.get(timeout=60) == 2
    assert_only_old_purged(sessions)
