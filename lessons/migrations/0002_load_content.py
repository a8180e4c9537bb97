"""Load the shipped lesson content (fixtures/lessons/) into a fresh database.

Nothing to do here any more: the lessons app's post_migrate handler loads the content
into the final schema after every migrate (``lessons.content.refresh_content``); loading
it here, into this early schema, would break as soon as a later migration changes a
model the loader fills.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("lessons", "0001_initial")]

    operations = [migrations.RunPython(migrations.RunPython.noop, migrations.RunPython.noop)]
