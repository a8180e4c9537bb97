"""Forget the e-mail addresses teachers gave at sign-up: the platform never used them (it
sends no e-mail) and no longer asks for one. Administrators' accounts keep theirs."""

from django.apps.registry import Apps
from django.conf import settings
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def forget_teacher_emails(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Blank the e-mail address of every account but the administrators'."""
    app_label, model_name = settings.AUTH_USER_MODEL.split(".")
    users = apps.get_model(app_label, model_name).objects.using(schema_editor.connection.alias)
    users.filter(is_staff=False, is_superuser=False).exclude(email="").update(email="")


class Migration(migrations.Migration):
    dependencies = [
        ("classroom", "0007_decks"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(forget_teacher_emails, migrations.RunPython.noop)]
