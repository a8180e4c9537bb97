"""The GDPR lesson card of the browser client, against the harness's table.

The harness sends ``lesson`` messages and a state's ``lesson_pause`` as the server
does (docs/protocol.md); the page shows the card beside the board (title, short
explanation, articles, "More" in a new tab, "Got it"), sends ``dismiss``, manages
focus, and in pause mode says that the table waits. The end screen invites to the quiz.
"""

import pytest
from playwright.sync_api import expect

from tests.ui.harness import SANCTION_LESSON, FakeTable, find_state, serve_page

pytestmark = [pytest.mark.browser]

TIMEOUT = 10_000
PHONE = {"width": 390, "height": 844}


def first_turn():
    return find_state(lambda s: s.ply == 0 and 0 in s.to_move(), variant="beginner")


@pytest.fixture
def open_page(browser):
    contexts = []

    def opener(table, role="seat", template="games/play.html"):
        context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-GB")
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT)
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        serve_page(page, table, role=role, template=template)
        page.wait_for_selector(".board > section")
        return page

    yield opener
    for context in contexts:
        context.close()


def dismissals(table):
    return [m for m in table.sent if m["type"] == "dismiss"]


def wait_for(page, predicate):
    for _ in range(100):
        if predicate():
            return
        page.wait_for_timeout(50)
    raise AssertionError("condition not met")


def test_a_lesson_card_shows_beside_the_board_without_blocking_it(open_page):
    table = FakeTable(first_turn(), bots=False)
    page = open_page(table)
    page.locator(".dt-cards--hand button.dt-card").first.focus()
    table.send_lesson(moment=41)
    card = page.locator('[data-slot="lesson"]')
    expect(card).to_be_visible()
    expect(card).to_have_attribute("role", "dialog")
    expect(card).to_have_attribute("aria-labelledby", "lesson-card-title")
    expect(card.locator("h2")).to_have_text("Sanctions: warnings, bans and big fines")
    expect(card.locator(".lesson-card__short")).to_contain_text("fine a company")
    expect(card.locator(".lesson-card__articles")).to_have_text(
        "GDPR articles: 58(2), 83(4), 83(5)"
    )
    more = card.get_by_role("link", name="More")
    expect(more).to_have_attribute("href", "/lessons/sanctions/")
    expect(more).to_have_attribute("target", "_blank")
    # "show": the card takes no focus and the hand stays playable
    assert page.evaluate("document.activeElement.classList.contains('dt-card')")
    expect(page.locator('[data-slot="notice"]')).to_be_hidden()
    assert page.locator(".dt-cards--hand button.dt-card:not([disabled])").count() > 0
    card.get_by_role("button", name="Got it").click()
    expect(card).to_be_hidden()
    wait_for(page, lambda: dismissals(table))
    assert dismissals(table) == [{"type": "dismiss", "moment": 41}]
    assert page.errors == []


def test_pause_mode_waits_for_everyone_and_is_dismissed_by_keyboard(open_page):
    table = FakeTable(first_turn(), bots=False)
    page = open_page(table)
    table.send_lesson(moment=42, pause=True)
    card = page.locator('[data-slot="lesson"]')
    expect(card).to_be_visible()
    notice = page.locator('[data-slot="notice"]')
    expect(notice).to_contain_text("Waiting for everyone to read the lesson")
    expect(notice).to_contain_text("Alice Fox, Bob Owl")
    # the table waits for this player: focus is on "Got it"; no move is offered
    expect(card.get_by_role("button", name="Got it")).to_be_focused()
    expect(page.locator(".dt-cards--hand button.dt-card:not([disabled])")).to_have_count(0)
    page.keyboard.press("Enter")
    expect(card).to_be_hidden()
    wait_for(page, lambda: dismissals(table))
    assert dismissals(table)[0]["moment"] == 42
    expect(notice).to_contain_text("still reading: Bob Owl")
    expect(page.locator("#game")).not_to_have_class("has-lesson")
    assert page.errors == []


def test_a_reconnected_seat_gets_the_card_from_the_state_and_escape_dismisses(open_page):
    table = FakeTable(first_turn(), bots=False)
    entry = {
        "moment": 43,
        "event": "attack",
        "seats": [0, 1],
        "waiting": [0],
        "lesson": {
            "slug": "consent",
            "title": "Consent: a free and clear yes",
            "short": "Consent must be free.",
            "articles": ["7"],
            "more_url": "/lessons/consent/",
        },
    }
    table.lesson_pause = {"waiting": [0], "moments": [entry]}
    table.paused = True
    page = open_page(table)
    card = page.locator('[data-slot="lesson"]')
    expect(card.locator("h2")).to_have_text("Consent: a free and clear yes")
    expect(card.locator(".lesson-card__articles")).to_have_text("GDPR article: 7")
    page.keyboard.press("Escape")
    expect(card).to_be_hidden()
    wait_for(page, lambda: dismissals(table))
    # the last one read: the pause ends and the board plays again
    expect(page.locator('[data-slot="notice"]')).to_be_hidden()
    expect(page.locator(".dt-cards--hand button.dt-card:not([disabled])").first).to_be_visible()


def test_the_projector_shows_the_card_and_can_go_on_for_the_table(open_page):
    table = FakeTable(first_turn(), seat=None, bots=False)
    page = open_page(table, role="spectator", template="games/projector.html")
    table.send_lesson(moment=44, pause=True)
    card = page.locator('[data-slot="lesson"]')
    expect(card.locator("h2")).to_have_text("Sanctions: warnings, bans and big fines")
    card.get_by_role("button", name="Go on for the whole table").click()
    wait_for(page, lambda: dismissals(table))
    assert dismissals(table) == [{"type": "dismiss", "moment": 44, "all": True}]
    expect(page.locator('[data-slot="notice"]')).to_be_hidden()


def test_the_end_screen_invites_to_the_quiz_and_the_library(open_page):
    table = FakeTable(find_state(lambda s: s.is_over(), variant="beginner"), bots=False)
    page = open_page(table)
    invite = page.locator('[data-slot="quiz"]')
    expect(invite).to_be_visible()
    expect(invite.get_by_role("link", name="Take the quiz")).to_have_attribute(
        "href", "/lessons/quiz/"
    )
    expect(invite.get_by_role("link", name="Lesson library")).to_have_attribute("href", "/lessons/")


def test_no_quiz_invitation_before_the_end(open_page):
    page = open_page(FakeTable(first_turn(), bots=False))
    expect(page.locator('[data-slot="quiz"]')).to_be_hidden()


def test_a_newer_lesson_replaces_an_unread_one_in_show_mode(open_page):
    """Cards that only inform never queue up: the newest one is shown."""
    table = FakeTable(first_turn(), bots=False)
    page = open_page(table)
    table.send_lesson(moment=41)
    card = page.locator('[data-slot="lesson"]')
    expect(card.locator("h2")).to_have_text("Sanctions: warnings, bans and big fines")
    newer = {**SANCTION_LESSON, "slug": "security", "title": "Security of processing"}

    table.send_lesson(moment=42, lesson=newer)

    expect(card.locator("h2")).to_have_text("Security of processing")
    card.get_by_role("button", name="Got it").click()
    expect(card).to_be_hidden()  # no stale card comes back from a queue
    wait_for(page, lambda: dismissals(table))
    assert dismissals(table) == [{"type": "dismiss", "moment": 42}]


def test_the_end_screen_puts_an_informing_card_away(open_page):
    table = FakeTable(find_state(lambda s: s.is_over(), variant="beginner"), bots=False)
    page = open_page(table)
    table.send_lesson(moment=43)
    card = page.locator('[data-slot="lesson"]')
    expect(card).to_be_visible()

    table.broadcast(table.state_message([]))  # the next state of a finished game

    expect(card).to_be_hidden()
    expect(page.locator('[data-slot="quiz"]')).to_be_visible()


def test_on_a_phone_the_card_leaves_the_turn_and_the_hand_in_view(browser, artifacts_dir):
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-GB")
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT)
        table = FakeTable(first_turn(), bots=False)
        serve_page(page, table)
        page.wait_for_selector(".board > section")
        table.send_lesson(moment=44)
        card = page.locator('[data-slot="lesson"]')
        expect(card).to_be_visible()
        page.screenshot(path=artifacts_dir / "lesson-phone-360x740.png")

        # In the flow above the board (nothing fixed over the table); the sticky bar
        # keeps whose turn it is and the dock the hand in view, without scrolling.
        assert (
            page.evaluate("getComputedStyle(document.querySelector('[data-slot=lesson]')).position")
            == "static"
        )
        sheet = card.bounding_box()
        turn = page.locator("[data-slot=turn]").bounding_box()
        assert turn["y"] + turn["height"] <= sheet["y"]
        hand = page.locator(".dt-cards--hand button.dt-card").first
        box = hand.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 740
        # the table scrolls clear of the dock and stays playable
        page.locator(".panel--table").scroll_into_view_if_needed()
        hand.click()  # and stays playable
    finally:
        context.close()


def open_phone_page(browser, table, language="en"):
    """Open the seat page on a 390x844 phone (touch), scrolled down to the table."""
    context = browser.new_context(viewport=PHONE, locale="en-GB", is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    serve_page(page, table)
    page.wait_for_selector(".board > section")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(100)
    assert page.evaluate("window.scrollY") > 300  # the board is longer than the screen
    return context, page


def sight(page):
    """Return the card's box and the room between the sticky bar and the hand's dock."""
    return page.evaluate(
        """() => ({
            card: document.querySelector('[data-slot="lesson"]').getBoundingClientRect().toJSON(),
            bar: document.querySelector('[data-slot="bar"]').getBoundingClientRect().bottom,
            dock: document.querySelector('.panel--hand').getBoundingClientRect().top,
            scrollY: window.scrollY,
        })"""
    )


def assert_card_in_sight(place):
    card = place["card"]
    assert card["height"] > 0, place
    assert place["bar"] - 1 <= card["top"] and card["bottom"] <= place["dock"] + 1, place


@pytest.mark.parametrize("language", ["en", "ru"])
def test_on_a_phone_scrolled_down_a_lesson_card_opens_in_sight(browser, artifacts_dir, language):
    """In "show" mode the card opens above the board: a student scrolled down to the
    table sees it come into view; "Got it" takes them back to where they were."""
    table = FakeTable(first_turn(), bots=False, language=language)
    context, page = open_phone_page(browser, table, language)
    try:
        board_top = page.locator('[data-slot="board"]').bounding_box()["y"]
        focused = page.evaluate("document.activeElement && document.activeElement.tagName")

        table.send_lesson(moment=45)

        card = page.locator('[data-slot="lesson"]')
        expect(card).to_be_visible()
        page.wait_for_timeout(200)
        assert_card_in_sight(sight(page))
        # "show": no focus taken, the board stays playable
        assert page.evaluate("document.activeElement && document.activeElement.tagName") == focused
        page.screenshot(path=artifacts_dir / f"{language}-lesson-in-sight-390x844.png")

        card.locator(".lesson-card__ok").click()
        expect(card).to_be_hidden()
        page.wait_for_timeout(100)
        # back where the student had the board
        assert abs(page.locator('[data-slot="board"]').bounding_box()["y"] - board_top) <= 2
        assert page.errors == []
    finally:
        context.close()


def test_on_a_phone_a_lesson_card_waits_for_a_move_in_progress(browser, artifacts_dir):
    """A student who has chosen a hand card is not moved away from it: the sticky bar
    says a lesson opened, and tapping it brings the card into view."""
    table = FakeTable(first_turn(), bots=False)
    context, page = open_phone_page(browser, table)
    try:
        page.locator(".dt-cards--hand button.dt-card").first.click()
        expect(page.locator(".tray")).to_be_visible()
        table_cards = page.locator(".panel--table")  # where the chosen card may go
        before = table_cards.bounding_box()

        table.send_lesson(moment=46)

        chip = page.locator('[data-slot="bar"] .game-bar__lesson')
        expect(chip).to_be_visible()
        expect(chip).to_have_text("GDPR lesson: Sanctions: warnings, bans and big fines")
        # the move in progress stays put on screen (the browser's scroll anchoring keeps
        # the board where it was when the card opens above it)
        after = table_cards.bounding_box()
        assert abs(after["y"] - before["y"]) <= 1, (before, after)
        expect(page.locator(".tray")).to_be_visible()
        page.screenshot(path=artifacts_dir / "lesson-chip-390x844.png")

        chip.click()
        page.wait_for_timeout(200)
        assert_card_in_sight(sight(page))
        expect(chip).to_have_count(0)
        expect(page.locator('[data-slot="lesson"]')).to_be_focused()
        page.screenshot(path=artifacts_dir / "lesson-chip-tapped-390x844.png")
        assert page.errors == []
    finally:
        context.close()
