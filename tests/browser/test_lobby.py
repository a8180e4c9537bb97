"""In Chromium: a teacher opens a session, two students join, the lobby updates live, a kick."""

import re

import pytest
from playwright.sync_api import expect

from classroom.catalogue import available_games
from tests.browser.sockets import assert_no_reconnect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "Browser-teacher-passw0rd"
TIMEOUT = 15_000


@pytest.fixture
def teacher(django_user_model):
    return django_user_model.objects.create_user(username="ms-browser", password=PASSWORD)


def student_joins(browser, base_url, code, nickname):
    """Join from a fresh browser context (its own cookies: another device)."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-GB")
    page = context.new_page()
    page.goto(f"{base_url}/join/")
    page.get_by_label("Game code").fill(code.lower())
    page.get_by_label("Nickname").fill(nickname)
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page.get_by_role("heading", name=f"Hello, {nickname}!")).to_be_visible(timeout=TIMEOUT)
    return context, page


def test_teacher_sees_students_join_live_and_kicks_one(
    browser, live_server_url, teacher, artifacts_dir
):
    if not available_games():
        pytest.fail("no game is registered: the session form cannot launch a session")

    teacher_context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = teacher_context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.on("dialog", lambda dialog: dialog.accept())

    page.goto(f"{live_server_url}/login/")
    page.get_by_label("Username").fill("ms-browser")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="My classes")).to_be_visible()

    page.get_by_role("link", name="New class").first.click()
    page.get_by_label("Name").fill("Year 9 Browser")
    page.get_by_role("button", name="Create the class").click()
    expect(page.get_by_role("heading", name="Year 9 Browser")).to_be_visible()

    page.get_by_role("link", name="Launch a session").click()
    page.get_by_role("button", name="Open the lobby").click()
    code = page.locator(".join-code").inner_text().strip()
    assert re.fullmatch(r"[A-HJKMNP-Z2-9]{6}", code)
    roster = page.locator("#roster")
    expect(roster).to_contain_text("Nobody has joined yet")

    alice_context, alice = student_joins(browser, live_server_url, code, "Alice Fox")
    expect(roster).to_contain_text("Alice Fox")
    bob_context, bob = student_joins(browser, live_server_url, code, "Bob Owl")
    expect(roster).to_contain_text("Bob Owl")
    expect(roster).to_contain_text("2 students")
    # the first student's lobby updated live too
    expect(alice.locator("#lobby-live")).to_contain_text("Bob Owl")
    page.screenshot(path=artifacts_dir / "teacher-lobby.png", full_page=True)

    page.get_by_role("button", name="Remove Bob Owl").click()
    expect(page.locator(".messages")).to_contain_text("Bob Owl was removed")
    expect(bob.get_by_text("You have been removed from this session.")).to_be_visible()
    expect(alice.locator("#lobby-live")).not_to_contain_text("Bob Owl")
    bob.screenshot(path=artifacts_dir / "kicked-student.png", full_page=True)
    # Alice's lobby kept its socket all along; the teacher's page is the one the kick
    # reloaded
    assert_no_reconnect(alice, "Alice")
    assert_no_reconnect(page, "the teacher")

    # the kicked device's next request says so too
    bob.reload()
    removed = bob.get_by_role("heading", name="You have been removed from this session")
    expect(removed).to_be_visible()

    for context in (alice_context, bob_context, teacher_context):
        context.close()
