"""The phone-first board, in Chromium against engine states (tests/ui/harness.py).

At 390x844 during a game against bots: the sticky bar stays on screen, the hand's cards
are in view without scrolling (the dock), the opponents are a short strip above the
table, the log is collapsed (open at 1920); a capture animates, and nothing animates
with reduced motion; the Sound toggle is off by default and remembered; no sideways
scroll and no text under 12 px at 360 and 390; the ranking fits at 390 in Russian; a
lesson card of the last move stays below "Game over"; Escape closes "?"; card labels
never break inside a word. Screenshots at 390x844, 1024x768 and 1920x1080 in en and ru
go to test-artifacts/<test>/.
"""

import pytest
from playwright.sync_api import expect

from tests.browser.screens import HIDDEN_OVERFLOW, OVERFLOW, SMALL_TEXT
from tests.ui.harness import FakeTable, find_state, open_table, panel_problems, split_words

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 740}
TABLET = {"width": 1024, "height": 768}
PROJECTOR = {"width": 1920, "height": 1080}
SIZES = {"390x844": PHONE, "1024x768": TABLET, "1920x1080": PROJECTOR}
GAMES = ["data_tycoon", "conspiranoia"]

# Whether a box lies inside the viewport (vertically and horizontally).
IN_VIEW = """(el) => { const r = el.getBoundingClientRect();
  return r.top >= -1 && r.bottom <= innerHeight + 1
    && r.left >= -1 && r.right <= innerWidth + 1; }"""


def playing(game):
    """A position where seat 0 has a move (its first), three seats."""
    if game == "conspiranoia":
        return find_state(
            lambda s: s.view(0)["round"] >= 1 and 0 in s.to_move() and s.view(0)["hand"],
            game=game,
            variant="quick",
        )
    return find_state(lambda s: s.ply == 0, variant="beginner")


def open_a_tray(page):
    """Choose a hand card when one is a control (Conspiranoia's only when discarding)."""
    page.wait_for_function("!document.querySelector('#game').classList.contains('is-busy')")
    cards = page.locator(".dt-cards--hand button.dt-card")
    if cards.count():
        cards.first.click()


def over(game):
    return find_state(
        lambda s: s.is_over(), game=game, variant="quick" if game == "conspiranoia" else "beginner"
    )


def open_board(browser, table, viewport=PHONE, *, role="seat", reduced=False, context=None):
    template = "games/play.html" if role == "seat" else "games/projector.html"
    return open_table(
        browser, table, viewport, role=role, template=template, reduced=reduced, context=context
    )


@pytest.mark.parametrize("game", GAMES)
def test_the_phone_keeps_the_bar_the_hand_and_the_opponents_in_view(browser, game, artifacts_dir):
    table = FakeTable(playing(game), seat=0, bots=True)
    context, page = open_board(browser, table)
    table.run_others()
    hand = page.locator(".dt-cards--hand .dt-card")
    expect(hand.first).to_be_visible()
    # the hand: its first cards in view without scrolling (the dock)
    assert page.evaluate("scrollY") == 0
    for i in range(min(3, hand.count())):
        assert hand.nth(i).evaluate(IN_VIEW), f"hand card {i} out of view"
    dock = page.locator(".panel--hand")
    assert dock.evaluate("el => getComputedStyle(el).position") == "fixed"
    # the bar: whose turn, the seat's score, Sound, "?", still on screen at the bottom
    bar = page.locator("[data-slot=bar]")
    expect(page.locator("[data-slot=turn]")).to_have_text("Your turn")
    expect(page.locator("[data-slot=score]")).not_to_be_empty()
    expect(bar.get_by_role("button", name="Sound")).to_be_visible()
    expect(bar.locator("summary.how-to-play__toggle")).to_be_visible()
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_function("scrollY > 0")
    assert bar.evaluate(IN_VIEW)
    assert bar.evaluate("el => el.getBoundingClientRect().top") <= 1
    # nothing hidden under the dock: the page's last section ends above it
    last = page.locator(".game-layout")
    dock_top = dock.evaluate("el => el.getBoundingClientRect().top")
    assert last.evaluate("el => el.getBoundingClientRect().bottom") <= dock_top + 1
    page.screenshot(path=artifacts_dir / f"{game}-scrolled.png")
    page.evaluate("window.scrollTo(0, 0)")
    # the opponents: a short strip above the table, one line each, details one tap away
    strip = page.locator(".panel--strip")
    expect(strip.locator(".panel--player")).to_have_count(2)
    strip_box = strip.bounding_box()
    table_box = page.locator(".panel--table").bounding_box()
    assert strip_box["y"] + strip_box["height"] <= table_box["y"]
    assert strip_box["height"] <= 170, strip_box
    summary = strip.locator(".player__summary").first
    expect(summary).to_contain_text("card")
    expect(strip.locator(".player__details").first).to_be_hidden()
    summary.click()
    expect(strip.locator(".player__details").first).to_be_visible()
    # the log: collapsed, its newest line in the summary
    log = page.locator("[data-slot=log-box]")
    assert log.evaluate("el => el.open") is False
    # folded, its newest line is what a screen reader hears; opened, the log itself
    latest = page.locator("[data-slot=log-latest]")
    expect(latest).to_have_attribute("aria-live", "polite")
    log.locator("summary").click()
    expect(latest).to_have_attribute("aria-live", "off")
    log.locator("summary").click()
    expect(latest).to_have_attribute("aria-live", "polite")
    page.screenshot(path=artifacts_dir / f"{game}-top.png")
    assert page.errors == []
    context.close()


def test_the_log_is_open_on_a_large_screen(browser):
    table = FakeTable(playing("data_tycoon"), seat=0, bots=False)
    context, page = open_board(browser, table, PROJECTOR)
    assert page.locator("[data-slot=log-box]").evaluate("el => el.open") is True
    expect(page.locator("[data-slot=log-latest]")).to_have_attribute("aria-live", "off")
    assert page.locator(".panel--hand").evaluate("el => getComputedStyle(el).position") != "fixed"
    context.close()


def capture_state():
    return find_state(
        lambda s: s.ply == 0 and any(a.get("capture") for a in s.legal_actions(0)),
        variant="beginner",
    )


def capture(page, state):
    move = next(a for a in state.legal_actions(0) if a.get("capture"))
    page.locator(f'.dt-cards--hand button[data-key="hand:{move["card"]}"]').click()
    page.locator(".dt-cards--table button.is-target").first.click()


@pytest.mark.parametrize("reduced", [False, True])
def test_a_capture_animates_unless_motion_is_reduced(browser, reduced):
    state = capture_state()
    table = FakeTable(state, seat=0, bots=False)
    context, page = open_board(browser, table, reduced=reduced)
    page.evaluate(
        """() => { window.animated = 0;
        new MutationObserver(() => { window.animated = Math.max(window.animated,
          document.getAnimations().filter((a) => a instanceof CSSAnimation).length); })
          .observe(document.querySelector('[data-slot=board]'),
            {childList: true, subtree: true}); }"""
    )
    capture(page, state)
    page.wait_for_function("document.querySelector('[data-slot=log]').children.length > 0")
    if reduced:
        page.wait_for_timeout(100)
        assert page.evaluate("document.getAnimations().length") == 0
        assert page.evaluate("window.animated") == 0
    else:
        assert page.locator(".dt-card.is-new").count() >= 1
        assert (
            page.evaluate(
                "document.getAnimations().filter((a) => a instanceof CSSAnimation).length"
            )
            >= 1
        )
    assert page.errors == []
    context.close()


def test_the_end_screen_animates_once(browser):
    state = over("data_tycoon")
    table = FakeTable(state, seat=0, bots=False)
    context, page = open_board(browser, table)
    # a reload at the end draws it still: no entrance for an end already known
    expect(page.locator(".panel--end")).to_be_visible()
    assert page.locator(".panel--end.is-new").count() == 0
    context.close()


def test_the_sound_toggle_is_off_by_default_and_remembered(browser):
    table = FakeTable(playing("data_tycoon"), seat=0, bots=False)
    context, page = open_board(browser, table)
    toggle = page.locator("[data-slot=bar]").get_by_role("button", name="Sound")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("localStorage.getItem('dp-sound')") is None
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("localStorage.getItem('dp-sound')") == "on"
    page.close()
    _, again = open_board(browser, FakeTable(playing("data_tycoon"), seat=0), context=context)
    toggle = again.locator("[data-slot=bar]").get_by_role("button", name="Sound")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert again.evaluate("localStorage.getItem('dp-sound')") is None
    assert again.errors == []
    context.close()


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("game", GAMES)
def test_no_sideways_scroll_no_small_text_and_whole_words(browser, game, language):
    for viewport in (SMALL_PHONE, PHONE):
        table = FakeTable(playing(game), seat=0, bots=True, language=language)
        context, page = open_board(browser, table, viewport)
        table.run_others()
        open_a_tray(page)
        page.locator(".player__summary").first.click()  # an opponent's details open
        overflow, where = page.evaluate(OVERFLOW)
        assert overflow <= 0, (viewport, where)
        assert page.evaluate(HIDDEN_OVERFLOW) == [], viewport
        small = page.evaluate(SMALL_TEXT, 12)
        assert small == [], (viewport, small[:5])
        assert split_words(page) == [], viewport
        assert page.errors == []
        context.close()


@pytest.mark.parametrize("game", GAMES)
def test_the_ranking_fits_a_phone_in_russian(browser, game, artifacts_dir):
    table = FakeTable(over(game), seat=0, bots=False, language="ru")
    context, page = open_board(browser, table)
    ranking = page.locator(".ranking")
    expect(ranking).to_be_visible()
    box = ranking.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    scroll = page.locator(".ranking-scroll")
    assert scroll.evaluate("el => el.scrollWidth <= el.clientWidth")
    # each number keeps its column's name
    heads = ranking.locator("thead th").all_text_contents()
    labels = (
        ranking.locator("tbody tr")
        .first.locator("td[data-label]")
        .evaluate_all("els => els.map((e) => e.dataset.label)")
    )
    assert labels and labels == heads[2:]
    page.screenshot(path=artifacts_dir / f"{game}-end-ru.png", full_page=True)
    assert page.errors == []
    context.close()


def test_a_lesson_card_of_the_last_move_leaves_game_over_readable(browser, artifacts_dir):
    table = FakeTable(over("data_tycoon"), seat=0, bots=False)
    context, page = open_board(browser, table)
    table.send_lesson()
    card = page.locator("[data-slot=lesson]")
    expect(card).to_be_visible()
    end = page.locator(".panel--end")
    end_box, card_box = end.bounding_box(), card.bounding_box()
    assert card_box["y"] >= end_box["y"] + end_box["height"], (end_box, card_box)
    assert card.evaluate("el => getComputedStyle(el).position") != "fixed"
    title = page.locator("#end-title")
    title.scroll_into_view_if_needed()
    assert title.evaluate(
        """(el) => { const r = el.getBoundingClientRect();
        return el.contains(document.elementFromPoint(r.left + 5, r.top + r.height / 2)); }"""
    )
    page.screenshot(path=artifacts_dir / "end-with-lesson.png", full_page=True)
    # it still closes
    card.get_by_role("button", name="Got it").click()
    expect(card).to_be_hidden()
    context.close()


def test_escape_closes_how_to_play(browser):
    table = FakeTable(playing("data_tycoon"), seat=0, bots=False)
    context, page = open_board(browser, table)
    toggle = page.locator("summary.how-to-play__toggle")
    toggle.focus()
    page.keyboard.press("Enter")
    panel = page.locator(".how-to-play__panel")
    expect(panel).to_be_visible()
    panel.focus()
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(toggle).to_be_focused()
    context.close()


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("game", GAMES)
def test_screenshots(browser, game, language, artifacts_dir):
    """The board mid-game at 390x844, 1024x768 and 1920x1080 (seat and projector)."""
    for name, viewport in SIZES.items():
        table = FakeTable(playing(game), seat=0, bots=True, language=language)
        context, page = open_board(browser, table, viewport)
        table.run_others()
        expect(page.locator(".dt-cards--hand .dt-card").first).to_be_visible()
        page.screenshot(path=artifacts_dir / f"{game}-{language}-{name}.png")
        open_a_tray(page)
        page.screenshot(path=artifacts_dir / f"{game}-{language}-{name}-tray.png")
        assert page.errors == []
        context.close()
    for name, viewport in (("", PROJECTOR), ("-1024x768", TABLET)):
        for position in (playing(game), over(game)):
            table = FakeTable(position, seat=None, bots=False, language=language)
            context, page = open_board(browser, table, viewport, role="spectator")
            assert page.evaluate("document.documentElement.scrollHeight") <= viewport["height"]
            end = "-over" if position.is_over() else ""
            page.screenshot(path=artifacts_dir / f"{game}-{language}-projector{end}{name}.png")
            assert panel_problems(page) == []
            context.close()
