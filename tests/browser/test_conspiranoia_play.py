"""In Chromium, on the live server: a whole three-seat Conspiranoia game, two students
and a bot, from the teacher's session form to the end screen and the debrief export.

Everything is real: the ASGI server, the Redis channel layer, the Celery worker that
plays the bot and fires the timers (the defence windows, the pause between rounds).
The teacher chooses Conspiranoia, its quick variant (15 life points) and one second
between rounds in the session form. The students' pages play by clicking the board's
controls: "Got it" on a lesson card, the first control of the answer box (a character,
the strongest Defence), else the first move (the strongest attack on the first
opponent), else the first hand card's discard. After every click the board must update
(new log lines). At the end both students see the end screen with the engine's
ranking, and the teacher exports the session's debrief.
"""

import os
import re
import shutil
import time
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Page, expect

from classroom.models import ClassSession
from debrief.models import DebriefExport
from games.conspiranoia.cards import character as character_entry
from games.matches import load_state
from games.models import Match
from tests.browser.classroom import (
    COUNT_LOG_LINES,
    PASSWORD,
    TIMEOUT,
    is_over,
    reach_the_table,
    student_joins,
    teacher_launches,
    try_click,
)
from tests.browser.sockets import assert_no_reconnect

# Read by the child services (uvicorn, the Celery worker) when the session starts them.
os.environ.setdefault("BOT_DELAY_SECONDS", "0.05")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAME_SECONDS = 120


@pytest.fixture
def teacher(django_user_model):
    return django_user_model.objects.create_user(username="ms-conspiranoia", password=PASSWORD)


# Per student page: (missions shown, characters offered) each time it chose a character.
MISSIONS_SEEN: dict = {}


def play_one_step(page: Page) -> bool:
    """Click one legal control, if the page offers any now; return whether it did."""
    if page.locator("#game.is-busy").count():
        return False
    # a GDPR lesson card (the session's "show" mode): read it, then play on
    try_click(page.locator("[data-slot=lesson]:not([hidden])").get_by_role("button", name="Got it"))
    before = page.evaluate("window.logLines")
    missions = page.locator(".prompt .cp-missions li")
    if missions.count():  # choosing a character: one mission per free character
        choices = page.locator(".prompt button[data-action]").count()
        MISSIONS_SEEN.setdefault(page, []).append((missions.count(), choices))
    clicked = try_click(page.locator(".prompt button[data-action]")) or try_click(
        page.locator(".cp-moves button[data-action]")
    )
    if not clicked:
        hand = page.locator(".dt-cards--hand button.dt-card")
        if hand.count() == 0 or not try_click(hand):
            return False
        clicked = try_click(page.locator(".tray button[data-action]"))
    if clicked:  # the server's next state reaches the board: new lines in the log
        page.wait_for_function("n => window.logLines > n", arg=before, timeout=5_000)
    return clicked


def play_until_over(students):
    """Let both students click until both see the end; return the clicks per student."""
    deadline = time.monotonic() + GAME_SECONDS
    clicks = [0] * len(students)
    while not all(is_over(page) for page in students):
        assert time.monotonic() < deadline, f"the game did not end in {GAME_SECONDS} s"
        moved = False
        for i, page in enumerate(students):
            if not is_over(page) and play_one_step(page):
                moved = True
                clicks[i] += 1
        if not moved:
            students[0].wait_for_timeout(50)
    return clicks


def check_the_end(students, match):
    """Both students see the end screen, with the engine's winner rule and life points."""
    result = load_state(match).result()
    assert result is not None
    names = {seat.number: seat.display_name for seat in match.table.seats.all()}
    for page in students:
        expect(page.locator(".panel--end")).to_be_visible()
        expect(page.locator(".ranking tbody tr")).to_have_count(3)
        decided = page.locator(".end__decided")
        expect(decided).to_have_attribute("data-decided-by", result["decided_by"])
        expect(decided).not_to_be_empty()
        for score in result["scores"]:  # Rank, Player, then Life points
            row = page.locator(".ranking tbody tr").filter(has_text=names[score["seat"]])
            expect(row.locator("td").nth(1)).to_have_text(str(score["life"]))


def teacher_exports_the_debrief(page, base_url, artifacts_dir):
    """From the session's page: export the debrief, wait for it, fetch its PDF."""
    session = ClassSession.objects.get()
    page.goto(f"{base_url}{session.get_absolute_url()}")
    page.get_by_role("button", name="Export debrief").click()
    expect(page.get_by_role("heading", name="Debrief export")).to_be_visible()
    status = page.get_by_role("status")
    expect(status).to_contain_text(re.compile(r"Done: step (\d+) of \1"), timeout=60_000)
    pdf = page.get_by_role("link", name="Download the PDF")
    expect(pdf).to_be_visible()
    assert page.request.get(base_url + pdf.get_attribute("href")).body().startswith(b"%PDF")
    page.screenshot(path=artifacts_dir / "debrief-done.png", full_page=True)


def test_two_students_and_a_bot_play_conspiranoia_to_the_end(
    browser, live_server_url, celery_worker, teacher, artifacts_dir
):
    started = time.monotonic()
    teacher_context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    teacher_page = teacher_context.new_page()
    teacher_page.set_default_timeout(TIMEOUT)
    # the game's own options: a short pause between rounds keeps the test quick
    code = teacher_launches(
        teacher_page,
        live_server_url,
        username="ms-conspiranoia",
        class_name="Year 9 Conspiranoia",
        game="conspiranoia",
        variant="quick",
        options=[("Seconds between two rounds", "1")],
    )

    contexts, students, errors, requested = [], [], [], []
    for nickname in ("Alice Fox", "Bob Owl"):
        context, page = student_joins(
            browser,
            live_server_url,
            code,
            nickname,
            viewport=(390, 844),
            init_script=COUNT_LOG_LINES,
        )
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("request", lambda request: requested.append(request.url))
        contexts.append(context)
        students.append(page)

    teacher_page.get_by_role("button", name="Start").click()
    for page in students:
        reach_the_table(page, code)
        # the renderer draws the game (no "cannot be shown here yet"): two opponents, a hand
        expect(page.locator(".panel--player")).to_have_count(2)
        expect(page.locator(".panel--hand")).to_be_visible()
        expect(page.locator(".turnbar [data-fact=deck]")).to_be_visible()
        # characters are chosen before the first round: no "Round 0 / n"
        expect(page.locator(".turnbar [data-fact=round]")).to_have_count(0)
    students[0].screenshot(path=artifacts_dir / "student-start-390.png", full_page=True)

    clicks = play_until_over(students)
    assert min(clicks) >= 3, clicks  # each student chose, attacked or defended, discarded
    played = time.monotonic() - started

    match = Match.objects.get()
    assert (match.game, match.variant) == ("conspiranoia", "quick")
    assert load_state(match).options["round_pause_seconds"] == 1
    seats = list(match.table.seats.order_by("number"))
    assert [seat.bot_kind for seat in seats if not seat.participant_id] == ["heuristic"]
    for seat in seats:
        assert match.actions.filter(seat=seat.number).exists(), f"{seat.display_name} never moved"
    check_the_end(students, match)
    # each student was shown every free character's mission when choosing, and sees
    # their own character's mission beside it
    assert all(MISSIONS_SEEN.get(page) for page in students), MISSIONS_SEEN
    assert all(shown == offered >= 2 for page in students for shown, offered in MISSIONS_SEEN[page])
    pages = dict(zip(("Alice Fox", "Bob Owl"), students, strict=True))
    for seat in seats:
        if seat.participant_id is None:
            continue
        assert seat.participant is not None
        page = pages[seat.participant.nickname]
        character = load_state(match).view(seat.number)["players"][seat.number]["character"]
        mission = character_entry(character)["mission"]["en"]
        expect(page.locator(".cp-me .cp-mission")).to_contain_text(mission)
    students[0].evaluate("window.scrollTo(0, 0)")
    students[0].screenshot(path=artifacts_dir / "student-end-390.png")
    assert errors == []
    assert_no_reconnect(students[0], "Alice")
    assert_no_reconnect(students[1], "Bob")
    # students are minors: the game page loads nothing from anywhere else
    own = urlparse(live_server_url).netloc
    assert [url for url in requested if urlparse(url).netloc not in {own, ""}] == []

    teacher_exports_the_debrief(teacher_page, live_server_url, artifacts_dir)
    total = time.monotonic() - started
    print(f"\nConspiranoia: game {played:.1f} s, with the debrief {total:.1f} s; clicks {clicks}")
    for context in (*contexts, teacher_context):
        context.close()


@pytest.fixture(autouse=True)
def _remove_export_files(transactional_db):
    """Remove the files this test's export wrote (the worker writes under var/media/)."""
    yield
    for export in DebriefExport.objects.all():
        shutil.rmtree(export.folder(), ignore_errors=True)
