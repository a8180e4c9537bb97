"""Every main page, teacher's and student's, in Chromium at a phone (360x740, 390x844),
a tablet (1024x768) and a projector (1920x1080), in en, es, fr and ru: before the game,
while it runs, and once the student's table is over (the end screen, the quiz's
questions and result, a lesson's page, the teacher's replay of the table).

On each page and size: no horizontal overflow; on a phone no visible text under 12 px;
the join code on one line; and an accessibility audit (axe-core, through
axe-playwright-python) with no serious or critical violation. A screenshot of every page,
size and language goes to this test's artifacts folder (test-artifacts/<test name>/), to
be looked at.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import expect

from classroom import actions
from classroom.models import ClassSession, Table
from tests.browser.classroom import PASSWORD, TIMEOUT
from tests.browser.screens import (
    LANGUAGES,
    READY,
    VIEWPORTS,
    answer_the_quiz,
    check,
    finish_match,
    log_in,
    screen_session,
    student_joins,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_main_page_at_every_size(language, browser, live_server_url, artifacts_dir):
    teacher = get_user_model().objects.create_user(username="screens", password=PASSWORD)
    session = screen_session(teacher, language)
    axe = Axe()
    problems: list[str] = []
    pages_seen = 0
    student = browser.new_context(locale=language)
    student_joins(student, live_server_url, session.join_code)
    teacher_context = browser.new_context(locale=language)
    teacher_context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server_url}]
    )
    log_in(teacher_context, live_server_url)
    anonymous = browser.new_context(locale=language)

    def visit(stage: dict) -> None:
        nonlocal pages_seen
        for name, (context, path) in stage.items():
            page = context.new_page()
            page.set_default_timeout(TIMEOUT)
            for size, (width, height) in VIEWPORTS.items():
                page.set_viewport_size({"width": width, "height": height})
                page.goto(live_server_url + path)
                expect(page.locator("html")).to_have_attribute("lang", language)
                if name in READY:
                    expect(page.locator(READY[name]).first).to_be_visible()
                check(
                    page,
                    f"{language}-{name}",
                    size,
                    folder=artifacts_dir,
                    problems=problems,
                    axe=axe,
                )
                pages_seen += 1
            page.close()

    visit(
        {
            "home": (anonymous, "/"),
            "login": (anonymous, "/login/"),
            "join": (anonymous, f"/join/{session.join_code}/"),
            "lobby": (student, f"/lobby/{session.join_code}/"),
            "classes": (teacher_context, reverse("classroom:dashboard")),
            "session-form": (
                teacher_context,
                reverse("classroom:session_create", args=[session.school_class_id]),
            ),
            "session": (teacher_context, reverse("classroom:session_detail", args=[session.pk])),
        }
    )
    actions.do_start_session(session)
    table = Table.objects.filter(session=session).first()
    assert table is not None
    visit(
        {
            "play": (student, f"/play/{session.join_code}/"),
            "class": (
                teacher_context,
                reverse("classroom:class_detail", args=[session.school_class_id]),
            ),
            "live": (teacher_context, reverse("live:session_live", args=[session.pk])),
            "projector": (teacher_context, reverse("live:projector", args=[table.pk])),
            "debrief": (teacher_context, reverse("debrief:session", args=[session.pk])),
            "lessons": (teacher_context, reverse("lessons:index")),
            "privacy": (anonymous, reverse("debrief:privacy")),
            "account": (teacher_context, reverse("account")),
            "account-delete": (teacher_context, reverse("account_delete")),
        }
    )
    finish_match(table)
    visit(
        {
            "end": (student, f"/play/{session.join_code}/"),
            "quiz": (student, reverse("lessons:quiz")),
            "lesson": (student, reverse("lessons:detail", args=["transparency"])),
            "replay": (
                teacher_context,
                reverse("debrief:replay", args=[session.pk, table.number]) + "?move=3",
            ),
        }
    )
    result_path, answered = answer_the_quiz(student, live_server_url)
    assert 3 <= answered <= 5
    visit({"quiz-result": (student, result_path)})
    assert ClassSession.objects.get(pk=session.pk).state == ClassSession.State.RUNNING
    for context in (student, teacher_context, anonymous):
        context.close()
    assert pages_seen == 21 * len(VIEWPORTS)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
