"""What goes with a debrief export's row: its files (MEDIA_ROOT/debriefs/<export id>/).

Connected to ``post_delete`` in ``DebriefConfig.ready()``, so that the files go however
the row goes: the teacher deletes the session's data, the retention purge, the admin, or
a session's deletion (the foreign key cascades).
"""

import shutil


def delete_export_files(sender, instance, **kwargs):
    """Remove an export's files with its row."""
    shutil.rmtree(instance.folder(), ignore_errors=True)
