"""The Data Thief board (static/js/play/data_thief.js) against engine-made states.

No live server: tests/ui/harness.py serves the real templates and static files and
answers the table protocol from a real Data Thief state (three seats: two data managers,
seat 2 the thief; positions found by the engine's bots). Each situation gives exactly
one control per legal action and no other; the thief chooses an attack card and the
boards it may target light up, each with its one "Attack …" button; a manager answers
an attack (counter or let it pass), lays data then a measure that the other seats see
only as a back; the thief chooses the data to take; the board fits a 390 px phone and
is axe-clean. Screenshots at 390, 1024 and 1920 px go to
test-artifacts/screenshots/data_thief/ for a person to look at.
"""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.data_thief.cards import BY_ID, KIND
from tests.ui.harness import (
    FakeTable,
    action_key,
    acts,
    axe_serious,
    controls,
    find_state,
    legal_of,
    offered_actions,
    open_a_hand_card_under_a_prompt,
    open_table,
    panel_problems,
    scenario_states,
    seat_window,
    wait_for_move,
)

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
PROJECTOR = {"width": 1920, "height": 1080}
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots" / "data_thief"
NAMES = ["Ann", "Bob", "Robo"]
THIEF = 2


def types(legal):
    return {a["type"] for a in legal}


def turn_of(seat, predicate):
    """``seat`` plays a turn (no window open) and its legal actions satisfy ``predicate``."""

    def holds(state):
        return seat in state.to_move() and not state.window and predicate(state.legal_actions(seat))

    return holds


def lays_both(legal):
    """A data card and a measure may both be laid."""
    kinds = {KIND[a["card"]] for a in legal if a["type"] == "lay"}
    return kinds == {"data", "measure"}


def two_targets(legal):
    """One attack card of the hand may target two boards."""
    attacks = [a for a in legal if a["type"] == "attack"]
    return any(sum(1 for b in attacks if b["card"] == a["card"]) >= 2 for a in attacks)


SCENARIOS = {
    "thief_attack": turn_of(THIEF, two_targets),
    "thief_discard": turn_of(THIEF, lambda la: types(la) == {"discard"}),
    "manager_lay": turn_of(0, lays_both),
    "manager_discard": turn_of(0, lambda la: types(la) == {"discard"}),
    "counter": seat_window("counter", 0),
    "steal": seat_window("steal", THIEF),
    "waiting": lambda s: s.to_move() == [1] and not s.window and s.round >= 3,
    "over": lambda s: s.is_over(),
}
SEAT = {"thief_attack": THIEF, "thief_discard": THIEF, "steal": THIEF}


@pytest.fixture(scope="module")
def states():
    return scenario_states(SCENARIOS, game="data_thief", seeds=range(400))


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_each_situation_gives_one_control_per_legal_action(
    browser, states, scenario, artifacts_dir
):
    state = states(scenario)
    seat = SEAT.get(scenario, 0)
    table = FakeTable(state, seat=seat, bots=False, names=NAMES)
    context, page = open_table(browser, table, PHONE)
    page.screenshot(path=artifacts_dir / f"{scenario}.png", full_page=True)
    # A turn's plays are behind the hand cards: nothing to click before choosing one.
    assert controls(page) == [] or page.locator(".dt-cards--hand button.dt-card").count() == 0
    assert offered_actions(page) == {action_key(a) for a in legal_of(state, seat)}
    if not legal_of(state, seat):
        assert page.locator(".board button").count() == 0
    assert page.errors == []
    context.close()


def test_the_thief_chooses_a_card_then_a_highlighted_board(browser, states):
    """The thief's hand shows each attack's stake; choosing one lights the boards it
    may target, and the board's button, reached by keyboard, sends the attack."""
    state = states("thief_attack")
    table = FakeTable(state, seat=THIEF, bots=False, names=NAMES)
    context, page = open_table(browser, table, PHONE)
    hand = state.view(THIEF)["hand"]
    expect(page.locator(".dt-cards--hand .dt-card")).to_have_count(len(hand))
    expect(page.locator(".dth-role")).to_contain_text("You are the thief")
    for card in hand:
        expect(page.locator(f'.dt-cards--hand [data-card="{card}"] .dth-stake')).to_be_visible()
    assert page.locator(".dth-board.is-target").count() == 0
    legal = state.legal_actions(THIEF)
    card = next(
        a["card"] for a in legal if two_targets([b for b in legal if b["card"] == a["card"]])
    )
    targets = [a for a in legal if a["type"] == "attack" and a["card"] == card]
    toggle = page.locator(f'.dt-cards--hand button[data-card="{card}"]')
    toggle.focus()
    page.keyboard.press("Enter")
    expect(page.locator(".dth-board.is-target")).to_have_count(len(targets))
    name = BY_ID[card]["name"]["en"]
    first = targets[0]
    board = f"{NAMES[first['target']]}'s {first['board']} board"
    button = page.get_by_role("button", name=f"Attack {board} with {name}")
    expect(button).to_be_focused()
    # the attack's effect is in the tray: what it steals and which measures stop it
    expect(page.locator(".tray .card-effect")).to_contain_text("Stopped by")
    page.keyboard.press("Enter")
    wait_for_move(page, table)
    assert acts(table) == [first]
    assert page.errors == []
    context.close()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_counter_stays_in_sight_when_a_hand_card_is_opened(
    browser, states, language, artifacts_dir
):
    """Attacked, on a phone: reading a hand card's effect (the hand's dock grows) leaves
    the answers, their timer running, in sight."""
    state = states("counter")
    table = FakeTable(state, seat=0, bots=False, names=NAMES, language=language)
    context, page = open_table(browser, table, PHONE)
    open_a_hand_card_under_a_prompt(page)
    page.screenshot(path=artifacts_dir / f"counter-{language}-390.png")  # the screen as seen
    assert page.errors == []
    context.close()


def test_the_attacked_manager_counters_or_lets_it_pass(browser, states):
    state = states("counter")
    window = state.view(0)["window"]
    table = FakeTable(state, seat=0, bots=False, names=NAMES)
    context, page = open_table(browser, table, PHONE)
    counters = [a for a in state.legal_actions(0) if a["type"] == "counter"]
    attack = BY_ID[window["attack"]]["name"]["en"]
    prompt = page.locator(".prompt")
    text = prompt.locator(".prompt__text")
    expect(text).to_contain_text(f"The thief attacks your {window['board']} board with {attack}")
    if len(counters) == 1:
        measure = BY_ID[counters[0]["card"]]["name"]["en"]
        expect(text).to_contain_text(f"counter with {measure}?")
    expect(prompt.locator(".prompt__if")).to_contain_text("If you let it pass")
    expect(page.locator(".turnbar__turn")).to_have_text("Answer now")
    expect(page.locator(".dth-board.is-attacked")).to_have_count(1)
    # counter by keyboard
    measure = BY_ID[counters[0]["card"]]["name"]["en"]
    prompt.get_by_role("button", name=f"Counter with {measure}").focus()
    page.keyboard.press("Enter")
    wait_for_move(page, table)
    assert acts(table) == [counters[0]]
    context.close()
    # the same window, let pass
    state = states("counter")
    table = FakeTable(state, seat=0, bots=False, names=NAMES)
    context, page = open_table(browser, table, TABLET)
    page.get_by_role("button", name="Let it pass").click()
    wait_for_move(page, table)
    assert acts(table) == [{"type": "accept"}]
    # the thief's page meanwhile: who is attacked, no control
    context.close()
    state = states("counter")
    table = FakeTable(state, seat=THIEF, bots=False, names=NAMES)
    context, page = open_table(browser, table, PHONE)
    expect(page.locator(".dth-window__text")).to_contain_text(
        f"The thief attacks Ann's {window['board']} board with {attack}"
    )
    expect(page.locator(".turnbar__turn")).to_have_text("Waiting for Ann to answer.")
    assert page.locator("[data-action]").count() == 0
    context.close()


def test_the_thief_chooses_the_data_to_take(browser, states):
    state = states("steal")
    table = FakeTable(state, seat=THIEF, bots=False, names=NAMES)
    context, page = open_table(browser, table, PHONE)
    steals = state.legal_actions(THIEF)
    prompt = page.locator(".prompt")
    expect(prompt.locator(".prompt__text")).to_contain_text("succeeds")
    expect(prompt.locator("[data-action]")).to_have_count(len(steals))
    choice = steals[-1]
    card = BY_ID[choice["card"]]
    name = f"Take {card['name']['en']} ({card['points']} points)"
    button = prompt.get_by_role("button", name=name)
    button.click()
    wait_for_move(page, table)
    assert acts(table) == [choice]
    assert page.errors == []
    context.close()


def test_a_manager_lays_data_then_a_measure_the_others_never_see(browser, states):
    state = states("manager_lay")
    lays = state.legal_actions(0)
    data = next(a for a in lays if a["type"] == "lay" and KIND[a["card"]] == "data")
    table = FakeTable(state, seat=0, bots=False, names=NAMES)
    context, page = open_table(browser, table, PHONE)
    page.locator(f'.dt-cards--hand button[data-card="{data["card"]}"]').click()
    label = f"Lay it on your {data['board']} board"
    page.locator(".tray").get_by_role("button", name=label).click()
    wait_for_move(page, table)
    mine = page.locator(f'.dth-board[data-owner="0"][data-board="{data["board"]}"]')
    expect(mine.locator(f'[data-card="{data["card"]}"]')).to_be_visible()
    context.close()
    # then a measure, on the next turn of the same seat: the engine lets the others play
    state = table.state
    while 0 not in state.to_move() or state.window:
        seat = state.to_move()[0] if state.to_move() else None
        legal = state.legal_actions(seat)
        state.apply(seat, legal[0])
    measure = next(
        (a for a in state.legal_actions(0) if a["type"] == "lay" and KIND[a["card"]] == "measure"),
        None,
    )
    if measure is None:  # the deck gave no measure that fits: lay one from a known state
        state = states("manager_lay")
        measure = next(a for a in lays if a["type"] == "lay" and KIND[a["card"]] == "measure")
    state.apply(0, measure)
    measure_name = BY_ID[measure["card"]]["name"]["en"]
    # the owner sees which measure, face down
    table = FakeTable(state, seat=0, bots=False, names=NAMES)
    context, page = open_table(browser, table, PHONE)
    own = page.locator(f'.dth-board[data-owner="0"] [data-card="{measure["card"]}"]')
    expect(own).to_contain_text("face down (only you see it)")
    context.close()
    # every other page shows a back, and never the measure's name
    for seat in (1, THIEF, None):
        table = FakeTable(state, seat=seat, bots=False, names=NAMES)
        role = "seat" if seat is not None else "spectator"
        template = "games/play.html" if seat is not None else "games/projector.html"
        context, page = open_table(browser, table, TABLET, role=role, template=template)
        board = page.locator(f'.dth-board[data-owner="0"][data-board="{measure["board"]}"]')
        expect(board.locator("[data-back=measure]")).not_to_have_count(0)
        shown = set(page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
        for other in range(state.n):
            if other != seat:
                assert not shown & set(state.private_cards(other)), (seat, other)
        board_text = page.locator(".board").inner_text()
        if measure_name not in " ".join(
            BY_ID[c]["name"]["en"] for c in shown
        ):  # the same measure may be face up elsewhere (a discard)
            assert measure_name not in board_text, seat
        assert page.errors == []
        context.close()


def test_everyone_sees_scores_rounds_and_loot(browser, states):
    state = states("waiting")
    view = state.view(None)
    table = FakeTable(state, seat=None, bots=False, names=NAMES)
    context, page = open_table(
        browser, table, PROJECTOR, role="spectator", template="games/projector.html"
    )
    expect(page.locator("[data-fact=round]")).to_have_text(f"{view['round']} / {view['rounds']}")
    expect(page.locator(".dth-manager")).to_have_count(2)
    loot = len(view["loot"])
    expect(page.locator("[data-fact=loot]")).to_contain_text(f"Loot: {loot} data card")
    for seat in (0, 1):
        points = view["scores"][seat]["points"]
        expect(page.locator(f'.dth-manager[data-seat="{seat}"] .scoreline')).to_contain_text(
            f"{points} point"
        )
    assert page.locator("[data-action], .board button").count() == 0
    assert page.errors == []
    context.close()


def test_the_end_screen(browser, states):
    state = states("over")
    table = FakeTable(state, seat=0, bots=False, names=NAMES)
    context, page = open_table(browser, table, PHONE)
    expect(page.locator(".panel--end")).to_be_focused()
    expect(page.locator(".ranking tbody tr")).to_have_count(3)
    expect(page.locator(".end__decided")).not_to_be_empty()
    assert page.locator("[data-action]").count() == 0
    # turns still to miss when the game ended are no longer said: no turn comes
    assert any(p["skips"] for p in state.view(0)["players"])
    expect(page.get_by_text("more turn")).to_have_count(0)
    context.close()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_390px_phone_fits_and_is_axe_clean(browser, states, language):
    for scenario, seat in (("thief_attack", THIEF), ("counter", 0), ("manager_lay", 0)):
        table = FakeTable(states(scenario), seat=seat, bots=False, language=language, names=NAMES)
        context, page = open_table(browser, table, PHONE)
        hand = page.locator(".dt-cards--hand button.dt-card")
        if hand.count():  # a card chosen: its tray and the boards it lights up
            hand.first.click()
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, scenario
        small = page.evaluate(
            """() => [...document.querySelectorAll('.board *')].filter(e =>
                [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())
                && e.offsetParent !== null && parseFloat(getComputedStyle(e).fontSize) < 12
                && !e.closest('.visually-hidden')).map(e => e.className + ':' + e.textContent)"""
        )
        assert small == [], (scenario, small)
        assert axe_serious(page) == [], scenario
        assert page.errors == []
        context.close()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_screenshots_at_three_sizes(browser, states, language):
    """Seat and projector at 390, 1024 and 1920 px, for a person to look at."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    sizes = {"390": PHONE, "1024": TABLET, "1920": PROJECTOR}
    for scenario in ("thief_attack", "counter", "manager_lay", "over"):
        state = states(scenario)
        for width, viewport in sizes.items():
            for role, seat in (("seat", SEAT.get(scenario, 0)), ("spectator", None)):
                if seat is None and scenario not in ("thief_attack", "over"):
                    continue
                table = FakeTable(state, seat=seat, bots=False, language=language, names=NAMES)
                template = "games/play.html" if seat is not None else "games/projector.html"
                context, page = open_table(browser, table, viewport, role=role, template=template)
                if scenario == "thief_attack" and seat is not None:
                    page.locator(".dt-cards--hand button.dt-card").first.click()
                assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
                name = f"{scenario}-{role}-{width}-{language}.png"
                page.screenshot(path=SHOTS / name, full_page=width == "390")
                if seat is None and width != "390":  # the ranking at the top, nothing hidden
                    assert panel_problems(page) == [], name
                assert page.errors == []
                context.close()


def test_five_players_on_the_projector(browser):
    """Four managers side by side at 1920 px: every board's cards inside its board."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    state = find_state(
        lambda s: s.round >= 5 and sum(len(s.board_cards(m)) for m in s.managers()) >= 10,
        game="data_thief",
        players=5,
    )
    table = FakeTable(state, seat=None, bots=False, names=["Ann", "Bob", "Cy", "Dee", "Robo"])
    context, page = open_table(
        browser, table, PROJECTOR, role="spectator", template="games/projector.html"
    )
    expect(page.locator(".dth-manager")).to_have_count(4)
    outside = page.evaluate(
        """() => [...document.querySelectorAll('.dth-slots > *')].filter(card => {
            const board = card.closest('.dth-board').getBoundingClientRect();
            const box = (card.querySelector('.dt-card') || card).getBoundingClientRect();
            return box.right > board.right + 1 || box.left < board.left - 1;
        }).length"""
    )
    assert outside == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= PROJECTOR["width"]
    page.screenshot(path=SHOTS / "five-players-projector-1920-en.png")
    assert page.errors == []
    context.close()


def test_an_expert_thief_takes_a_whole_category(browser):
    """Expert variant: the thief chooses a category, every data card of it goes."""
    state = find_state(
        lambda s: seat_window("steal", THIEF)(s) and len(s.legal_actions(THIEF)) >= 2,
        game="data_thief",
        variant="expert",
    )
    table = FakeTable(state, seat=THIEF, bots=False, names=NAMES)
    context, page = open_table(browser, table, PHONE)
    steals = state.legal_actions(THIEF)
    assert all("category" in a for a in steals)
    prompt = page.locator(".prompt")
    expect(prompt.locator("[data-action]")).to_have_count(len(steals))
    words = {"standard": "standard", "highly_confidential": "highly confidential"}
    choice = steals[0]
    name = f"Take every data card of the category: {words.get(choice['category'], 'sensitive')}"
    prompt.get_by_role("button", name=name).click()
    wait_for_move(page, table)
    assert acts(table) == [choice]
    assert page.errors == []
    context.close()
