"""In Chromium at 390 px: a student reads How to play in the lobby, then opens it in the
game with the keyboard behind the "?" button and reads the goal. Screenshots under
test-artifacts/."""

import os

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from tests.browser.classroom import (
    PASSWORD,
    TIMEOUT,
    reach_the_table,
    student_joins,
    teacher_launches,
)

os.environ.setdefault("BOT_DELAY_SECONDS", "0.05")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GOAL = "Build the most Data-Treasures."


@pytest.fixture
def teacher(django_user_model):
    return django_user_model.objects.create_user(username="ms-rules", password=PASSWORD)


def assert_accessible(page: Page) -> None:
    """No serious or critical axe-core violation (as tests/browser/test_screens.py)."""
    violations = [
        f"{v['id']} ({v['impact']}) {[n['target'] for n in v['nodes']]}"
        for v in Axe().run(page).response["violations"]
        if v["impact"] in {"serious", "critical"}
    ]
    assert not violations, violations


def assert_no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.viewport_size
    assert viewport is not None
    assert width <= viewport["width"], width


def test_a_student_reads_the_goal_in_the_lobby_and_behind_the_question_mark(
    browser, live_server_url, celery_worker, teacher, artifacts_dir
):
    teacher_context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    teacher_page = teacher_context.new_page()
    teacher_page.set_default_timeout(TIMEOUT)
    code = teacher_launches(
        teacher_page,
        live_server_url,
        username="ms-rules",
        class_name="Year 7 Rules",
        game="data_tycoon",
        variant="beginner",
    )
    context, page = student_joins(browser, live_server_url, code, "Alice Fox", viewport=(390, 844))

    # the lobby: open while waiting
    rules = page.locator("details.how-to-play")
    expect(rules).to_have_attribute("open", "")
    expect(rules.get_by_role("heading", name="The goal")).to_be_visible()
    expect(rules.get_by_text(GOAL)).to_be_visible()
    assert_no_sideways_scroll(page)
    assert_accessible(page)
    page.screenshot(path=artifacts_dir / "lobby-how-to-play-390.png", full_page=True)

    teacher_page.get_by_role("button", name="Start").click()
    reach_the_table(page, code)
    toggle = page.locator("summary.how-to-play__toggle")
    expect(toggle).to_be_visible()
    expect(page.get_by_text(GOAL)).to_be_hidden()  # closed: the board comes first
    box = toggle.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44  # a finger-sized target

    # the keyboard opens it: the "?" is named for a screen reader
    toggle.focus()
    page.keyboard.press("Enter")
    panel = page.get_by_role("region", name="How to play")
    expect(panel).to_be_visible()
    expect(panel.get_by_text(GOAL)).to_be_visible()
    name = page.evaluate(
        "document.querySelector('summary.how-to-play__toggle').innerText"
        " + '|' + document.querySelector('summary.how-to-play__toggle .visually-hidden')"
        ".textContent"
    )
    assert name.endswith("|How to play"), name
    size = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.how-to-play__body p')).fontSize)"
    )
    assert size >= 12
    assert_no_sideways_scroll(page)
    assert_accessible(page)
    page.screenshot(path=artifacts_dir / "play-how-to-play-390.png", full_page=True)

    page.keyboard.press("Enter")  # and closes it again
    expect(panel).to_be_hidden()
    context.close()
    teacher_context.close()
