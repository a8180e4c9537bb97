"""In Chromium, on the live server: a whole Data Monsters game between two students,
from the teacher's session form to the end screen.

The teacher launches the quick game (8 basic challenges) for tables of two with the
laboratory decks "Startup and Enterprise in turn"; the table is dealt from a fixed
seed. Everything is real: the ASGI server, the Redis channel layer, the Celery worker
that fires the interrupt window's timer. The students play by clicking the board's
controls, as a hurried player would: "Got it" on a lesson card; in an interrupt window
"Let it go" the first time and the first answer after; else a "Complete …" button of
the market; else the first playable hand card and its play (a discard when the hand
holds more than 6); else "End the turn". ``clicked_moves`` plays the same policy over
the engine: the seed was chosen so that the game ends in about 60 moves with a discard,
a pass and an interrupt, and the match's log must be exactly these moves (a rules
change that breaks this test is explained by running it). When a window is open the
student who may answer sees the countdown ("Time to interrupt") and the other one
"The other players may interrupt".
"""

import os
import time

import pytest
from playwright.sync_api import expect

import games.matches
from classroom import actions
from classroom.models import ClassSession
from games.matches import load_state
from games.models import Match
from games.registry import get_game
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

GAME_SECONDS = 150
SEED = 12  # a short game with a discard, a pass and an interrupt (clicked_moves)
VARIANT = "quick"
OPTIONS = {"decks": "alternate"}


def clicked_moves(seed: int = SEED) -> list[dict]:
    """Play the students' click policy over the engine; return the actions in order."""
    state = get_game("data_monsters").new_state(2, seed, VARIANT, OPTIONS)
    windows, moves = 0, []
    while not state.is_over():
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        if state.window:
            windows += 1
            action = next(a for a in legal if a["type"] == "pass") if windows == 1 else legal[0]
        elif state.phase == "discard":
            action = legal[0]
        else:
            completes = [a for a in legal if a["type"] == "complete"]
            plays = [a for a in legal if a["type"] == "play"]
            action = (completes or plays or [{"type": "end_turn"}])[0]
        state.apply(seat, action)
        moves.append(action)
    return moves


def test_the_seed_gives_a_short_game_with_a_discard_a_pass_and_an_interrupt():
    types = [a["type"] for a in clicked_moves()]
    assert len(types) < 80
    assert {"discard", "pass", "interrupt", "complete", "play", "end_turn"} <= set(types)


@pytest.fixture
def teacher(django_user_model, monkeypatch):
    """The teacher; the match the session starts is dealt from SEED."""
    monkeypatch.setattr(games.matches, "new_seed", lambda: SEED)
    return django_user_model.objects.create_user(username="ms-monster", password=PASSWORD)


class Student:
    """A student's page and what it saw of the interrupt windows."""

    def __init__(self, page):
        self.page = page
        self.windows = 0  # the windows this student answered
        self.clicks = 0

    def step(self, others_windows: int) -> bool:
        """Click one legal control, if the page offers any now; return whether it did."""
        page = self.page
        if page.locator("#game.is-busy").count():
            return False
        try_click(
            page.locator("[data-slot=lesson]:not([hidden])").get_by_role("button", name="Got it")
        )
        before = page.evaluate("window.logLines")
        answers = page.locator(".prompt .dm-answers button[data-action]")
        if answers.count():
            # the one who may answer sees the window's countdown
            expect(page.locator("[data-slot=countdown]")).to_contain_text("Time to interrupt")
            first = self.windows + others_windows == 0
            name = "Let it go" if first else None
            clicked = (
                try_click(page.get_by_role("button", name=name)) if name else try_click(answers)
            )
            if clicked:
                self.windows += 1
        else:
            # the first control of the policy that the page shows; if the board redraws
            # under the click, the next step tries again (never a later control instead)
            complete = page.locator("button.dm-complete")
            hand = page.locator(".dt-cards--hand button.dt-card")
            if complete.count():
                clicked = try_click(complete)
            elif hand.count():
                clicked = try_click(hand) and try_click(page.locator(".tray button[data-action]"))
            else:
                clicked = try_click(page.locator("button.dm-end-turn"))
        if clicked:
            page.wait_for_function("n => window.logLines > n", arg=before, timeout=5_000)
            self.clicks += 1
        return clicked


def test_two_students_play_a_whole_game_of_data_monsters(
    browser, live_server_url, celery_worker, teacher, artifacts_dir
):
    teacher_context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    code = teacher_launches(
        teacher_context.new_page(),
        live_server_url,
        username="ms-monster",
        class_name="Year 9 Data Monsters",
        game="data_monsters",
        variant=VARIANT,
        players=2,
        options=(("Laboratory decks", "alternate"),),
    )
    contexts, pages, errors = [], [], []
    for nickname, viewport in (("Alice Fox", (390, 844)), ("Bob Owl", (1024, 768))):
        context, page = student_joins(
            browser, live_server_url, code, nickname, viewport=viewport, init_script=COUNT_LOG_LINES
        )
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        contexts.append(context)
        pages.append(page)
    actions.do_start_session(ClassSession.objects.get(join_code=code))
    match = Match.objects.get()
    assert (match.seed, match.variant, match.options) == (SEED, VARIANT, OPTIONS)
    for page in pages:
        reach_the_table(page, code)
        expect(page.locator(".dm-challenge").first).to_be_visible()
        expect(page.get_by_role("heading", name="Your lab")).to_be_visible()
    pages[0].screenshot(path=artifacts_dir / "alice-start-390.png", full_page=True)

    students = [Student(page) for page in pages]
    seen_waiting = False  # the other student saw a window it may not answer
    deadline = time.monotonic() + GAME_SECONDS
    while not all(is_over(page) for page in pages):
        assert time.monotonic() < deadline, f"the game did not end in {GAME_SECONDS} s"
        for me, student in enumerate(students):
            other = students[1 - me]
            if seen_waiting or not other.page.locator(".prompt .dm-answers").count():
                continue
            expect(student.page.locator(".dm-window")).to_contain_text(
                "the other players may interrupt"
            )
            expect(student.page.locator("[data-slot=countdown]")).to_contain_text(
                "The other players may interrupt"
            )
            other.page.screenshot(path=artifacts_dir / "window-to-answer.png")
            student.page.screenshot(path=artifacts_dir / "window-waiting.png")
            seen_waiting = True
        moved = False
        for me, student in enumerate(students):
            other = students[1 - me]
            if not is_over(student.page) and student.step(other.windows):
                moved = True
        if not moved:
            pages[0].wait_for_timeout(50)

    match.refresh_from_db()
    state = load_state(match)
    result = state.result()
    assert state.is_over() and result is not None
    played = [a.action for a in match.actions.order_by("version")]
    assert played == clicked_moves(), "the students' clicks are not the simulated ones"
    # every window answer of the policy was a student's click (none expired)
    answers = sum(a["type"] in ("pass", "interrupt") for a in clicked_moves())
    assert sum(s.windows for s in students) == answers and seen_waiting
    for page in pages:
        expect(page.locator(".panel--end")).to_be_visible()
        expect(page.locator(".ranking tbody tr")).to_have_count(2)
        expect(page.locator(".end__decided")).to_have_attribute(
            "data-decided-by", result["decided_by"]
        )
    for index, page in enumerate(pages):
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=artifacts_dir / f"end-{index}.png", full_page=True)
        assert_no_reconnect(page, f"student {index}")
    assert errors == []
    for seat in (0, 1):
        assert match.actions.filter(seat=seat).exists(), f"seat {seat} never moved"
    for context in (*contexts, teacher_context):
        context.close()
