"""DebriefExport moved to the debrief app: the lessons app lets go of the model in
Django's state only. Its table (lessons_debriefexport) and every row stay where they are;
debrief 0001 takes the model over, on the same table."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("lessons", "0005_link_attributes")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="DebriefExport")],
            database_operations=[],
        ),
    ]
