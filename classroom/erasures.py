"""The record of erasures: what a restored backup must delete again.

A backup (classroom.backups) holds what was deleted after it was made. Every deletion of
a teacher's account, a class, a session or a participant row (on a teacher's page, by
the purge, in the administration pages: a ``post_delete`` receiver) and every purge of
a session's student data is recorded here, by kind and id only; restoring a backup
deletes again whatever the restored database still holds of them. A record is kept
``BACKUP_DAYS``, as long as a backup made before it may still be restored.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Model, QuerySet
from django.db.models.signals import post_delete
from django.utils import timezone

from classroom.models import ClassSession, Erasure, Participant, SchoolClass


def record_erasure(kind: str, object_id: int) -> None:
    """Record that the row ``object_id`` of ``kind`` was erased now (once: erasing the
    same row again keeps the first record's time)."""
    Erasure.objects.get_or_create(kind=kind, object_id=object_id)


def erased_kinds() -> dict[type[Model], str]:
    """Return the models whose deleted rows are recorded, with their kind."""
    return {
        get_user_model(): Erasure.Kind.ACCOUNT,
        SchoolClass: Erasure.Kind.SCHOOL_CLASS,
        ClassSession: Erasure.Kind.SESSION,
        Participant: Erasure.Kind.PARTICIPANT,
    }


def on_row_deleted(sender: type[Model], instance: Model, **kwargs: Any) -> None:
    """Receive ``post_delete``: record the deleted row, in the deletion's transaction."""
    record_erasure(erased_kinds()[sender], instance.pk)


def connect_erasure_receivers() -> None:
    """Record every deletion of the models of ``erased_kinds`` (from the app's ready)."""
    for model in erased_kinds():
        post_delete.connect(on_row_deleted, sender=model, dispatch_uid=f"erasure:{model}")


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
