"""Load the shipped lesson content (fixtures/lessons/) into a fresh database."""

from django.db import migrations


def load_content(apps, schema_editor):
    from lessons import content

    content.load(apps.get_model, using=schema_editor.connection.alias)


class Migration(migrations.Migration):
    dependencies = [("lessons", "0001_initial")]

    operations = [migrations.RunPython(load_content, migrations.RunPython.noop)]
