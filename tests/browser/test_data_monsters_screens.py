"""Data Monsters at four players with long nicknames, in Chromium on the live server: a
student's page and the classroom screen at a phone (390 px), a tablet (1024 px) and the
projector (1920 px), in every language, mid-game (the fourth round, the heuristic bots
having hired monsters, filled builds and completed challenges).

No page is wider than the window; a long nickname or card name wraps between words, or
inside a word only at a hyphen; on a phone no text is under 12 px; the student's page
and the classroom screen are axe-clean (serious, critical) at 390 and 1920 px. The
teacher's live dashboard shows the table at 1024 and 1920 px. The screenshots go to
test-artifacts/<test name>/, to be looked at.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect

import games.matches
from classroom import actions
from classroom.identity import new_device_id
from classroom.models import ClassSession, Table
from games.data_monsters.rules import State as DataMonstersState
from games.matches import apply_action, load_state
from games.models import Match
from tests.browser.classroom import PASSWORD, TIMEOUT
from tests.browser.screens import (
    FAILING_IMPACTS,
    SMALL_TEXT,
    SMALLEST_TEXT_PX,
    log_in,
    overflow_problems,
)
from tests.browser.test_data_thief_screens import BROKEN_WORDS
from tests.ui.harness import bot_move, panel_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone-390": (390, 844), "tablet-1024": (1024, 768), "projector-1920": (1920, 1080)}
LANGUAGES = ["en", "es", "fr", "ru"]
# Nicknames of the longest length (20), one word each: the worst case for a narrow column.
LATIN = ["Superkalifragilistic", "Bartholomew-Winthrop", "Montgomeryshire"]
NICKNAMES = {
    "en": LATIN,
    "es": LATIN,
    "fr": LATIN,
    "ru": ["Достопримечательная", "Константинопольская", "Непревзойдённый"],
}
ROUND = 4
SEED = 5  # the table's deal: the same mid-game position every run


def mid_game(teacher: User, language: str) -> ClassSession:
    """A session of four a table: three long-named students and a bot; return it once
    its match, every seat played by the heuristic bot, reaches round ROUND."""
    school_class = actions.do_create_class(teacher, "Year 9")
    session = actions.do_create_session(
        school_class,
        game="data_monsters",
        variant="standard",
        language=language,
        table_size=4,
        bots_fill=True,
    )
    for nickname in NICKNAMES[language][1:]:
        actions.do_join_session(session, nickname, new_device_id())
    return session


def monsters_state(match: Match) -> DataMonstersState:
    """The match's engine state, a Data Monsters game's."""
    state = load_state(match)
    assert isinstance(state, DataMonstersState)
    return state


def play_to_round(match: Match, rng: random.Random) -> None:
    """Let the heuristic bot play every seat (and fire the windows' timers) to ROUND."""
    state = monsters_state(match)
    while state.round < ROUND and not state.is_over():
        movers = state.to_move()
        seat = movers[0] if movers else None
        action = bot_move(state, seat, rng) if movers else state.legal_actions(None)[0]
        apply_action(match.pk, seat, action, expected_version=match.version)
        match.refresh_from_db()
        state = monsters_state(match)


def check_board(tab: Page, url: str, name: str, size: str, *, prefix: Path, axe: Axe) -> list[str]:
    """Open ``url`` at ``size``; return what is wrong (``name``: play or projector)."""
    problems, where = [], f"{name} @ {size}"
    width, height = SIZES[size]
    tab.set_viewport_size({"width": width, "height": height})
    tab.goto(url)
    expect(tab.locator(".dm-challenge").first).to_be_visible()
    expect(tab.locator(".panel--player")).to_have_count(4 if name == "projector" else 3)
    tab.wait_for_timeout(200)  # the board's measured fit of long words
    tab.screenshot(path=f"{prefix}-{name}-{size}.png", full_page=True)
    # the classroom screen on a phone scrolls its board: no wider than the window is enough
    on_a_phone = name == "projector" and size == "phone-390"
    problems += overflow_problems(tab, where, boxes=not on_a_phone)
    if name == "projector" and size != "phone-390":
        # nobody scrolls a classroom screen: every panel whole, none under the log
        problems += [f"{where}: {p}" for p in panel_problems(tab)]
    # the classroom screen is made for its own size (a phone scrolls its board)
    if name == "projector" and size != "projector-1920":
        return problems
    if size == "phone-390":
        small = tab.evaluate(SMALL_TEXT, SMALLEST_TEXT_PX)
        if small:
            problems.append(f"{where}: text under {SMALLEST_TEXT_PX} px: {small[:5]}")
    if size != "tablet-1024":
        for violation in axe.run(tab).response["violations"]:
            if violation["impact"] in FAILING_IMPACTS:
                targets = [node["target"] for node in violation["nodes"][:3]]
                problems.append(f"{where}: axe {violation['id']} {targets}")
    for text, word in tab.evaluate(BROKEN_WORDS):
        problems.append(f"{where}: {word!r} broken without a hyphen in {text!r}")
    return problems


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_mid_game_table_fits_every_screen(
    language, browser, live_server_url, artifacts_dir, monkeypatch
):
    monkeypatch.setattr(games.matches, "new_seed", lambda: SEED)
    teacher = get_user_model().objects.create_user(username="screens", password=PASSWORD)
    session = mid_game(teacher, language)
    student = browser.new_context(locale=language)
    page = student.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{live_server_url}/join/{session.join_code}/")
    page.locator("#id_nickname").fill(NICKNAMES[language][0])
    page.locator("main form [type=submit]").first.click()
    page.wait_for_url(f"**/lobby/{session.join_code}/")
    actions.do_start_session(session)
    table = Table.objects.get(session=session)
    match = Match.objects.get(pk=table.match_id)
    play_to_round(match, random.Random(3))
    state = monsters_state(match)
    assert table.seats.count() == 4 and not state.is_over()
    assert any(state.labs) and any(state.completed), "a mid-game table, labs and challenges"

    teacher_context = browser.new_context(locale=language)
    log_in(teacher_context, live_server_url)
    projector = teacher_context.new_page()
    projector.set_default_timeout(TIMEOUT)
    axe = Axe()
    problems = []
    pages = {
        "play": (page, f"/play/{session.join_code}/"),
        "projector": (projector, reverse("live:projector", args=[table.pk])),
    }
    for name, (tab, path) in pages.items():
        for size in SIZES:
            problems += check_board(
                tab, live_server_url + path, name, size, prefix=artifacts_dir / language, axe=axe
            )
    # the teacher's live dashboard: the table's players and scores, by the game's columns
    dashboard = teacher_context.new_page()
    dashboard.set_default_timeout(TIMEOUT)
    for size in ("tablet-1024", "projector-1920"):
        width, height = SIZES[size]
        dashboard.set_viewport_size({"width": width, "height": height})
        dashboard.goto(live_server_url + reverse("live:session_live", args=[session.pk]))
        expect(
            dashboard.locator(f"text={NICKNAMES[language][1]} >> visible=true").first
        ).to_be_visible()
        dashboard.screenshot(
            path=artifacts_dir / f"{language}-dashboard-{size}.png", full_page=True
        )
        problems += overflow_problems(dashboard, f"dashboard @ {size}")
    for context in (student, teacher_context):
        context.close()
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
