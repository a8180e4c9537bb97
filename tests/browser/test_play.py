"""In Chromium, on the live server: a teacher starts a Data-Tycoon session with bots; two
students on two devices and one bot play a whole game by clicking until the ranking.

Everything is real: the ASGI server, the Redis channel layer, the Celery worker that
plays the bot and fires the timers. The students click the page's controls with a
simple policy (answer a prompt, else build, else choose the first playable hand card
and its first play); the beginner variant keeps the game short. Screenshots: a
student's view at 360x740 and the projector at 1280x720, under test-artifacts/.
"""

import os
import time
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Page, expect

from games.matches import load_state
from games.models import Match
from tests.browser.classroom import (
    PASSWORD,
    TIMEOUT,
    play_one_step,
    reach_the_table,
    student_joins,
    teacher_launches,
)
from tests.browser.sockets import assert_no_reconnect

# Read by the child services (uvicorn, the Celery worker) when the session starts them.
os.environ.setdefault("BOT_DELAY_SECONDS", "0.05")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAME_SECONDS = 240


@pytest.fixture
def teacher(django_user_model):
    return django_user_model.objects.create_user(username="ms-play", password=PASSWORD)


def is_over(page: Page) -> bool:
    return page.locator(".panel--end").count() > 0


def open_projector(browser, teacher_context, teacher_page, base_url):
    """From the live tables, open the table's projector view in a 1280x720 window."""
    teacher_page.get_by_role("link", name="Live tables").click()
    link = teacher_page.get_by_role("link", name="Projector view").first
    expect(link).to_be_visible()
    context = browser.new_context(
        viewport={"width": 1280, "height": 720},
        locale="en-GB",
        storage_state=teacher_context.storage_state(),
    )
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(base_url + link.get_attribute("href"))
    expect(page.locator(".board > section").first).to_be_visible()
    return context, page


def play_until_over(students, after_clicks, clicks_before_callback=20):
    """Let both students click until both see the end; call after_clicks() once midway."""
    deadline = time.monotonic() + GAME_SECONDS
    clicks, called = 0, False
    while not all(is_over(page) for page in students):
        assert time.monotonic() < deadline, f"the game did not end in {GAME_SECONDS} s"
        moved = False
        for page in students:
            if not is_over(page) and play_one_step(page):
                moved = True
                clicks += 1
        if clicks >= clicks_before_callback and not called:
            after_clicks()
            called = True
        if not moved:
            students[0].wait_for_timeout(100)
    if not called:
        after_clicks()
    return clicks


def test_two_students_and_a_bot_play_a_game_by_clicking(
    browser, live_server_url, celery_worker, teacher, artifacts_dir
):
    teacher_context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    teacher_page = teacher_context.new_page()
    teacher_page.set_default_timeout(TIMEOUT)
    teacher_page.on("dialog", lambda dialog: dialog.accept())
    code = teacher_launches(
        teacher_page,
        live_server_url,
        username="ms-play",
        class_name="Year 10 Play",
        game="data_tycoon",
        variant="beginner",
    )

    contexts, students, errors, requested = [], [], [], []
    for nickname in ("Alice Fox", "Bob Owl"):
        context, page = student_joins(browser, live_server_url, code, nickname)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("request", lambda request: requested.append(request.url))
        contexts.append(context)
        students.append(page)

    teacher_page.get_by_role("button", name="Start").click()
    for page in students:
        reach_the_table(page, code)
        # two opponents (the other student and the bot), and the student's own hand
        expect(page.locator(".panel--player")).to_have_count(2)
        expect(page.locator(".panel--hand")).to_be_visible()

    projector_context, projector = open_projector(
        browser, teacher_context, teacher_page, live_server_url
    )
    expect(projector.locator(".panel--player")).to_have_count(3)
    expect(projector.locator(".panel--hand")).to_have_count(0)

    def screenshots():
        students[0].evaluate("window.scrollTo(0, 0)")
        students[0].screenshot(path=artifacts_dir / "student-360x740.png")
        projector.screenshot(path=artifacts_dir / "projector-1280x720.png")

    clicks = play_until_over(students, screenshots)
    assert clicks > 10

    match = Match.objects.get()
    result = load_state(match).result()
    assert result is not None
    # both students' clicks and the bot's moves are in the match's log
    seats = list(match.table.seats.order_by("number"))
    assert sorted(seat.display_name for seat in seats if seat.participant_id) == [
        "Alice Fox",
        "Bob Owl",
    ]
    assert [seat.bot_kind for seat in seats if not seat.participant_id] == ["heuristic"]
    for seat in seats:
        assert match.actions.filter(seat=seat.number).exists(), f"{seat.display_name} never moved"
    for page in (*students, projector):
        expect(page.locator(".panel--end")).to_be_visible()
        expect(page.locator(".ranking tbody tr")).to_have_count(3)
        decided = page.locator(".end__decided")
        expect(decided).to_have_attribute("data-decided-by", result["decided_by"])
        expect(decided).not_to_be_empty()
    students[0].evaluate("window.scrollTo(0, 0)")
    students[0].screenshot(path=artifacts_dir / "student-end-360x740.png")
    projector.screenshot(path=artifacts_dir / "projector-end-1280x720.png")
    assert errors == []
    # every socket stayed up the whole game: a reconnect means the server dropped it
    assert_no_reconnect(students[0], "Alice")
    assert_no_reconnect(students[1], "Bob")
    assert_no_reconnect(projector, "the projector")
    assert_no_reconnect(teacher_page, "the teacher's live tables")
    # students are minors: the game page loads nothing from anywhere else
    own = urlparse(live_server_url).netloc
    assert [url for url in requested if urlparse(url).netloc not in {own, ""}] == []
    for context in (*contexts, projector_context, teacher_context):
        context.close()
