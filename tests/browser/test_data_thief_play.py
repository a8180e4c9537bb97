"""In Chromium, on the live server: whole Data Thief games from the teacher's session
form to the end screen. Two students alone (a data manager at seat 0, the thief at the
last seat); then two students with two bots, the teacher having chosen "a student" as
thief: the thief at seat 0, a student manager, and the bots managing the other boards.

Everything is real: the ASGI server, the Redis channel layer, the Celery worker that
fires the timers and the bots. Students take the first seats and bots the last. The
students play by
clicking the board's controls: "Got it" on a lesson card, the first control of the
answer box (a counter, a data card to steal), else the first hand card and its first
play (a lay, a discard) or, for an attack, the first highlighted board's button. After
every click the board must update (new log lines).
"""

import os
import time

import pytest
from playwright.sync_api import Page, expect

from games.data_thief.rules import State as DataThiefState
from games.matches import load_state
from games.models import Match
from tests.browser.classroom import (
    COUNT_LOG_LINES,
    PASSWORD,
    is_over,
    reach_the_table,
    student_joins,
    teacher_launches,
    try_click,
)
from tests.browser.sockets import assert_no_reconnect

os.environ.setdefault("BOT_DELAY_SECONDS", "0.05")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAME_SECONDS = 120


@pytest.fixture
def teacher(django_user_model):
    return django_user_model.objects.create_user(username="mr-thief", password=PASSWORD)


def play_one_step(page: Page) -> bool:
    """Click one legal control, if the page offers any now; return whether it did."""
    if page.locator("#game.is-busy").count():
        return False
    try_click(page.locator("[data-slot=lesson]:not([hidden])").get_by_role("button", name="Got it"))
    before = page.evaluate("window.logLines")
    clicked = try_click(page.locator(".prompt [data-action]"))
    if not clicked:
        hand = page.locator(".dt-cards--hand button.dt-card")
        if hand.count() == 0 or not try_click(hand):
            return False
        clicked = try_click(page.locator(".tray button[data-action]")) or try_click(
            page.locator("button.dth-attack")
        )
    if clicked:
        page.wait_for_function("n => window.logLines > n", arg=before, timeout=5_000)
    return clicked


def play_to_the_end(teacher_page, browser, live_server_url, *, players, options, artifacts_dir):
    """Launch a session of ``players`` a table, two students join and play to the end;
    return the match, the students' pages by role, and what each clicked."""
    code = teacher_launches(
        teacher_page,
        live_server_url,
        username="mr-thief",
        class_name="Year 10 Data Thief",
        game="data_thief",
        variant="standard",
        players=players,
        options=options,
    )
    contexts, students, errors = [], [], []
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
        contexts.append(context)
        students.append(page)
    teacher_page.get_by_role("button", name="Start").click()
    for page in students:
        reach_the_table(page, code)
        expect(page.locator(".dth-manager").first).to_be_visible()
    match = Match.objects.get()
    start = load_state(match)
    assert isinstance(start, DataThiefState)
    thief_seat = start.thief
    seats = {}
    for s in match.table.seats.exclude(participant=None):
        assert s.participant is not None
        seats[s.participant.nickname] = s.number
    pages = dict(zip(("Alice Fox", "Bob Owl"), students, strict=True))
    thief = next(pages[name] for name, seat in seats.items() if seat == thief_seat)
    manager = next(pages[name] for name, seat in seats.items() if seat != thief_seat)
    expect(manager.locator(".dth-role")).to_contain_text("You are a data manager")
    expect(thief.locator(".dth-role")).to_contain_text("You are the thief")
    manager.screenshot(path=artifacts_dir / "manager-start-390.png", full_page=True)

    deadline = time.monotonic() + GAME_SECONDS
    clicks = {"manager": 0, "thief": 0}
    while not all(is_over(page) for page in students):
        assert time.monotonic() < deadline, f"the game did not end in {GAME_SECONDS} s"
        moved = False
        for role, page in (("manager", manager), ("thief", thief)):
            if not is_over(page) and play_one_step(page):
                moved = True
                clicks[role] += 1
        if not moved:
            manager.wait_for_timeout(50)

    match.refresh_from_db()
    state = load_state(match)
    assert state.is_over()
    result = state.result()
    assert result is not None
    for page in students:
        expect(page.locator(".panel--end")).to_be_visible()
        expect(page.locator(".ranking tbody tr")).to_have_count(players)
        expect(page.locator(".end__decided")).to_have_attribute(
            "data-decided-by", result["decided_by"]
        )
    thief.evaluate("window.scrollTo(0, 0)")
    thief.screenshot(path=artifacts_dir / "thief-end-390.png")
    assert errors == []
    assert_no_reconnect(manager, "the manager")
    assert_no_reconnect(thief, "the thief")
    for context in contexts:
        context.close()
    return match, state, seats, clicks


def assert_every_turn_was_clicked(match, clicks, *, thief, manager):
    """8 rounds: a manager has a turn in each, the thief in each from the third on; an
    attack that steals nothing skips the manager's next turns, an empty pile the thief's.
    Every turn a student had took at least one click (an answer may take more)."""
    events = [event for action in match.actions.all() for event in action.events]
    assert events, "the action log is empty"

    def count(kind, seat):
        return sum(event["type"] == kind and event["seat"] == seat for event in events)

    played = {seat: count("turn", seat) for seat in (thief, manager)}
    played[(thief + 1) % match.table.seats.count()] += 1  # the first turn opens the match
    skipped = {seat: count("turn_skipped", seat) for seat in (thief, manager)}
    assert played[manager] + skipped[manager] == 8, (played, skipped)
    assert played[thief] + skipped[thief] == 6, (played, skipped)
    assert clicks["manager"] >= played[manager] and clicks["thief"] >= played[thief], (
        clicks,
        played,
    )


def test_a_manager_and_a_thief_play_data_thief_to_the_end(
    browser, live_server_url, celery_worker, teacher, artifacts_dir
):
    teacher_context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    match, state, seats, clicks = play_to_the_end(
        teacher_context.new_page(),
        browser,
        live_server_url,
        players=2,
        options=(),
        artifacts_dir=artifacts_dir,
    )
    # the default: the thief sits last, here a student's seat
    assert state.thief == 1 and sorted(seats.values()) == [0, 1]
    assert_every_turn_was_clicked(match, clicks, thief=1, manager=0)
    for seat in (0, 1):
        assert match.actions.filter(seat=seat).exists(), f"seat {seat} never moved"
    teacher_context.close()


def test_a_student_thief_a_student_manager_and_bot_managers_play_to_the_end(
    browser, live_server_url, celery_worker, teacher, artifacts_dir
):
    """The issue's "done when": one student as thief, one as manager, bots managing the
    other boards; the teacher chose "a student" as thief on the session form."""
    teacher_context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    match, state, seats, clicks = play_to_the_end(
        teacher_context.new_page(),
        browser,
        live_server_url,
        players=4,
        options=(("Who plays the thief at a table with bots", "student"),),
        artifacts_dir=artifacts_dir,
    )
    assert match.options == {"thief": "student"}
    assert state.thief == 0 and sorted(seats.values()) == [0, 1]  # students first
    bots = match.table.seats.filter(participant=None)
    assert sorted(bots.values_list("number", flat=True)) == [2, 3]
    assert_every_turn_was_clicked(match, clicks, thief=0, manager=1)
    for seat in range(4):  # every manager, bots included, played; the student stole
        assert match.actions.filter(seat=seat).exists(), f"seat {seat} never moved"
    assert match.actions.filter(seat=0, action__type="attack").exists()
    teacher_context.close()
