"""The Content-Security-Policy: every main page, teacher's and student's, loads in
Chromium with the strict policy (no inline script, no inline event handler, no inline
style, nothing from another origin) and without a single violation."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Response, expect

from classroom import actions
from classroom.catalogue import available_games
from classroom.models import Table
from lessons.models import Lesson
from tests.browser.classroom import PASSWORD, TIMEOUT
from tests.browser.screens import answer_the_quiz, finish_match, log_in, student_joins

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Collects every violation the page reports, from before its first script runs.
LISTEN = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  const where = `${event.sourceFile}:${event.lineNumber}`;
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI} ${where}`);
});
"""
# What shows that a page drew what it is checked for (a board draws from its socket).
READY = {"play": ".board > section", "projector": ".board > section", "lesson": "main h1"}


def watched(
    browser: Browser, base_url: str, problems: list[str], seen: list[str]
) -> BrowserContext:
    """A browser context whose pages report CSP violations (events and console) into
    ``problems`` and the policy of each page they load into ``seen``."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    context.add_init_script(LISTEN)

    def console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            problems.append(f"console: {message.text}")

    def response(answer: Response) -> None:
        if answer.request.resource_type == "document":
            seen.append(answer.headers.get("content-security-policy", ""))

    context.on("console", console)
    context.on("response", response)
    return context


def visit(
    context: BrowserContext,
    base_url: str,
    name: str,
    path: str,
    *,
    problems: list[str],
    folder: Path,
) -> None:
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(base_url + path)
    if name.split("-", maxsplit=1)[0] in READY:
        expect(page.locator(READY[name.split("-", maxsplit=1)[0]]).first).to_be_visible()
    page.wait_for_load_state("networkidle")
    page.screenshot(path=folder / f"{name}.png", full_page=True)
    problems.extend(f"{name}: {v}" for v in page.evaluate("window.__cspViolations"))
    page.close()


def test_main_pages_load_without_a_csp_violation(browser, live_server_url, artifacts_dir):
    teacher = get_user_model().objects.create_user(username="screens", password=PASSWORD)
    school_class = actions.do_create_class(teacher, "4B")
    games = available_games()
    assert games
    sessions = {
        game.slug: actions.do_create_session(
            school_class,
            game=game.slug,
            variant=game.default_variant,
            language="en",
            table_size=3,
            bots_fill=True,
        )
        for game in games
    }
    problems: list[str] = []
    policies: list[str] = []
    # One device per session: a device holds one seat.
    students = {slug: watched(browser, live_server_url, problems, policies) for slug in sessions}
    teacher_context = watched(browser, live_server_url, problems, policies)
    anonymous = watched(browser, live_server_url, problems, policies)
    log_in(teacher_context, live_server_url)
    first_slug = next(iter(sessions))
    first, student = sessions[first_slug], students[first_slug]
    for slug, session in sessions.items():
        student_joins(students[slug], live_server_url, session.join_code)

    pages = {
        "home": (anonymous, "/"),
        "login": (anonymous, "/login/"),
        "join": (anonymous, f"/join/{first.join_code}/"),
        "lobby": (student, f"/lobby/{first.join_code}/"),
        "dashboard": (teacher_context, reverse("classroom:dashboard")),
        "session-form": (
            teacher_context,
            reverse("classroom:session_create", args=[school_class.pk]),
        ),
        "session": (teacher_context, reverse("classroom:session_detail", args=[first.pk])),
        "join-screen": (teacher_context, reverse("live:join_screen", args=[first.pk])),
    }
    for name, (context, path) in pages.items():
        visit(context, live_server_url, name, path, problems=problems, folder=artifacts_dir)

    for slug, session in sessions.items():
        actions.do_start_session(session)
        table = Table.objects.filter(session=session).first()
        assert table is not None
        visit(
            students[slug],
            live_server_url,
            f"play-{slug}",
            f"/play/{session.join_code}/",
            problems=problems,
            folder=artifacts_dir,
        )
        visit(
            teacher_context,
            live_server_url,
            f"projector-{slug}",
            reverse("live:projector", args=[table.pk]),
            problems=problems,
            folder=artifacts_dir,
        )
    first_table = Table.objects.filter(session=first).first()
    assert first_table is not None
    finish_match(first_table)
    answer_the_quiz(student, live_server_url)
    lesson = Lesson.objects.first()
    assert lesson is not None
    pages = {
        "live": (teacher_context, reverse("live:session_live", args=[first.pk])),
        "join-screen-running": (teacher_context, reverse("live:join_screen", args=[first.pk])),
        "lesson": (teacher_context, reverse("lessons:detail", args=[lesson.slug])),
        "lessons": (teacher_context, reverse("lessons:index")),
        "results": (teacher_context, reverse("lessons:session_results", args=[first.pk])),
        "debrief": (teacher_context, reverse("debrief:session", args=[first.pk])),
        "privacy": (anonymous, reverse("debrief:privacy")),
    }
    for name, (context, path) in pages.items():
        visit(context, live_server_url, name, path, problems=problems, folder=artifacts_dir)

    assert policies and all("script-src 'self'" in policy for policy in policies), policies
    assert all("unsafe-inline" not in policy for policy in policies), policies
    (artifacts_dir / "violations.txt").write_text("\n".join(problems))
    assert problems == []

    # The listener does hear a violation: an inline script is refused and reported.
    page = anonymous.new_page()
    page.goto(live_server_url + "/")
    page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1';"
        " document.head.append(s); }"
    )
    page.wait_for_function("window.__cspViolations.length > 0")
    assert page.evaluate("window.ran") is None
    for context in (*students.values(), teacher_context, anonymous):
        context.close()
