"""The Conspiranoia board (static/js/play/conspiranoia.js) against engine-made states.

No live server: tests/ui/harness.py serves the real templates and static files and
answers the table protocol from a real Conspiranoia state (quick variant, three seats,
positions found by the engine's bots). Each situation (choosing a character, a turn with
attacks, Avatar doubling, a Special Attack, heal or discard, an attack to answer,
waiting, the round's end, the game's end) must give exactly one control per legal
action and no other; a click sends that action unchanged; the projector shows no hand;
the board is keyboard playable, never shows colour alone and fits a 390 px phone in
every language. Screenshots at 390, 1024 and 1920 px go to
test-artifacts/screenshots/conspiranoia/ for a person to look at.
"""

import json
from pathlib import Path

import pytest
from playwright.sync_api import ConsoleMessage, expect

from tests.ui.harness import (
    FakeTable,
    action_key,
    offered_actions,
    panel_problems,
    scenario_states,
    seat_window,
    serve_page,
)

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
PROJECTOR = {"width": 1920, "height": 1080}
TIMEOUT = 10_000
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots" / "conspiranoia"


def types(legal):
    return {a["type"] for a in legal}


def doubled(legal):
    """An attack doubled by an Avatar card is among the legal actions."""
    return any(
        a["type"] in ("attack", "special_attack") and any(c >= "cp-37" for c in a["cards"])
        for a in legal
    )


def my_turn(predicate):
    """Seat 0 plays a turn (no window open) and its legal actions satisfy ``predicate``."""

    def holds(state):
        view = state.view(0)
        return (
            0 in state.to_move()
            and view["stage"] == "play"
            and not view["window"]
            and predicate(state.legal_actions(0))
        )

    return holds


SCENARIOS = {
    "choose": seat_window("choose"),
    "attack_doubled": my_turn(doubled),
    "attack_and_heal": my_turn(lambda la: {"attack", "heal"} <= types(la)),
    "special_attack": my_turn(lambda la: "special_attack" in types(la)),
    "discard_or_heal": my_turn(lambda la: {"discard", "heal"} <= types(la)),
    "discard": my_turn(lambda la: types(la) == {"discard"}),
    "defend": lambda s: seat_window("defence")(s) and "defend" in types(s.legal_actions(0)),
    "take_only": lambda s: seat_window("defence")(s) and types(s.legal_actions(0)) == {"take"},
    "waiting": lambda s: s.view(0)["stage"] == "play" and s.to_move() == [1],
    "others_attack": lambda s: (
        seat_window("defence", 1)(s) and s.view(0)["window"]["attacker"] == 2
    ),
    "round_end": lambda s: s.view(0)["stage"] == "round_end",
    "over": lambda s: s.is_over(),
}


@pytest.fixture(scope="module")
def states():
    return scenario_states(SCENARIOS, game="conspiranoia", variant="quick")


def open_table(browser, table, viewport=PHONE, role="seat"):
    context = browser.new_context(viewport=viewport, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    def console(msg: ConsoleMessage) -> None:
        if msg.type == "error":
            errors.append(msg.text)

    page.on("console", console)
    template = "games/play.html" if role == "seat" else "games/projector.html"
    serve_page(page, table, role=role, template=template)
    page.wait_for_selector(".board > section")
    page.errors = errors
    return context, page


def kit_key(action):
    """The kit's data-key of an action (kit.js's actionKey)."""
    return json.dumps([[k, action[k]] for k in sorted(action)], separators=(",", ":"))


def legal0(state):
    return state.legal_actions(0) if 0 in state.to_move() else []


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_each_situation_gives_one_control_per_legal_action(
    browser, states, scenario, artifacts_dir
):
    state = states(scenario)
    table = FakeTable(state, seat=0, bots=False)
    context, page = open_table(browser, table, PHONE)
    legal = {action_key(a) for a in legal0(state)}
    assert offered_actions(page, tray=("discard",)) == legal
    if not legal:  # waiting: nothing on the board is a control
        assert page.locator(".board button").count() == 0
    page.screenshot(path=artifacts_dir / f"{scenario}.png", full_page=True)
    assert page.errors == []
    context.close()


@pytest.mark.parametrize(
    "scenario", ["choose", "attack_doubled", "special_attack", "attack_and_heal", "defend"]
)
def test_a_click_sends_the_legal_action_unchanged(browser, states, scenario):
    state = states(scenario)
    table = FakeTable(state, seat=0, bots=False)
    context, page = open_table(browser, table, TABLET)
    legal = legal0(state)
    button = page.locator(".board [data-action]").last
    action = json.loads(button.get_attribute("data-action"))
    assert action in legal
    button.click()
    page.wait_for_function("document.querySelector('[data-slot=log]').children.length > 0")
    acts = [m for m in table.sent if m["type"] == "act"]
    assert acts == [{"type": "act", "version": 0, "action": action}]
    assert table.version == 1  # the engine took it
    assert page.errors == []
    context.close()


def test_the_turn_shows_whom_how_much_and_which_cards(browser, states):
    """A doubled attack's button names its target, its points, the Avatar and the cards."""
    state = states("attack_doubled")
    table = FakeTable(state, seat=0, bots=False, names=["Ann", "Bob", "Robo"])
    context, page = open_table(browser, table, TABLET)
    view = state.view(0)
    action = next(a for a in legal0(state) if any(c >= "cp-37" for c in a["cards"]))
    text = page.locator(f"[data-key='{kit_key(action)}']").inner_text()
    name = ["Ann", "Bob", "Robo"][action["target"]]
    assert name in text and f"{action['points']} points" in text
    assert "doubled by your Avatar" in text
    assert ("from your hand" in text) and (
        ("from the table" in text) == any(c in view["table"] for c in action["cards"])
    )
    # the turn bar: whose turn, the round, the dealer
    expect(page.locator(".turnbar__turn")).to_have_text("Your turn")
    expect(page.locator("[data-fact=dealer]")).to_have_text(["Ann", "Bob", "Robo"][view["dealer"]])
    expect(page.locator("[data-fact=round]")).to_have_text(f"{view['round']} / 30")
    context.close()


def test_an_attack_against_me_offers_each_defence_and_take(browser, states):
    state = states("defend")
    window = state.view(0)["window"]
    table = FakeTable(state, seat=0, bots=False, names=["Ann", "Bob", "Robo"])
    context, page = open_table(browser, table, PHONE)
    prompt = page.locator(".prompt")
    attacker = ["Ann", "Bob", "Robo"][window["attacker"]]
    expect(prompt.locator(".prompt__text")).to_have_text(
        f"{attacker} attacks you: {window['points']} points!"
    )
    expect(prompt.locator("[data-card]")).to_have_count(len(window["cards"]))
    defends = [a for a in legal0(state) if a["type"] == "defend"]
    expect(prompt.locator("button[data-action]")).to_have_count(len(defends) + 1)
    expect(prompt.get_by_role("button", name="Take the hit")).to_be_visible()
    expect(page.locator(".turnbar__turn")).to_have_text("Answer now")
    # Take the hit, by keyboard
    prompt.get_by_role("button", name="Take the hit").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('[data-slot=log]').children.length > 0")
    assert [m["action"] for m in table.sent if m["type"] == "act"] == [{"type": "take"}]
    context.close()


def test_others_see_who_attacks_whom_and_wait(browser, states):
    state = states("others_attack")
    window = state.view(0)["window"]
    table = FakeTable(state, seat=0, bots=False, names=["Ann", "Bob", "Robo"])
    context, page = open_table(browser, table, PHONE)
    panel = page.locator(".cp-window")
    expect(panel.locator(".cp-window__text")).to_have_text(
        f"Robo attacks Bob: {window['points']} points."
    )
    expect(panel).to_contain_text("Bob may defend with Defence cards, or take the hit.")
    expect(page.locator(".turnbar__turn")).to_have_text("Waiting for Bob to answer.")
    assert page.locator(".board button").count() == 0
    context.close()


def test_discard_by_keyboard_from_the_hand(browser, states):
    """Tab to a hand card, Enter opens its tray with focus in it, Enter discards it."""
    state = states("discard")
    table = FakeTable(state, seat=0, bots=False)
    context, page = open_table(browser, table, PHONE)
    first = state.view(0)["hand"][0]
    card = page.locator(f'.dt-cards--hand button[data-card="{first}"]')
    card.focus()
    page.keyboard.press("Enter")
    expect(card).to_have_attribute("aria-pressed", "true")
    focused = json.loads(page.evaluate("document.activeElement.dataset.action"))
    assert focused == {"type": "discard", "card": first}
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('[data-slot=log]').children.length > 0")
    assert [m["action"] for m in table.sent if m["type"] == "act"] == [focused]
    context.close()


def test_every_player_shows_character_life_hand_and_dealer(browser, states):
    state = states("attack_and_heal")
    view = state.view(0)
    table = FakeTable(state, seat=None, bots=False, names=["Ann", "Bob", "Robo"])
    context, page = open_table(browser, table, PROJECTOR, role="spectator")
    panels = page.locator(".panel--player")
    expect(panels).to_have_count(3)
    assert len(view["players"]) == 3
    for p in view["players"]:
        panel = page.locator(f".panel--player[data-seat='{p['seat']}']")
        character = table.cards[p["character_card"]]["name"]["en"].split(": ")[1]
        expect(panel.locator(".cp-character")).to_have_text(character)
        expect(panel.locator(".cp-life__text")).to_have_text(f"Life: {p['life']} / 15")
        count = p["hand_count"]
        expect(panel.locator(".player__counts")).to_have_text(
            f"{count} card in hand" if count == 1 else f"{count} cards in hand"
        )
        expect(panel.locator(".cp-badge--dealer")).to_have_count(1 if p["dealer"] else 0)
    context.close()


@pytest.mark.parametrize("scenario", ["others_attack", "attack_and_heal", "choose", "over"])
def test_the_projector_shows_no_hand_and_no_control(browser, states, scenario, artifacts_dir):
    state = states(scenario)
    table = FakeTable(state, seat=None, bots=False)
    context, page = open_table(browser, table, PROJECTOR, role="spectator")
    expect(page.locator(".panel--hand")).to_have_count(0)
    assert page.locator("[data-action], .board button").count() == 0
    shown = set(page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
    for seat in range(state.n):
        assert not shown & set(state.private_cards(seat)), f"seat {seat}'s hand is shown"
    expect(page.locator(".panel--player")).to_have_count(3)
    if scenario == "others_attack":
        expect(page.locator(".cp-window__text")).to_contain_text("attacks")
    page.screenshot(path=artifacts_dir / f"projector-{scenario}.png")
    assert panel_problems(page) == []
    assert page.errors == []
    context.close()


def test_the_end_screen(browser, states):
    state = states("over")
    result = state.result()
    table = FakeTable(state, seat=0, bots=False)
    context, page = open_table(browser, table, PHONE)
    end = page.locator(".panel--end")
    expect(end).to_be_visible()
    expect(end).to_be_focused()
    expect(page.locator(".ranking tbody tr")).to_have_count(3)
    expect(page.locator(".ranking thead th")).to_have_text(
        ["Rank", "Player", "Life points", "Rounds", "Damage dealt", "Attacks defended"]
    )
    decided = page.locator(".end__decided")
    expect(decided).to_have_attribute("data-decided-by", result["decided_by"])
    expect(decided).not_to_be_empty()
    assert page.locator("[data-action]").count() == 0
    context.close()


def test_cards_and_life_never_rely_on_colour(browser, states):
    """Every card shows its figure, its name and its value; life is written as a number."""
    state = states("attack_and_heal")
    table = FakeTable(state, seat=0, bots=False)
    context, page = open_table(browser, table, PHONE)
    cards = page.eval_on_selector_all(
        ".dt-card",
        """els => els.map(e => ({
            id: e.dataset.card,
            figure: getComputedStyle(e.querySelector('.dt-card__icon')).backgroundImage,
            label: (e.querySelector('.dt-card__label') || {}).textContent || '',
            shape: (e.querySelector('.dt-card__shape') || {}).textContent || '',
        }))""",
    )
    assert len(cards) >= 7  # the hand, the table, the character cards are not .dt-card
    for card in cards:
        assert "data:image/svg+xml" in card["figure"], card
        assert card["label"].strip() and card["shape"].strip(), card
    figures = page.eval_on_selector_all(
        ".cp-figure", "els => els.map(e => getComputedStyle(e).backgroundImage)"
    )
    assert len(figures) == 3 and all("data:image/svg+xml" in f for f in figures)
    context.close()


@pytest.mark.parametrize("language", ["en", "es", "fr", "ru"])
def test_a_390px_phone_fits_in_every_language(browser, states, language):
    for scenario in ("attack_doubled", "defend", "others_attack"):
        table = FakeTable(states(scenario), seat=0, bots=False, language=language)
        context, page = open_table(browser, table, PHONE)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], scenario
        first = states(scenario).view(0)["table"][0]
        name = table.cards[first]["name"][language]
        label = page.locator(f'.dt-cards--table [data-card="{first}"] .dt-card__label')
        assert label.inner_text().strip() in name
        assert page.errors == []
        context.close()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_screenshots_at_three_sizes(browser, states, language):
    """Seat and projector at 390, 1024 and 1920 px, for a person to look at."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    sizes = {"390": PHONE, "1024": TABLET, "1920": PROJECTOR}
    for scenario in ("attack_doubled", "defend", "others_attack", "over"):
        state = states(scenario)
        for width, viewport in sizes.items():
            for role, seat in (("seat", 0), ("spectator", None)):
                if seat is None and scenario in ("defend", "attack_doubled"):
                    continue
                table = FakeTable(state, seat=seat, bots=False, language=language)
                context, page = open_table(browser, table, viewport, role=role)
                assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
                full = width == "390"
                name = f"{scenario}-{'seat' if seat == 0 else 'projector'}-{width}-{language}.png"
                page.screenshot(path=SHOTS / name, full_page=full)
                assert page.errors == []
                context.close()
