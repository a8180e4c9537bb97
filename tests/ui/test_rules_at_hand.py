"""Rules at hand, in Chromium: what a card does, what an attack costs, how far a treasure is.

The card tray shows the chosen card's effect (from the catalogue), a hand card with no
legal play can still be opened to read it (and offers no action), an attack prompt says
what happens if it is accepted and what stops it, and "Your collection" counts the way
to a Data-Treasure ("blue 1/6" becomes "blue 3/6" after a capture). Positions come from
tests/games/arrange.py (the engine's own JSON) or from bots playing (harness.find_state).
"""

import json
from collections.abc import Callable
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from games.data_tycoon.views import catalogue
from games.engine.base import State
from tests.games.arrange import Picker, arrange
from tests.ui.harness import (
    FakeTable,
    assert_answers_in_sight,
    find_state,
    open_a_hand_card_under_a_prompt,
    seat_window,
)
from tests.ui.test_board import PHONE, TABLET, key, offered_actions, open_table

pytestmark = [pytest.mark.browser]

CATALOGUE = catalogue("expert")


def effect(card_id, language="en"):
    return CATALOGUE[card_id]["effect"][language]


def test_choosing_a_hand_card_shows_what_it_does(browser, artifacts_dir):
    state = find_state(lambda s: s.ply == 0, variant="expert")
    table = FakeTable(state, seat=0, bots=False)
    context, page = open_table(browser, table, PHONE)
    first = page.locator('.dt-cards--hand button[data-key^="hand:"]').first
    card = first.get_attribute("data-card")
    first.click()
    tray = page.locator(".tray")
    expect(tray.locator(".tray__title")).to_contain_text("What do you do with")
    expect(tray.locator(".card-effect")).to_have_text(effect(card))
    # the effect comes before the plays, and the card is described by it
    assert tray.evaluate(
        "t => t.querySelector('.card-effect').compareDocumentPosition("
        "t.querySelector('.button-row')) & Node.DOCUMENT_POSITION_FOLLOWING"
    )
    expect(first).to_have_attribute("aria-describedby", "tray-effect")
    page.screenshot(path=artifacts_dir / "tray-phone.png", full_page=True)
    assert page.errors == []
    context.close()


def test_a_card_that_cannot_be_played_still_says_what_it_does(browser, artifacts_dir):
    """Not this seat's turn: the hand's cards open their effect, and offer no action."""

    def waiting_with_cards(s):
        return s.ply > 0 and 0 not in s.to_move() and s.hands[0]

    state = find_state(waiting_with_cards, variant="expert")
    table = FakeTable(state, seat=0, bots=False)
    context, page = open_table(browser, table, PHONE)
    assert page.locator(".dt-cards--hand button").count() == 0  # no play, no <button>
    info = page.locator('.dt-cards--hand [role="button"][data-key^="info:"]')
    assert info.count() == len(state.hands[0])
    card = info.first.get_attribute("data-card")
    # by keyboard: Tab to it, Enter opens it, focus stays on the card
    info.first.focus()
    page.keyboard.press("Enter")
    expect(info.first).to_have_attribute("aria-pressed", "true")
    expect(info.first).to_be_focused()
    tray = page.locator(".tray--info")
    expect(tray.locator(".card-effect")).to_have_text(effect(card))
    expect(tray.locator(".tray__not-now")).to_have_text("You cannot play this card now.")
    expect(tray.locator("[data-action]")).to_have_count(0)
    assert page.locator("[data-action]").count() == 0
    page.screenshot(path=artifacts_dir / "info-phone.png", full_page=True)
    page.keyboard.press("Escape")
    expect(tray).to_have_count(0)
    expect(info.first).to_be_focused()
    assert page.errors == []
    context.close()


def test_controls_stay_the_legal_actions_with_readable_cards(browser):
    """A DATA! window: the uncalled Purpose has no play, and reading it adds no control."""
    state = find_state(seat_window("call_data"), variant="expert")
    table = FakeTable(state, seat=0, bots=False)
    context, page = open_table(browser, table, TABLET)
    for toggle in page.locator('[data-key^="info:"]').all():
        toggle.click()
        expect(page.locator(".tray--info .card-effect")).to_be_visible()
        toggle.click()
    assert offered_actions(page) == {key(a) for a in state.legal_actions(0)}
    # the uncalled Purpose's "call DATA!" badge describes its toggle, never names it:
    # "DATA!" stays one button
    assert page.locator('[data-key^="info:"]').count() > 0
    assert page.get_by_role("button", name="DATA!").count() == 1
    context.close()


SANCTION_WORDS = "If you accept: you lose all your Data-Treasures"


@pytest.mark.parametrize("language", ["en", "ru"])
def test_an_attack_prompt_says_what_happens_if_accepted(browser, language, artifacts_dir):
    pick = Picker()
    lawyer, sanction = pick("lawyer"), pick("sanction")
    purpose = pick("purpose")
    treasure = pick.many(6, colour="blue")
    state = arrange(
        players=2,
        hands={0: pick.many(2, colour="red"), 1: [sanction, *pick.many(2, colour="green")]},
        reserves={0: [lawyer]},
        treasures={0: [(purpose, treasure)]},
        table=pick.many(2, colour="yellow"),
        turn=1,
    )
    state.apply(1, {"type": "attack", "card": sanction, "target": 0})
    assert state.view(0)["window"]["kind"] == "counter"
    table = FakeTable(state, seat=0, bots=False, language=language)
    for name, viewport in (("phone", PHONE), ("tablet", TABLET)):
        context, page = open_table(browser, table, viewport)
        prompt = page.locator(".prompt")
        shown = prompt.locator(".prompt__card .card-effect")
        expect(shown).to_have_text(effect(sanction, language))
        if language == "en":
            expect(prompt.locator(".prompt__if")).to_have_text(
                SANCTION_WORDS + "; their cards go back to the deck."
            )
            expect(prompt.locator(".prompt__stop")).to_have_text("A Lawyer card stops it.")
        else:
            expect(prompt.locator(".prompt__if")).not_to_be_empty()
        # the controls are unchanged: one answer per legal action
        assert {
            key(json.loads(a))
            for a in page.eval_on_selector_all(
                ".prompt [data-action]", "els => els.map(e => e.dataset.action)"
            )
        } == {key(a) for a in state.legal_actions(0)}
        page.screenshot(path=artifacts_dir / f"sanction-{language}-{name}.png", full_page=True)
        assert page.errors == []
        context.close()


def test_an_attack_with_no_counter_in_hand_says_so(browser):
    pick = Picker()
    complaint = pick("complaint")
    state = arrange(
        players=2,
        hands={0: pick.many(2, colour="red"), 1: [complaint, pick("dataset", colour="green")]},
        collections={0: pick.many(4, colour="blue")},
        table=pick.many(2, colour="yellow"),
        turn=1,
    )
    state.apply(1, {"type": "attack", "card": complaint, "target": 0})
    table = FakeTable(state, seat=0, bots=False)
    context, page = open_table(browser, table, PHONE)
    expect(page.locator(".prompt__if")).to_have_text(
        "If you accept: 3 of your loose Dataset cards go back to the deck."
    )
    expect(page.locator(".prompt__stop")).to_have_text(
        "A Lawyer or a Consent card stops it. You have none."
    )
    context.close()


def progress_items(page):
    return page.locator(".panel--mine .progress__item").all_inner_texts()


def test_the_progress_line_counts_a_capture(browser, artifacts_dir):
    pick = Picker()
    hand_card, table_card = pick("dataset", colour="blue"), pick("dataset", colour="blue")
    state = arrange(
        players=2,
        variant="beginner",
        hands={0: [hand_card, pick("dataset", colour="red")], 1: pick.many(2, colour="green")},
        collections={0: [pick("dataset", colour="blue", sensitive=False)]},
        table=[table_card, pick("dataset", colour="yellow", sensitive=False)],
    )
    table = FakeTable(state, seat=0, bots=False)
    context, page = open_table(browser, table, PHONE)
    mine = page.locator(".panel--mine")
    expect(mine.locator(".progress__item").first).to_have_text("■ blue 1/6")
    expect(mine.locator(".progress__purpose")).to_have_text(
        "No Purpose kept: call DATA! when you draw one."
    )
    page.locator(f'.dt-cards--hand button[data-card="{hand_card}"]').click()
    page.locator(f'.dt-cards--table button[data-card="{table_card}"]').click()
    expect(mine.locator(".progress__item").first).to_have_text("■ blue 3/6")
    page.screenshot(path=artifacts_dir / "progress-phone.png", full_page=True)
    assert page.errors == []
    context.close()


def test_a_ready_treasure_is_announced_in_the_collection(browser, artifacts_dir):
    pick = Picker()
    purpose = pick("purpose")
    state = arrange(
        players=2,
        hands={0: pick.many(2, colour="red"), 1: pick.many(2, colour="green")},
        purposes={0: [purpose]},
        collections={0: pick.many(6, colour="blue")},
        table=pick.many(2, colour="yellow"),
    )
    table = FakeTable(state, seat=0, bots=False)
    context, page = open_table(browser, table, TABLET)
    mine = page.locator(".panel--mine")
    expect(mine.locator(".progress__item.is-ready").first).to_contain_text("blue 6/6")
    expect(mine.locator(".progress__purpose")).to_contain_text("Purpose kept:")
    expect(mine.locator(".progress__ready")).to_contain_text("You can build a Data-Treasure now")
    page.screenshot(path=artifacts_dir / "ready-tablet.png", full_page=True)
    context.close()


def test_frozen_cards_are_not_nothing(browser):
    """Only frozen cards in the collection: "Nothing collected yet." is not shown."""
    pick = Picker()
    state = arrange(
        players=2,
        hands={0: pick.many(2, colour="red"), 1: pick.many(2, colour="green")},
        frozen={0: pick.many(3, colour="blue")},
        table=pick.many(2, colour="yellow"),
    )
    table = FakeTable(state, seat=0, bots=False)
    context, page = open_table(browser, table, PHONE)
    mine = page.locator(".panel--mine")
    expect(mine.locator(".group--frozen")).to_be_visible()
    expect(mine).not_to_contain_text("Nothing collected yet.")
    context.close()


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("width", [390, 1024])
def test_screens_of_the_rules_at_hand(browser, language, width, artifacts_dir):
    """For a person to look at: a chosen card's tray and the progress, phone and tablet."""
    pick = Picker()
    purpose, breach = pick("purpose"), pick("databreach")
    state = arrange(
        players=3,
        hands={0: [pick("dataset", colour="blue"), pick("time"), breach]},
        hidden={0: [breach]},  # a breach not called in time: it cannot be played
        purposes={0: [purpose]},
        collections={0: [*pick.many(4, colour="blue"), *pick.many(2, colour="red")]},
        frozen={0: pick.many(2, colour="green")},
        table=[pick("dataset", colour="blue"), *pick.many(2, colour="yellow")],
    )
    table = FakeTable(state, seat=0, bots=False, language=language)
    context, page = open_table(browser, table, {"width": width, "height": 900})
    page.locator('.dt-cards--hand button[data-key^="hand:"]').first.click()
    expect(page.locator(".tray .card-effect")).to_be_visible()
    expect(page.locator(".panel--mine .progress__list")).to_contain_text("4/6")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    page.screenshot(path=artifacts_dir / f"rules-at-hand-{language}-{width}.png", full_page=True)
    violations = [
        (v["id"], [n["target"] for n in v["nodes"]])
        for v in Axe().run(page).response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert violations == []
    # a card that cannot be played, opened: axe-clean too (role="button", aria-pressed)
    page.locator('.dt-cards--hand [data-key^="hand:"][aria-pressed="true"]').click()
    page.locator(".dt-cards--hand [data-key^='info:']").first.click()
    expect(page.locator(".tray--info")).to_be_visible()
    page.screenshot(path=artifacts_dir / f"info-{language}-{width}.png", full_page=True)
    violations = [
        (v["id"], [n["target"] for n in v["nodes"]])
        for v in Axe().run(page).response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert violations == []
    assert page.errors == []
    context.close()


# --- Conspiranoia: the same kit, its own effects and its attack's stakes


@pytest.mark.parametrize("language", ["en", "ru"])
def test_conspiranoia_attack_says_what_the_hit_costs_and_cards_say_what_they_do(
    browser, language, artifacts_dir
):
    state = find_state(
        lambda s: seat_window("defence")(s) and s.hands[0],
        game="conspiranoia",
        variant="quick",
    )
    cards = state.game.cards(state.variant)
    effects = {c["id"]: c["effect"][language] for c in cards}
    table = FakeTable(state, seat=0, bots=False, language=language)
    context, page = open_table(browser, table, {"width": 390, "height": 844})
    points = state.view(0)["window"]["points"]
    if language == "en":
        unit = "point" if points == 1 else "points"
        expect(page.locator(".prompt .prompt__if")).to_contain_text(
            f"If you take the hit: you lose {points} life {unit}."
        )
    else:
        expect(page.locator(".prompt .prompt__if")).to_contain_text(str(points))
    # hand cards have no play of their own while defending: each opens its effect
    toggles = page.locator('.dt-cards--hand [data-key^="info:"]')
    assert toggles.count() == len(state.hands[0])
    card = toggles.first.get_attribute("data-card")
    toggles.first.click()
    expect(page.locator(".tray--info .card-effect")).to_have_text(effects[card])
    expect(page.locator(".tray--info [data-action]")).to_have_count(0)
    # the dock grew over the page: the answer box, its timer running, is scrolled clear
    # of it and of the sticky bar, its answers still in sight
    assert_answers_in_sight(page)
    page.screenshot(path=artifacts_dir / f"conspiranoia-{language}-390.png", full_page=True)
    assert page.errors == []
    context.close()


def test_a_data_tycoon_counter_stays_in_sight_when_a_card_is_opened(browser, artifacts_dir):
    """Attacked, on a phone: reading a hand card's effect leaves the answers in sight."""
    state = find_state(
        lambda s: seat_window("counter")(s) and len(s.hands[0]) >= 2, variant="expert"
    )
    table = FakeTable(state, seat=0, bots=False, language="ru")
    context, page = open_table(browser, table, {"width": 390, "height": 844})
    open_a_hand_card_under_a_prompt(page)
    page.screenshot(path=artifacts_dir / "counter-ru-390.png")  # the screen as seen
    assert page.errors == []
    context.close()


# A position where an answer box opens for seat 0: the game's window, where to find it.
ANSWER_BOXES: dict[str, tuple[Callable[[State], bool], dict[str, Any]]] = {
    "data_tycoon": (seat_window("counter"), {"variant": "expert"}),
    "data_thief": (seat_window("counter"), {"game": "data_thief", "seeds": range(400)}),
    "conspiranoia": (seat_window("defence"), {"game": "conspiranoia", "variant": "quick"}),
}


@pytest.mark.parametrize("scrolled", ["top", "bottom"])
@pytest.mark.parametrize("game", list(ANSWER_BOXES))
def test_an_answer_box_that_opens_on_a_phone_comes_into_sight(
    browser, game, scrolled, artifacts_dir
):
    """A window opens for this seat (its timer running) while the page lies at its top or
    was scrolled down to the boards: without a tap, its answers come into sight between
    the sticky bar and the hand's dock (at the top of a 390x844 page they lay under the
    dock)."""
    predicate, where = ANSWER_BOXES[game]
    table = FakeTable(find_state(predicate, **where), seat=0, bots=False, paused=True)
    context, page = open_table(browser, table, {"width": 390, "height": 844})
    expect(page.locator(".prompt button")).to_have_count(0)  # paused: no answer yet
    page.evaluate(f"window.scrollTo(0, {0 if scrolled == 'top' else 'document.body.scrollHeight'})")
    table.paused, table.version = False, table.version + 1
    table.broadcast(table.state_message())
    expect(page.locator(".prompt button").first).to_be_visible()
    assert_answers_in_sight(page)
    page.screenshot(path=artifacts_dir / f"{game}-{scrolled}-390.png")  # the screen as seen
    assert page.errors == []
    context.close()
