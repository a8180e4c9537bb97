"""Background work of the classroom app."""

from celery import shared_task
from django.conf import settings

from classroom.retention import purge_expired


@shared_task(name="classroom.tasks.purge_expired_sessions")
def purge_expired_sessions() -> int:
    """Delete student data of sessions ended more than RETENTION_DAYS days ago."""
    return purge_expired(settings.RETENTION_DAYS)
