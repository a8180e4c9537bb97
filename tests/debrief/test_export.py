"""The export runs through a real Celery worker: progress, files, retries, access."""

import csv
import io
import json
import shutil
import time
from pathlib import Path

import pytest
from django.http import StreamingHttpResponse
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from classroom import actions
from classroom.models import ClassSession
from config.celery import app
from debrief import render
from debrief.models import DebriefExport

pytestmark = pytest.mark.services

SECTIONS = [
    "Summary",
    "GDPR concepts that came up",
    "Score progression",
    "What happened at each table",
    "Quiz results",
    "Discussion prompts",
    "Glossary of GDPR articles",
]


def block_folder(export: DebriefExport) -> Path:
    """Put a file where the export's folder goes, so that writing its files fails."""
    folder = export.folder()
    shutil.rmtree(folder, ignore_errors=True)  # a folder another test left with this id
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.write_text("in the way")
    return folder


def wait_for(export_id: int, timeout: float = 90) -> DebriefExport:
    """Wait until the export is done or failed for good; return it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        export = DebriefExport.objects.get(pk=export_id)
        if export.is_finished:
            return export
        time.sleep(0.2)
    raise AssertionError(f"export {export_id} still {export.status} after {timeout} s")


def request_export(client: Client, session: ClassSession) -> DebriefExport:
    """Click "Export debrief" (POST); return the export the redirect names."""
    response = client.post(reverse("debrief:session", args=[session.pk]))
    assert response.status_code == 302
    export = DebriefExport.objects.get(session=session)
    assert response["Location"] == reverse("debrief:status", args=[export.pk])
    return export


def download(client: Client, export: DebriefExport, fmt: str) -> bytes:
    response = client.get(reverse("debrief:file", args=[export.pk, fmt]))
    assert response.status_code == 200, fmt
    assert isinstance(response, StreamingHttpResponse)
    assert response["Cache-Control"] == "private, no-store"
    return b"".join(response.streaming_content)


@pytest.mark.usefixtures("transactional_db", "celery_worker", "clean_exports")
def test_export_through_a_real_worker(recorded, client_a, client_b):
    export = request_export(client_a, recorded)
    assert export.steps_total == 3 + 8
    export = wait_for(export.pk)
    assert export.status == "done", export.error
    assert export.steps_done == export.steps_total and export.attempts == 1
    assert set(export.files) == {"html", "pdf", "csv", "json"}
    assert export.folder().is_dir()

    fragment = client_a.get(reverse("debrief:progress", args=[export.pk]))
    text = fragment.content.decode()
    assert "Download the PDF" in text and "hx-trigger" not in text  # polling stops

    pdf = download(client_a, export, "pdf")
    assert pdf.startswith(b"%PDF")
    reader = PdfReader(io.BytesIO(pdf))
    pdf_text = " ".join(page.extract_text() for page in reader.pages)
    for heading in SECTIONS:
        assert heading in pdf_text, heading
    assert "Table 3" in pdf_text
    assert len(reader.pages) >= 5

    html = download(client_a, export, "html").decode()
    assert html.count("<svg ") >= 2 + 3  # concepts, articles, one per table
    for heading in SECTIONS:
        assert heading in html
    assert reverse("debrief:replay", args=[recorded.pk, 1]) in html

    rows = list(csv.reader(io.StringIO(download(client_a, export, "csv").decode())))
    assert rows[0][:3] == render.CSV_FIRST and rows[0][-2:] == render.CSV_LAST
    assert len(rows) == 11

    raw = json.loads(download(client_a, export, "json"))
    assert {"session", "tables", "lesson_moments", "quizzes", "quiz_answers"} <= set(raw)

    # Never to another teacher, never without a login.
    for fmt in ("html", "pdf", "csv", "json"):
        url = reverse("debrief:file", args=[export.pk, fmt])
        assert client_b.get(url).status_code == 404
    anonymous = client_a.__class__().get(reverse("debrief:file", args=[export.pk, "pdf"]))
    assert anonymous.status_code == 302


# The last retry's error is the worker's to log: the test blocks every attempt.
@pytest.mark.expected_log_errors(
    r"Task debrief\.tasks\.export_debrief\[.*\] raised unexpected: FileExistsError"
)
@pytest.mark.usefixtures("transactional_db", "celery_worker", "clean_exports")
def test_a_failed_export_is_retried_and_its_error_shown(recorded, teacher_a, client_a):
    export = DebriefExport.objects.create(session=recorded, requested_by=teacher_a, steps_total=11)
    folder = block_folder(export)  # every attempt fails
    try:
        app.send_task("debrief.tasks.export_debrief", args=[export.pk])
        export = wait_for(export.pk, timeout=60)
    finally:
        folder.unlink()
    assert export.status == "failed"
    assert export.attempts == 4  # the first run and 3 retries
    assert "Error" in export.error or "exists" in export.error
    page = client_a.get(reverse("debrief:status", args=[export.pk])).content.decode()
    assert "The export failed after 4 attempts." in page
    assert export.error.split(":")[0] in page


@pytest.mark.usefixtures("transactional_db", "celery_worker", "clean_exports")
def test_a_retry_can_succeed(recorded, teacher_a):
    export = DebriefExport.objects.create(session=recorded, requested_by=teacher_a, steps_total=11)
    folder = block_folder(export)
    app.send_task("debrief.tasks.export_debrief", args=[export.pk])
    deadline = time.monotonic() + 30
    while DebriefExport.objects.get(pk=export.pk).attempts < 1 or (
        DebriefExport.objects.get(pk=export.pk).status != "queued"
    ):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    folder.unlink()  # the next attempt (1 s later) finds the way clear
    export = wait_for(export.pk)
    assert export.status == "done"
    assert export.attempts >= 2 and export.error == ""


def test_lobby_session_cannot_be_exported(transactional_db, teacher_a, client_a):
    school_class = actions.do_create_class(teacher_a, "6C")
    session = actions.do_create_session(
        school_class,
        game="data_tycoon",
        variant="expert",
        language="en",
        table_size=4,
        bots_fill=True,
    )
    response = client_a.post(reverse("debrief:session", args=[session.pk]))
    assert response.status_code == 302
    assert not DebriefExport.objects.filter(session=session).exists()
