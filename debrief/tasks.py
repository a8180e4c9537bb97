"""Background work of the debrief app: the export of a session's debrief."""

from celery import shared_task

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
def export_debrief(self, export_id: int):
    """Export a session's debrief (HTML, PDF, CSV, JSON); retried with backoff, 3 times."""
    retries = self.request.retries
    return run_export(export_id, attempt=retries, final=retries >= MAX_RETRIES)
