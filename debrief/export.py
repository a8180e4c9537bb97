"""Run one debrief export: build the report, draw its charts and write its four files,
counting steps.

The Celery task ``debrief.tasks.export_debrief`` calls :func:`run_export`; the views
queue it (``debrief.actions.do_request_export``). Files go to
MEDIA_ROOT/debriefs/<export id>/ and are served only to the session's teacher
(``debrief.views.debrief_file``).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from typing import Any

from django.db.models import F
from django.utils import timezone, translation

from classroom.models import ClassSession
from debrief import data, render
from debrief.actions import FIXED_STEPS
from debrief.files import FILES
from debrief.models import DebriefExport

Status = DebriefExport.Status


def _update(export_id: int, **fields: Any) -> None:
    DebriefExport.objects.filter(pk=export_id).update(**fields)


def run_export(export_id: int, attempt: int = 0, final: bool = True) -> dict | None:
    """Build and write the export's files; record progress, errors and the result.

    ``attempt`` counts from 0; on an error the export goes back to ``queued`` (a retry
    follows) unless ``final``, then ``failed``; the error is re-raised either way.
    """
    export = (
        DebriefExport.objects.select_related("session__school_class__teacher")
        .filter(pk=export_id)
        .first()
    )
    if export is None:  # deleted meanwhile (the teacher deleted the session's data)
        return None
    session = export.session
    total = session.tables.count() + FIXED_STEPS
    _update(export_id, status=Status.RUNNING, attempts=attempt + 1, steps_done=0, steps_total=total)

    def step(_label: str) -> None:
        _update(export_id, steps_done=F("steps_done") + 1)

    try:
        with translation.override(session.language):
            files = write_files(export, session, step)
    except Exception as error:
        _update(
            export_id,
            status=Status.FAILED if final else Status.QUEUED,
            error=f"{type(error).__name__}: {error}"[:2000],
            finished_at=timezone.now() if final else None,
        )
        raise
    if not DebriefExport.objects.filter(pk=export_id).exists():
        # The session's data was deleted while the files were written: leave nothing behind.
        shutil.rmtree(export.folder(), ignore_errors=True)
        return None
    _update(
        export_id,
        status=Status.DONE,
        steps_done=total,
        files=files,
        error="",
        finished_at=timezone.now(),
    )
    return files


def write_files(
    export: DebriefExport, session: ClassSession, step: Callable[[str], object]
) -> dict[str, str]:
    """Write the HTML, PDF, CSV and JSON files; return {format: file name}."""
    folder = export.folder()
    if folder.is_dir():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    report = data.build(session, step)
    render.draw_charts(report)
    step("charts")
    html = render.render_html(report)
    (folder / FILES["html"]).write_text(html, encoding="utf-8")
    step("html")
    render.write_pdf(render.render_html(report, for_pdf=True), folder / FILES["pdf"])
    step("pdf")
    (folder / FILES["csv"]).write_text(render.csv_text(report), encoding="utf-8")
    step("csv")
    (folder / FILES["json"]).write_text(render.json_text(session, report), encoding="utf-8")
    step("json")
    return dict(FILES)
