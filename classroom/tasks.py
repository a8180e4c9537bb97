"""Background work of the classroom app."""

from importlib import import_module

from celery import shared_task
from django.conf import settings

from classroom.backups import backup_due, make_backup, prune
from classroom.retention import purge_expired, purge_login_attempts, purge_unused


@shared_task(name="classroom.tasks.purge_expired_sessions")
def purge_expired_sessions() -> int:
    """Delete student data of sessions ended more than RETENTION_DAYS days ago, the join
    requests that expired unanswered (JOIN_REQUEST_MINUTES) and the records of failed
    teacher logins older than LOGIN_ATTEMPT_HOURS."""
    purge_login_attempts()
    return purge_expired(settings.RETENTION_DAYS)


@shared_task(name="classroom.tasks.clear_expired_logins")
def clear_expired_logins() -> None:
    """Delete the teachers' login sessions that have expired (``manage.py clearsessions``).

    Django keeps an expired login's row until it is cleared: without this task, a
    teacher's login record would outlive the two weeks that /privacy/ states.
    """
    import_module(settings.SESSION_ENGINE).SessionStore.clear_expired()


@shared_task(name="classroom.tasks.purge_unused_records")
def purge_unused_records() -> dict[str, int]:
    """Empty the rosters of classes unused for ROSTER_DAYS, delete the teacher accounts
    with no login for ACCOUNT_DAYS (with all they own), the admin log's entries older
    than ADMIN_LOG_DAYS and the erasure records older than BACKUP_DAYS."""
    return purge_unused(
        settings.ROSTER_DAYS,
        settings.ACCOUNT_DAYS,
        settings.ADMIN_LOG_DAYS,
        backup_days=settings.BACKUP_DAYS,
    )


@shared_task(name="classroom.tasks.back_up")
def back_up() -> str | None:
    """Back the database up into BACKUP_DIR when a backup is due (beat asks hourly; one
    is due every BACKUP_HOURS) and delete the backups older than BACKUP_DAYS; return the
    new file's name, or None when none was due."""
    made = make_backup() if backup_due() else None
    prune()
    return made.name if made is not None else None
