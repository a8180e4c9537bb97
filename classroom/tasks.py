"""Background work of the classroom app."""

from celery import shared_task
from django.conf import settings

from classroom.retention import purge_expired


@shared_task(name="classroom.tasks.purge_expired_sessions")
def purge_expired_sessions() -> int:
    """Delete student data of sessions ended more than RETENTION_DAYS days ago, and the
    join requests that expired unanswered (JOIN_REQUEST_MINUTES)."""
    return purge_expired(settings.RETENTION_DAYS)


@shared_task(name="classroom.tasks.clear_expired_logins")
def clear_expired_logins() -> None:
    """Delete the teachers' login sessions that have expired (``manage.py clearsessions``).

    Django keeps an expired login's row until it is cleared: without this task, a
    teacher's login record would outlive the two weeks that /privacy/ states.
    """
    from importlib import import_module

    import_module(settings.SESSION_ENGINE).SessionStore.clear_expired()
