"""Background work of the debrief app: the export of a session's debrief, and the sweep
of export folders left without their row."""

from celery import Task, shared_task

from debrief import cleanup
from debrief.actions import TASK
from debrief.export import run_export

MAX_RETRIES = 3


@shared_task(
    bind=True,
    name=TASK,
    autoretry_for=(Exception,),
    max_retries=MAX_RETRIES,
    retry_backoff=1,
    retry_backoff_max=30,
    retry_jitter=False,
    acks_late=True,
)
def export_debrief(self: Task, export_id: int) -> dict | None:
    """Export a session's debrief (HTML, PDF, CSV, JSON); retried with backoff, 3 times."""
    retries = self.request.retries
    return run_export(export_id, attempt=retries, final=retries >= MAX_RETRIES)


@shared_task(name="debrief.tasks.sweep_export_folders")
def sweep_export_folders() -> int:
    """Delete the export folders left without their row (daily); return how many."""
    return cleanup.sweep_export_folders()
