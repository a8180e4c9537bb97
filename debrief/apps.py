"""The debrief app's configuration: an export's files go with its row, and the retention
purge deletes a session's exports with the rest of its student data."""

from django.apps import AppConfig
from django.db.models.signals import post_delete
from django.utils.translation import gettext_lazy as _

from debrief.cleanup import delete_export_files


class DebriefConfig(AppConfig):
    name = "debrief"
    verbose_name = _("Debrief")

    def ready(self) -> None:
        # The sender as a label: apps.py imports no model (the registry is not ready yet).
        post_delete.connect(
            delete_export_files,
            sender="debrief.DebriefExport",
            dispatch_uid="debrief.delete_export_files",
        )
        # Django's idiom: a module that imports models is imported once the apps are ready.
        from classroom import retention

        retention.register_student_data("debrief_exports", "debrief.DebriefExport", "session")
