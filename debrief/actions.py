"""What a teacher asks of the debrief app: an export of a session's debrief, queued.

The Celery task ``debrief.tasks.export_debrief`` runs it (``debrief.export``). This
module imports none of the report's building and drawing: the web server, which queues
exports, does not load them.
"""

from celery import current_app
from django.contrib.auth.models import User
from django.db import transaction

from classroom.models import ClassSession
from debrief.models import DebriefExport

# Sent by name: the web server does not import the task's module.
TASK = "debrief.tasks.export_debrief"
# Steps besides one per table: summary, concepts, quiz and prompts, charts, then the
# four files.
FIXED_STEPS = 8


def do_request_export(session: ClassSession, teacher: User) -> DebriefExport:
    """Queue a debrief export of the session; the task starts once the row is committed."""
    export = DebriefExport.objects.create(
        session=session,
        requested_by=teacher,
        steps_total=session.tables.count() + FIXED_STEPS,
    )
    transaction.on_commit(lambda: current_app.send_task(TASK, args=[export.pk]))
    return export
