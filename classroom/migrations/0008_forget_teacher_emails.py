"""Forget the e-mail addresses teachers gave at sign-up: the platform never used them (it
sends no e-mail) and no longer asks for one. Administrators' accounts keep theirs."""

from django.conf import settings
from django.db import migrations


def forget_teacher_emails(apps, schema_editor) -> None:
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
