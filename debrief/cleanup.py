"""What goes with a debrief export's row: its files (MEDIA_ROOT/debriefs/<export id>/).

Connected to ``post_delete`` in ``DebriefConfig.ready()``, so that the files go however
the row goes: the teacher deletes the session's data, the retention purge, the admin, or
a session's deletion (the foreign key cascades), once the deletion is committed (a
deletion rolled back keeps its files). A worker may still be writing an
export's files when its row goes (a deletion not yet committed when the worker last
looked): ``sweep_export_folders``, daily, deletes any folder left without its row.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.apps import apps
from django.conf import settings
from django.db import transaction

if TYPE_CHECKING:
    from debrief.models import DebriefExport


def delete_export_files(
    sender: type[DebriefExport], instance: DebriefExport, **kwargs: Any
) -> None:
    """Remove an export's files with its row, once its deletion is committed."""
    folder = instance.folder()
    transaction.on_commit(lambda: shutil.rmtree(folder, ignore_errors=True))


def sweep_export_folders() -> int:
    """Delete the export folders whose row is gone; return how many."""
    root = Path(settings.MEDIA_ROOT) / "debriefs"
    if not root.is_dir():
        return 0
    # The folders first, then their rows: a folder is made after its row is committed,
    # so every folder listed whose row exists has it in the answer that follows.
    folders = [entry for entry in root.iterdir() if entry.is_dir()]
    names = [int(entry.name) for entry in folders if entry.name.isdigit()]
    # (the model from the registry: apps.py imports this module before models are ready)
    rows = apps.get_model("debrief", "DebriefExport").objects.filter(pk__in=names)
    kept = {str(pk) for pk in rows.values_list("pk", flat=True)}
    orphans = [entry for entry in folders if entry.name not in kept]
    for entry in orphans:
        shutil.rmtree(entry, ignore_errors=True)
    return len(orphans)
