"""In Chromium: the teacher exports a session's debrief, watches it progress, gets the PDF."""

import re
import shutil

import pytest
from playwright.sync_api import expect

from debrief.models import DebriefExport
from tests.debrief.recorded import record_session

pytestmark = [pytest.mark.browser, pytest.mark.services, pytest.mark.django_db(transaction=True)]

PASSWORD = "Browser-teacher-passw0rd"
TIMEOUT = 15_000


@pytest.fixture
def teacher(django_user_model):
    return django_user_model.objects.create_user(username="ms-debrief", password=PASSWORD)


@pytest.mark.usefixtures("celery_worker")
def test_teacher_exports_the_debrief_and_downloads_the_pdf(
    browser, live_server_url, teacher, artifacts_dir
):
    session = record_session(teacher, students=6, table_size=3, seed=21)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{live_server_url}/login/")
    page.get_by_label("Username").fill("ms-debrief")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="My classes")).to_be_visible()

    page.goto(f"{live_server_url}{session.get_absolute_url()}")
    page.get_by_role("button", name="Export debrief").click()
    expect(page.get_by_role("heading", name="Debrief export")).to_be_visible()
    progress = page.locator("#debrief-progress progress")
    expect(progress).to_be_visible()
    total = 2 + 8  # two tables, then the fixed steps
    expect(progress).to_have_attribute("max", str(total))
    # htmx polls every second until the last step is done.
    status = page.get_by_role("status")
    expect(status).to_contain_text(f"Done: step {total} of {total}", timeout=60_000)
    expect(progress).to_have_attribute("value", str(total))
    page.screenshot(path=artifacts_dir / "debrief-done.png", full_page=True)

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download the PDF").click()
    download = download_info.value
    assert re.fullmatch(r"debrief-[A-Z0-9]{6}-\d+\.pdf", download.suggested_filename)
    target = artifacts_dir / download.suggested_filename
    download.save_as(target)
    assert target.read_bytes().startswith(b"%PDF")

    # The HTML report opens in the browser, with its charts, and links to the replay.
    page.get_by_role("link", name="Open the report").click()
    expect(page.get_by_role("heading", name="Discussion prompts")).to_be_visible()
    assert page.locator("svg.chart").count() >= 3
    page.screenshot(path=artifacts_dir / "debrief-report.png", full_page=True)
    page.get_by_role("link", name="Replay this match move by move").first.click()
    _step_through_the_replay(page, artifacts_dir)
    context.close()


def _step_through_the_replay(page, artifacts_dir):
    """Move the replay by its links and its slider; a folded deck stays as it was left."""
    expect(page.get_by_role("heading", name="Replay of table 1")).to_be_visible()
    page.get_by_role("link", name="Next").click()
    expect(page.locator("label[for=move-slider]")).to_have_text(re.compile(r"Move 1 of \d+"))
    # htmx wires the swapped-in slider once the swap has settled.
    page.wait_for_function("() => !document.querySelector('.htmx-settling, .htmx-swapping')")
    page.locator("#move-slider").fill("12")  # the slider moves the replay at once
    expect(page.locator("label[for=move-slider]")).to_have_text(re.compile(r"Move 12 of \d+"))
    expect(page.locator("#replay-move")).to_contain_text("Move 12, by")
    assert page.url.endswith("?move=12")
    # the folded deck stays open from move to move once the teacher opened it, and
    # folded once closed again
    deck = page.locator("details.replay-face-down")
    expect(deck).not_to_have_attribute("open", "")
    deck.locator("summary").click()
    expect(deck).to_have_attribute("open", "")
    page.get_by_role("link", name="Previous").click()
    expect(page.locator("label[for=move-slider]")).to_have_text(re.compile(r"Move 11 of \d+"))
    expect(deck).to_have_attribute("open", "")
    expect(deck.locator("summary")).to_be_visible()
    page.screenshot(path=artifacts_dir / "debrief-replay.png", full_page=True)
    deck.locator("summary").click()
    page.get_by_role("link", name="Next").click()
    expect(page.locator("label[for=move-slider]")).to_have_text(re.compile(r"Move 12 of \d+"))
    expect(deck).not_to_have_attribute("open", "")


@pytest.fixture(autouse=True)
def _remove_export_files(transactional_db):
    """Remove the files this test's exports wrote (the worker writes under var/media/)."""
    yield
    for export in DebriefExport.objects.all():
        shutil.rmtree(export.folder(), ignore_errors=True)
