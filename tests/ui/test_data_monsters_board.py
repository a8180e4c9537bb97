"""The Data Monsters board (static/js/play/data_monsters.js) against engine-made states.

No live server: tests/ui/harness.py serves the real templates and static files and
answers the table protocol from a real Data Monsters state (three seats, Startup and
Enterprise in turn; positions found by the engine's bots). Each situation (a main
phase, a discard down to 6, an interrupt window to answer, a completion waiting for the
others, the end) gives exactly one control per legal action and no other; a card that
cannot be played says why; the market shows each challenge's cost, points and personal
data in words; the interrupt window shows its countdown; the board fits 390, 1024 and
1920 px in four languages with no text under 12 px on a phone and is axe-clean.
Screenshots go to test-artifacts/<test name>/ for a person to look at.
"""

import pytest
from playwright.sync_api import expect

from games.data_monsters.cards import BY_ID
from tests.browser.screens import OVERFLOW, SMALL_TEXT, SMALLEST_TEXT_PX
from tests.ui.harness import (
    FakeTable,
    action_key,
    acts,
    axe_serious,
    legal_of,
    offered_actions,
    open_a_hand_card_under_a_prompt,
    open_table,
    panel_problems,
    scenario_states,
    wait_for_move,
)

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
PROJECTOR = {"width": 1920, "height": 1080}
SIZES = {"phone-390": PHONE, "tablet-1024": TABLET, "projector-1920": PROJECTOR}
NAMES = ["Alice Fox", "Bob Owl", "Robo"]
LANGUAGES = ["en", "es", "fr", "ru"]


def main_phase(state):
    """Seat 0's main phase, a card to play, a challenge to complete, one card refused."""
    if state.to_move() != [0] or state.window or state.phase != "main":
        return False
    types = {a["type"] for a in state.legal_actions(0)}
    refused = state.view(0)["refusals"]
    return {"play", "complete"} <= types and bool(refused)


def waiting_window(state):
    """An interrupt window that seat 0 may answer with a card."""
    w = state.window
    return (
        bool(w) and 0 in w["waiting"] and "interrupt" in {a["type"] for a in state.legal_actions(0)}
    )


SCENARIOS = {
    "main": main_phase,
    "discard": lambda s: s.to_move() == [0] and not s.window and s.phase == "discard",
    "interrupt": waiting_window,
    "completer": lambda s: bool(s.window) and s.window["seat"] == 0,
    "over": lambda s: s.is_over(),
}


@pytest.fixture(scope="module")
def states():
    return scenario_states(SCENARIOS, game="data_monsters", seeds=range(300))


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_each_monsters_situation_gives_one_control_per_legal_action(
    browser, states, scenario, artifacts_dir
):
    state = states(scenario)
    table = FakeTable(state, seat=0, bots=False, names=NAMES)
    context, page = open_table(browser, table, PHONE)
    page.screenshot(path=artifacts_dir / f"{scenario}.png", full_page=True)
    legal = legal_of(state, 0)
    assert offered_actions(page, tray=("play", "discard")) == {action_key(a) for a in legal}
    if not legal:
        assert page.locator(".board button").count() == 0
    # the market: every challenge with its cost and points in words (none at the end)
    shown = [] if state.is_over() else state.market
    expect(page.locator(".dm-challenge")).to_have_count(len(shown))
    for challenge in shown:
        item = page.locator(f'.dm-challenge[data-challenge="{challenge}"]')
        cost = state.cost(challenge)
        expect(item.locator(".dm-challenge__facts")).to_contain_text(
            f"{cost['tech']} TECH · {cost['sci']} SCI"
        )
        if BY_ID[challenge]["personal"]:
            expect(item.locator(".dm-challenge__privacy")).to_contain_text("Personal data")
    assert page.errors == []
    context.close()


def test_a_refused_card_says_why_and_a_play_is_sent_unchanged(browser, states):
    state = states("main")
    refused = state.view(0)["refusals"]
    table = FakeTable(state, seat=0, bots=False, names=NAMES)
    context, page = open_table(browser, table, PHONE)
    card = next(iter(refused))
    toggle = page.locator(f'.dt-cards--hand [data-key="info:{card}"]')
    toggle.focus()
    page.keyboard.press("Enter")
    reason = page.locator(".tray__not-now")
    expect(reason).to_be_visible()
    expect(reason).not_to_have_text("You cannot play this card now.")
    page.keyboard.press("Escape")
    play = next(a for a in state.legal_actions(0) if a["type"] == "play")
    page.locator(f'.dt-cards--hand [data-key="hand:{play["card"]}"]').click()
    page.locator(".tray button[data-action]").first.click()
    wait_for_move(page, table)
    assert acts(table) == [play]
    assert page.errors == []
    context.close()


def test_the_interrupt_window_shows_its_countdown_and_answers(browser, states):
    state = states("interrupt")
    window = state.window
    table = FakeTable(state, seat=0, bots=False, names=NAMES)
    context, page = open_table(browser, table, PHONE)
    challenge = BY_ID[window["challenge"]]["name"]["en"]
    expect(page.locator(".prompt__text")).to_contain_text(f"completes {challenge}")
    expect(page.locator(".turnbar__turn")).to_have_text("Answer now")
    countdown = page.locator("[data-slot=countdown]")
    expect(countdown).to_be_visible()
    expect(countdown).to_contain_text("Time to interrupt")
    interrupt = next(a for a in state.legal_actions(0) if a["type"] == "interrupt")
    name = BY_ID[interrupt["card"]]["name"]["en"]
    expect(page.get_by_role("button", name="Let it go")).to_be_visible()
    page.get_by_role("button", name=f"Interrupt with {name}").click()
    wait_for_move(page, table)
    assert acts(table) == [interrupt]
    assert page.errors == []
    context.close()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_an_interrupt_stays_in_sight_when_a_hand_card_is_opened(
    browser, states, language, artifacts_dir
):
    """Asked to interrupt, on a phone: reading a hand card's effect (the hand's dock
    grows) leaves the answers, their countdown running, in sight."""
    state = states("interrupt")
    table = FakeTable(state, seat=0, bots=False, names=NAMES, language=language)
    context, page = open_table(browser, table, PHONE)
    open_a_hand_card_under_a_prompt(page)
    page.screenshot(path=artifacts_dir / f"interrupt-{language}-390.png")  # the screen as seen
    assert page.errors == []
    context.close()


def test_the_projector_shows_every_lab_and_no_hand(browser, states):
    state = states("main")
    table = FakeTable(state, seat=None, bots=False, names=NAMES)
    context, page = open_table(
        browser, table, PROJECTOR, role="spectator", template="games/projector.html"
    )
    expect(page.locator(".panel--player")).to_have_count(3)
    expect(page.locator(".dm-challenge")).to_have_count(len(state.market))
    assert page.locator(".dt-cards--hand").count() == 0
    assert page.locator(".board button").count() == 0
    for seat, name in enumerate(NAMES):
        expect(page.locator(f'.panel--player[data-seat="{seat}"]')).to_contain_text(name)
    assert page.errors == []
    context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_monsters_board_fits_every_screen_in_every_language(
    browser, states, language, artifacts_dir
):
    problems = []
    for scenario in ("main", "interrupt", "over"):
        for size, viewport in SIZES.items():
            for seat in (0, None):
                if seat is None and size != "projector-1920":
                    continue
                table = FakeTable(
                    states(scenario), seat=seat, bots=False, names=NAMES, language=language
                )
                template = "games/play.html" if seat is not None else "games/projector.html"
                role = "seat" if seat is not None else "spectator"
                context, page = open_table(browser, table, viewport, role=role, template=template)
                page.wait_for_timeout(150)  # the board's measured fit of long words
                where = f"{scenario} {'projector' if seat is None else 'seat'} @ {size}"
                page.screenshot(
                    path=artifacts_dir
                    / f"{language}-{scenario}-{'projector' if seat is None else 'seat'}-{size}.png",
                    full_page=True,
                )
                overflow, culprits = page.evaluate(OVERFLOW)
                if overflow > 0:
                    problems.append(f"{where}: {overflow} px too wide: {culprits}")
                if seat is None:  # the classroom screen: every panel whole, none under another
                    problems += [f"{where}: {p}" for p in panel_problems(page)]
                if size == "phone-390":
                    small = page.evaluate(SMALL_TEXT, SMALLEST_TEXT_PX)
                    if small:
                        problems.append(f"{where}: text under 12 px: {small[:5]}")
                if size != "tablet-1024" and language in ("en", "ru"):
                    problems += [f"{where}: axe {v}" for v in axe_serious(page)]
                problems += [f"{where}: {e}" for e in page.errors]
                context.close()
    assert not problems, "\n".join(problems)
