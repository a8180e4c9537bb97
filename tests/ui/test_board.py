"""The Data-Tycoon browser client against engine-made states, in Chromium.

No live server: tests/ui/harness.py serves the real templates and static files and
answers the table protocol from a real engine state. Each test checks the DOM against
the protocol's contract: one control per legal action and no other, nothing of another
seat's hand, keyboard operation, the end screen. Screenshots of every situation go to
test-artifacts/<test>/ for a person to look at.
"""

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.data_tycoon.views import catalogue
from tests.ui import harness
from tests.ui.harness import FakeTable, find_state, seat_window

pytestmark = [pytest.mark.browser]

CATALOGUE = catalogue("expert")
PHONE = {"width": 360, "height": 740}
TABLET = {"width": 1024, "height": 768}
PROJECTOR = {"width": 1280, "height": 720}


def open_table(browser, table, viewport=PHONE, role="seat", template="games/play.html"):
    return harness.open_table(browser, table, viewport, role=role, template=template)


def key(action):
    return json.dumps(sorted(action.items()))


def actions_on_page(page):
    return page.eval_on_selector_all("[data-action]", "els => els.map(e => e.dataset.action)")


def offered_actions(page):
    """Every action a control on the page would send, after choosing each hand card."""
    offered = set()
    for raw in actions_on_page(page):
        offered.add(key(json.loads(raw)))
    hand = page.locator(".dt-cards--hand button.dt-card")
    for i in range(hand.count()):
        hand.nth(i).click()
        for raw in actions_on_page(page):
            offered.add(key(json.loads(raw)))
        hand.nth(i).click()  # unselect
    return offered


def has_action(state, kind):
    return 0 in state.to_move() and any(a["type"] == kind for a in state.legal_actions(0))


def legal0(state):
    return state.legal_actions(0) if 0 in state.to_move() else []


def kind_of(card_id):
    return CATALOGUE[card_id]["kind"]


def attack(state):
    return state.view(0)["window"]["attack"]


SCENARIOS = {
    "first_turn": lambda s: s.ply == 0,
    "call_data": seat_window("call_data"),
    "call_databreach": seat_window("call_databreach"),
    "counter": lambda s: seat_window("counter")(s) and attack(s) != "databreach",
    "breach_counter": lambda s: seat_window("counter")(s) and attack(s) == "databreach",
    "freeze": seat_window("freeze"),
    "loss": seat_window("loss"),
    "build": lambda s: 0 in s.to_move() and any(a["type"] == "build" for a in s.legal_actions(0)),
    "split": lambda s: has_action(s, "split"),
    "after_play": lambda s: has_action(s, "end_turn"),
    "attack": lambda s: has_action(s, "attack"),
    "discard": lambda s: has_action(s, "discard"),
    "keep_consent": lambda s: any(
        a["type"] == "keep" and kind_of(a["card"]) == "consent" for a in legal0(s)
    ),
    "transparency": lambda s: any("hand" in p for p in s.view(0)["players"][1:]),
    "rich": lambda s: (
        len(s.view(0)["players"][0]["collection"]) >= 10
        and s.view(0)["players"][0]["treasures"]
        and 0 in s.to_move()
        and s.view(0)["hand"]
    ),
    "over": lambda s: s.is_over(),
}

BOT = {"freeze": "random", "loss": "random"}


@pytest.fixture(scope="module")
def states():
    cache = {}

    def get(name):
        if name not in cache:
            bot = BOT.get(name, "heuristic")
            cache[name] = find_state(SCENARIOS[name], variant="expert", bot=bot)
        return cache[name]

    return get


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_controls_are_exactly_the_legal_actions(browser, states, scenario, artifacts_dir):
    state = states(scenario)
    table = FakeTable(state, seat=0, bots=False)
    for name, viewport in (("phone", PHONE), ("tablet", TABLET)):
        context, page = open_table(browser, table, viewport)
        legal = {key(a) for a in state.legal_actions(0)} if 0 in state.to_move() else set()
        assert offered_actions(page) == legal
        page.screenshot(path=artifacts_dir / f"{scenario}-{name}.png", full_page=True)
        assert page.errors == []
        context.close()


@pytest.mark.parametrize("scenario", ["transparency", "rich", "over"])
def test_projector_shows_the_public_view_only(browser, states, scenario, artifacts_dir):
    state = states(scenario)
    table = FakeTable(state, seat=None, bots=False)
    context, page = open_table(
        browser, table, PROJECTOR, role="spectator", template="games/projector.html"
    )
    shown = set(page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
    for seat in range(state.n):
        hidden = set(state.private_cards(seat))
        assert not (shown & hidden), f"seat {seat}'s private cards on the projector"
    assert page.locator("[data-action]").count() == 0
    page.wait_for_timeout(300)  # the board fitted to the screen (client.js)
    page.screenshot(path=artifacts_dir / f"projector-{scenario}.png", full_page=False)
    # every panel whole and on the screen, none under the log (the end screen included)
    assert harness.panel_problems(page) == []
    assert page.errors == []
    context.close()


def test_no_other_seats_private_cards(browser, states):
    state = states("transparency")
    table = FakeTable(state, seat=0, bots=False)
    context, page = open_table(browser, table, TABLET)
    shown = set(page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
    for seat in range(1, state.n):
        assert not (shown & set(state.private_cards(seat)))
    # Transparency: the revealed hand is shown, and is public
    revealed = [c for p in state.view(0)["players"][1:] for c in p.get("hand", [])]
    assert revealed and set(revealed) <= shown
    context.close()


def test_capture_by_keyboard(browser, states):
    """Tab to a hand card, Enter, focus lands on a capturable table card, Enter captures."""

    def can_capture(s):
        return s.ply == 0 and any(a.get("capture") for a in s.legal_actions(0))

    state = find_state(can_capture, variant="beginner")
    table = FakeTable(state, seat=0, bots=False)
    context, page = open_table(browser, table, PHONE)
    capture = next(a for a in state.legal_actions(0) if a.get("capture"))
    hand_card = page.locator(f'.dt-cards--hand button[data-card="{capture["card"]}"]')
    hand_card.focus()
    page.keyboard.press("Enter")
    expect(hand_card).to_have_attribute("aria-pressed", "true")
    focused = page.evaluate("document.activeElement.dataset.action")
    assert json.loads(focused)["card"] == capture["card"]
    assert json.loads(focused).get("capture")
    # Escape puts the card back, with focus on it; Enter chooses it again
    page.keyboard.press("Escape")
    expect(hand_card).to_have_attribute("aria-pressed", "false")
    expect(hand_card).to_be_focused()
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('[data-slot=log]').children.length > 3")
    acts = [m for m in table.sent if m["type"] == "act"]
    assert acts and acts[0]["version"] == 0 and acts[0]["action"]["card"] == capture["card"]
    assert page.errors == []
    context.close()


def test_full_game_by_clicking_against_bots(browser, artifacts_dir):
    """A whole beginner game, the page's buttons clicked, the bots answering at once."""
    state = get_new_state()
    table = FakeTable(state, seat=0, bots=True)
    context, page = open_table(browser, table, PHONE)
    table.run_others()
    for _ in range(400):
        if page.locator(".panel--end").count():
            break
        click_something(page)
    expect(page.locator(".panel--end")).to_be_visible()
    expect(page.locator(".ranking tbody tr")).to_have_count(3)
    assert state.is_over()
    decided = state.result()["decided_by"]
    expect(page.locator(".end__decided")).to_have_attribute("data-decided-by", decided)
    page.screenshot(path=artifacts_dir / "end-phone.png", full_page=True)
    assert page.errors == []
    context.close()


def get_new_state():
    return find_state(lambda s: True, variant="beginner")


def click_something(page):
    """Click one legal control: a call, a prompt button, a build, else a hand card's play."""
    page.wait_for_function("!document.querySelector('#game').classList.contains('is-busy')")
    for selector in (".prompt button[data-action]", ".free-actions button[data-action]"):
        button = page.locator(selector)
        if button.count():
            button.first.click()
            return
    hand = page.locator(".dt-cards--hand button.dt-card")
    if hand.count():
        hand.first.click()
        target = page.locator(".dt-cards--table button.is-target, .tray button[data-action]")
        target.first.click()
        return
    page.wait_for_timeout(50)


@pytest.mark.parametrize("language", ["en", "es", "fr", "ru"])
def test_phone_layout_fits_in_every_language(browser, states, language, artifacts_dir):
    """Card names in the session's language; nothing wider than a 360 px phone."""
    state = states("rich")
    table = FakeTable(state, seat=0, bots=False, language=language)
    context, page = open_table(browser, table, PHONE)
    first = state.view(0)["hand"][0]
    name = table.cards[first]["name"][language]
    card = page.locator(f'.dt-cards--hand [data-card="{first}"]')
    parts = card.locator(".dt-card__name > span").all_inner_texts()
    assert parts
    for part in parts:
        assert part.strip() in name
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=artifacts_dir / f"rich-{language}.png", full_page=True)
    assert page.errors == []
    context.close()


SHAPES = {"●", "■", "▲", "◆", "★"}


@pytest.mark.parametrize("scenario", ["rich", "transparency", "over"])
def test_colour_is_never_the_only_cue(browser, states, scenario):
    """Every card shows an icon that exists in the sprite and its name; a coloured card
    also shows its colour's shape, and a Dataset card its colour's name."""
    sprite = (Path(__file__).resolve().parents[2] / "static/img/cards.svg").read_text()
    symbols = set(re.findall(r'<symbol id="([^"]+)"', sprite))
    table = FakeTable(states(scenario), seat=0, bots=False)
    context, page = open_table(browser, table, PHONE)
    cards = page.eval_on_selector_all(
        ".dt-card",
        """els => els.map(e => ({
            cls: e.className,
            icons: [...e.querySelectorAll('.dt-card__icon use')].map(u => u.getAttribute('href')),
            label: (e.querySelector('.dt-card__label') || {}).textContent || '',
            shape: (e.querySelector('.dt-card__shape') || {}).textContent || '',
            colour: (e.querySelector('.dt-card__colour') || {}).textContent || '',
        }))""",
    )
    assert len(cards) >= 5
    for card in cards:
        assert len(card["icons"]) == 1 and card["icons"][0].split("#")[1] in symbols, card
        assert card["label"].strip(), card
        if "colour-" in card["cls"]:
            assert card["shape"] in SHAPES, card
            if "dt-card--dataset" in card["cls"]:
                assert card["colour"].strip(), card
    # the colour counts of a collection: a shape and a colour name beside each swatch
    tags = page.eval_on_selector_all(".colour-tag", "els => els.map(e => e.textContent)")
    assert tags or scenario != "rich"
    for tag in tags:
        assert tag[0] in SHAPES and re.search(r"[a-z]+ \u00d7 \d+", tag), tag
    assert page.errors == []
    context.close()
