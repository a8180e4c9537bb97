"""In Chromium: the teacher switches on "approve each new nickname" from the live
dashboard; a student waits on the "waiting for your teacher" page until let in."""

import pytest
from playwright.sync_api import expect

from tests.browser.classroom import TIMEOUT, teacher_launches

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "Browser-teacher-passw0rd"


@pytest.fixture
def teacher(django_user_model):
    return django_user_model.objects.create_user(username="ms-moderation", password=PASSWORD)


def test_a_student_waits_until_the_teacher_lets_them_in(
    browser, live_server_url, teacher, artifacts_dir
):
    teacher_context = browser.new_context(viewport={"width": 1024, "height": 900}, locale="en-GB")
    page = teacher_context.new_page()
    page.set_default_timeout(TIMEOUT)
    code = teacher_launches(
        page,
        live_server_url,
        username="ms-moderation",
        class_name="Year 8 Moderation",
        game="data_tycoon",
        variant="beginner",
    )
    live_url = page.url.rstrip("/") + "/live/"  # the session page is /teacher/sessions/<pk>/

    student_context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    student = student_context.new_page()
    student.set_default_timeout(TIMEOUT)
    # the teacher switches the rule on from the live dashboard
    page.goto(live_url)
    page.get_by_label("Approve each new nickname").check()
    page.get_by_role("button", name="Save").first.click()
    expect(page.get_by_label("Approve each new nickname")).to_be_checked()

    student.goto(f"{live_server_url}/join/{code}/")
    expect(student.get_by_text("Your teacher approves each new nickname")).to_be_visible()
    student.get_by_label("Nickname").fill("Curious Lynx")
    student.get_by_role("button", name="Join", exact=True).click()
    expect(student.get_by_role("heading", name="Waiting for your teacher")).to_be_visible()
    student.screenshot(path=artifacts_dir / "student-waits-390.png", full_page=True)

    waiting = page.locator(".live-joins")
    expect(waiting).to_contain_text("Curious Lynx")
    expect(waiting).to_contain_text("Chrome")
    page.screenshot(path=artifacts_dir / "dashboard-request-1024.png", full_page=True)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.screenshot(path=artifacts_dir / "dashboard-request-1920.png", full_page=True)
    page.get_by_role("button", name="Let in Curious Lynx").click()
    expect(page.locator(".messages")).to_contain_text("The student is in.")

    expect(student.get_by_role("heading", name="Hello, Curious Lynx!")).to_be_visible()
    student.screenshot(path=artifacts_dir / "student-let-in-390.png", full_page=True)
