"""The debrief app takes over DebriefExport from the lessons app (lessons 0006).

In Django's state only: the table that lessons 0004 created (lessons_debriefexport, named
in the model's Meta.db_table) holds the exports before and after, on a database migrated
from the start as on one that already has exports. Then the model's content type moves
too, so that the admin log's entries and the staff permissions about exports stay
attached to them (a stale content type would take both with it when it is removed).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def _move_content_type(apps, schema_editor, old, new):
    ContentType = apps.get_model("contenttypes", "ContentType")
    types = ContentType.objects.using(schema_editor.connection.alias)
    if not types.filter(app_label=new, model="debriefexport").exists():
        types.filter(app_label=old, model="debriefexport").update(app_label=new)


def to_debrief(apps, schema_editor):
    _move_content_type(apps, schema_editor, "lessons", "debrief")


def to_lessons(apps, schema_editor):
    _move_content_type(apps, schema_editor, "debrief", "lessons")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        # The model leaves the lessons app's state before it enters this one's.
        ("lessons", "0006_move_debrief_export"),
        ("classroom", "0002_tables_seats"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="DebriefExport",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("queued", "queued"),
                                    ("running", "running"),
                                    ("done", "done"),
                                    ("failed", "failed"),
                                ],
                                default="queued",
                                max_length=10,
                                verbose_name="status",
                            ),
                        ),
                        (
                            "steps_done",
                            models.PositiveSmallIntegerField(default=0, verbose_name="steps done"),
                        ),
                        (
                            "steps_total",
                            models.PositiveSmallIntegerField(
                                default=0, verbose_name="steps in all"
                            ),
                        ),
                        (
                            "attempts",
                            models.PositiveSmallIntegerField(default=0, verbose_name="attempts"),
                        ),
                        ("error", models.TextField(blank=True, verbose_name="error")),
                        (
                            "files",
                            models.JSONField(blank=True, default=dict, verbose_name="files"),
                        ),
                        (
                            "created_at",
                            models.DateTimeField(auto_now_add=True, verbose_name="requested at"),
                        ),
                        (
                            "finished_at",
                            models.DateTimeField(blank=True, null=True, verbose_name="finished at"),
                        ),
                        (
                            "requested_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="debrief_exports",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="requested by",
                            ),
                        ),
                        (
                            "session",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="debrief_exports",
                                to="classroom.classsession",
                                verbose_name="session",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "debrief export",
                        "verbose_name_plural": "debrief exports",
                        "db_table": "lessons_debriefexport",
                        "ordering": ["-created_at", "-pk"],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(to_debrief, to_lessons),
    ]
