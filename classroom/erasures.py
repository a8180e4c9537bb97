"""The record of erasures: what a restored backup must delete again.

A backup (classroom.backups) holds what was deleted after it was made. Each deletion a
teacher (or the purge) makes of an account, a class or a session's student data is
recorded here, by kind and id only; restoring a backup deletes again whatever the
restored database still holds of them. A record is kept ``BACKUP_DAYS``, as long as a
backup made before it may still be restored.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import QuerySet
from django.utils import timezone

from classroom.models import Erasure


def record_erasure(kind: Erasure.Kind, object_id: int) -> None:
    """Record that the row ``object_id`` of ``kind`` was deleted now (once: a second
    deletion of the same row keeps the first record's time)."""
    Erasure.objects.get_or_create(kind=kind, object_id=object_id)


def erasures_since(when: datetime) -> list[Erasure]:
    """Return the erasures recorded at or after ``when``, oldest first."""
    return list(Erasure.objects.filter(erased_at__gte=when).order_by("erased_at", "pk"))


def old_erasures(backup_days: int, now: datetime | None = None) -> QuerySet[Erasure]:
    """Return the records older than ``backup_days``: every backup made before them is
    deleted by then (``classroom.backups.prune``)."""
    cutoff = (now or timezone.now()) - timedelta(days=backup_days)
    return Erasure.objects.filter(erased_at__lt=cutoff)


def purge_erasures(backup_days: int, now: datetime | None = None) -> int:
    """Delete the records older than ``backup_days``; return how many."""
    return old_erasures(backup_days, now).delete()[0]
