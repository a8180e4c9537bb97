"""Admin for the debrief exports: staff see each export's progress, files and error."""

from django.contrib import admin

from debrief.models import DebriefExport


@admin.register(DebriefExport)
class DebriefExportAdmin(admin.ModelAdmin):
    list_display = ["id", "session", "status", "steps_done", "steps_total", "created_at"]
    list_filter = ["status"]
    readonly_fields = ["files", "error", "attempts", "created_at", "finished_at"]
