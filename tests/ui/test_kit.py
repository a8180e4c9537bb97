"""The board kit (static/js/play/kit.js) on its own, in Chromium.

tests/ui/harness.py's ``serve_kit_page`` serves a bare board with the real styles and
JavaScript catalog; tests/ui/kit_demo.js is a toy duel game's renderer written with the
kit (hand of 3, table cards, life points, attack windows: the shape of Conspiranoia).
The page's ``ctx`` is a stand-in for client.js's: ``act`` records the action and marks
the board busy, as the page does until the server answers. Each test checks one piece:
the card's states, one control per legal action and the pending state, the hand by
keyboard, the player panels and the turn line, the end screen, the title and the
announcements, the log and the countdown.
"""

import json

import pytest
from playwright.sync_api import expect

from tests.ui.harness import serve_kit_page

pytestmark = [pytest.mark.browser]

TIMEOUT = 10_000
PHONE = {"width": 360, "height": 740}
PLAYERS = [
    {"seat": 0, "name": "Ann", "bot": None, "connected": True},
    {"seat": 1, "name": "Bob", "bot": None, "connected": False},
    {"seat": 2, "name": "Robo", "bot": "heuristic", "connected": True},
]
CATALOGUE = {
    "a1": {"id": "a1", "kind": "attack", "name": {"en": "Attack: Rocket", "fr": "Attaque : Fusée"}},
    "a2": {"id": "a2", "kind": "attack", "name": {"en": "Attack: Flood", "fr": "Attaque : Crue"}},
    "d1": {"id": "d1", "kind": "defence", "name": {"en": "Defence: Firewall"}},
    "t1": {"id": "t1", "kind": "bonus", "name": {"en": "Bonus: Rumour"}},
    "t2": {"id": "t2", "kind": "bonus", "name": {"en": "Bonus: Leak"}},
}

SETUP = """async ({seat, players, catalogue, language}) => {
  const { createDuel } = await import("/test-js/kit_demo.js");
  window.kit = await import("/static/js/play/kit.js");
  window.sent = [];
  window.announced = [];
  window.busy = false;
  window.ctx = {
    role: seat === null ? "spectator" : "seat", seat, players, catalogue, language,
    icons: "/static/img/cards.svg",
    act(action) {  // what client.js does: send, then busy until the server answers
      if (window.busy) return false;
      window.sent.push(action);
      window.busy = true;
      window.renderer.busy(true);
      return true;
    },
    announce: (text) => window.announced.push(text),
    isBusy: () => window.busy,
  };
  window.board = document.querySelector("[data-slot=board]");
  window.renderer = createDuel(window.board, window.ctx);
  window.answer = (message) => {  // the server's next state
    window.busy = false;
    window.renderer.busy(false);
    window.renderer.update(message);
  };
}"""


@pytest.fixture
def kit_page(browser):
    """Return a function opening the kit page as a seat (or the projector: seat=None)."""
    contexts = []

    def open_page(seat=0, language="en", viewport=None):
        context = browser.new_context(viewport=viewport or {"width": 1024, "height": 768})
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT)
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        page.on("console", lambda msg: msg.type == "error" and page.errors.append(msg.text))
        serve_kit_page(page, language)
        page.evaluate(
            SETUP,
            {"seat": seat, "players": PLAYERS, "catalogue": CATALOGUE, "language": language},
        )
        return page

    yield open_page
    for context in contexts:
        context.close()


def view(**changes):
    """A toy duel view: seat 0's turn, three cards in hand, two on the table."""
    base = {
        "turn": 0,
        "over": False,
        "result": None,
        "window": None,
        "deck_count": 30,
        "table": ["t1", "t2"],
        "hand": ["a1", "a2", "d1"],
        "players": [
            {"seat": 0, "life": 20, "hand_count": 3},
            {"seat": 1, "life": 12, "hand_count": 3},
            {"seat": 2, "life": 7, "hand_count": 2},
        ],
    }
    return {**base, **changes}


# Seat 0's turn: a1 captures t1 or t2, attacks alone or with a2; a2 discards; d1 nothing.
TURN = [
    {"type": "play", "card": "a1", "capture": "t1"},
    {"type": "play", "card": "a1", "capture": "t2"},
    {"type": "attack", "cards": ["a1"], "target": 1},
    {"type": "attack", "cards": ["a1", "a2"], "target": 2},
    {"type": "discard", "card": "a2"},
    {"type": "draw"},
]
# Bob attacks seat 0: it answers in the prompt (defend with d1, or take it).
ATTACKED = [{"type": "defend", "cards": ["d1"]}, {"type": "take"}]


def show(page, the_view, legal, version=1):
    message = {"type": "state", "version": version, "view": the_view, "legal_actions": legal}
    page.evaluate("(m) => window.renderer.update(m)", message)


def answer(page, the_view, legal, version=2):
    message = {"type": "state", "version": version, "view": the_view, "legal_actions": legal}
    page.evaluate("(m) => window.answer(m)", message)


def sent(page):
    return page.evaluate("window.sent")


def key(action):
    return json.dumps(action, sort_keys=True)


def offered(page):
    """Every action a control would send, after choosing each hand card in turn."""
    found = []

    def collect():
        for raw in page.eval_on_selector_all(
            "[data-action]", "els => els.map(e => e.dataset.action)"
        ):
            found.append(key(json.loads(raw)))

    collect()
    hand = page.locator(".dt-cards--hand button.dt-card")
    for i in range(hand.count()):
        hand.nth(i).click()
        collect()
        hand.nth(i).click()
    return set(found)


def test_card_states_and_never_colour_alone(kit_page):
    """A card is a list item, or a button when it does something: its name (head and
    label), its icon and shape; selected, highlighted and disabled say so in attributes
    and classes, not only colour; a click sends the action unchanged."""
    page = kit_page()
    page.evaluate(
        """() => {
          const k = window.kit.boardKit(document.createElement("div"), window.ctx, {
            draw: () => [],
            look: (c) => ({ icon: "sanction", shape: "▲", classes: [`kind-${c.kind}`] }),
          });
          const ul = document.createElement("ul");
          ul.id = "cards";
          ul.append(
            k.card("a1"),
            k.card("a2", { action: { type: "play", card: "a2" }, label: "Play Flood" }),
            k.card("d1", { onClick: () => window.sent.push("toggled"), key: "hand:d1",
              selected: true }),
            k.card("t1", { onClick: () => {}, key: "hand:t1", selected: false, size: "small" }),
            k.card("t2", { action: { type: "play", card: "a1", capture: "t2" }, highlight: true,
              badge: () => Object.assign(document.createElement("span"),
                { className: "dt-card__badge", textContent: "✓ take" }) }),
            k.card("zz", { disabled: true, size: "mini" }),
          );
          document.querySelector("[data-slot=board]").append(ul);
        }"""
    )
    cards = page.locator("#cards")
    plain = cards.locator('[data-card="a1"]')
    expect(plain).to_have_class("dt-card dt-card--attack dt-card--normal kind-attack")
    assert plain.evaluate("e => e.tagName") == "LI"
    expect(plain.locator(".dt-card__head")).to_have_text("Attack")
    expect(plain.locator(".dt-card__label")).to_have_text("Rocket")
    expect(plain.locator(".dt-card__shape")).to_have_text("▲")
    assert plain.locator(".dt-card__icon use").get_attribute("href").endswith("#sanction")
    expect(plain.locator(".dt-card__top")).to_have_attribute("aria-hidden", "true")

    play = cards.get_by_role("button", name="Play Flood")
    assert json.loads(play.get_attribute("data-action")) == {"type": "play", "card": "a2"}
    expect(play).not_to_have_attribute("aria-pressed", "true")
    play.click()
    assert sent(page) == [{"type": "play", "card": "a2"}]

    chosen = cards.locator('button[data-key="hand:d1"]')
    expect(chosen).to_have_attribute("aria-pressed", "true")
    expect(chosen).to_have_class(
        "dt-card dt-card--defence dt-card--normal kind-defence dt-card--button is-selected"
    )
    expect(cards.locator('button[data-key="hand:t1"]')).to_have_attribute("aria-pressed", "false")
    expect(cards.locator('button[data-key="hand:t1"]')).to_have_class(
        "dt-card dt-card--bonus dt-card--small kind-bonus dt-card--button"
    )

    target = cards.locator('button[data-card="t2"]')
    expect(target).to_have_class(
        "dt-card dt-card--bonus dt-card--normal kind-bonus dt-card--button is-target"
    )
    expect(target.locator(".dt-card__badge")).to_have_text("✓ take")

    # an id missing from the catalogue still draws, named by its id; disabled does nothing
    unknown = cards.locator('button[data-card="zz"]')
    expect(unknown).to_have_attribute("aria-disabled", "true")
    expect(unknown).to_have_class(
        "dt-card dt-card--unknown dt-card--mini kind-unknown dt-card--button"
    )
    expect(unknown.locator(".dt-card__label")).to_have_text("zz")
    unknown.dispatch_event("click")
    page.evaluate("window.busy = false; window.renderer.busy(false)")  # the server answered
    expect(unknown).to_have_attribute("aria-disabled", "true")  # its own, not the pending one
    chosen.click()
    assert sent(page) == [{"type": "play", "card": "a2"}, "toggled"]
    assert page.errors == []


def test_card_names_follow_the_session_language(kit_page):
    page = kit_page(language="fr")
    show(page, view(), TURN)
    card = page.locator('.dt-cards--hand [data-card="a1"]')
    expect(card.locator(".dt-card__head")).to_have_text("Attaque")
    expect(card.locator(".dt-card__label")).to_have_text("Fusée")
    # no French name: the English one
    expect(page.locator('.dt-cards--hand [data-card="d1"] .dt-card__label')).to_have_text(
        "Firewall"
    )
    expect(page.locator(".panel--hand h2")).to_have_text("Ta main")
    assert page.errors == []


def test_one_control_per_legal_action_and_none_while_pending(kit_page):
    """The toy game offers exactly its legal actions; a repeated action gets one button;
    once a move is sent every control says aria-disabled until the server answers."""
    page = kit_page()
    show(page, view(), TURN)
    assert offered(page) == {key(a) for a in TURN}
    show(
        page,
        view(turn=1, window={"kind": "attack", "seat": 0, "attacker": 1, "points": 5}),
        ATTACKED,
    )
    assert offered(page) == {key(a) for a in ATTACKED}
    expect(page.locator(".prompt")).to_have_attribute("aria-label", "Answer now")
    expect(page.locator(".dt-cards--hand button")).to_have_count(0)  # defend is in the prompt

    buttons = page.evaluate(
        """() => {
          const k = window.kit.boardKit(document.createElement("div"), window.ctx,
            { draw: () => [] });
          const twice = [{ type: "take" }, { type: "take" }, { type: "defend", cards: ["d1"] }];
          return k.actionButtons(twice, (a) => a.type).map((b) => b.dataset.action);
        }"""
    )
    assert buttons == ['{"type":"take"}', '{"type":"defend","cards":["d1"]}']

    page.get_by_role("button", name="Take it").click()
    assert sent(page) == [{"type": "take"}]
    expect(page.locator(".board button:not([aria-disabled=true])")).to_have_count(0)
    # a click on a pending control does nothing, even if the page let it through
    page.evaluate("window.busy = false")
    page.get_by_role("button", name="Defend with 1").dispatch_event("click")
    assert sent(page) == [{"type": "take"}]
    # an error answers (no new state): the same controls work again
    page.evaluate("window.busy = false; window.renderer.busy(false)")
    expect(page.locator(".board button[aria-disabled]")).to_have_count(0)
    page.get_by_role("button", name="Defend with 1").click()
    assert sent(page) == [{"type": "take"}, {"type": "defend", "cards": ["d1"]}]
    assert page.errors == []


def test_hand_by_keyboard(kit_page, artifacts_dir):
    """Enter chooses a hand card: its tray lists its plays (each set it is part of), the
    table cards it may take are highlighted and focused; Escape puts it back; a card
    without a play is not a control."""
    page = kit_page(viewport=PHONE)
    show(page, view(), TURN)
    expect(page.locator(".tray__hint")).to_have_text(
        "Choose a card from your hand to see what it can do."
    )
    expect(page.locator('.dt-cards--hand li.dt-card[data-card="d1"]')).to_have_count(1)
    a1 = page.locator('.dt-cards--hand button[data-key="hand:a1"]')
    a1.focus()
    page.keyboard.press("Enter")
    expect(a1).to_have_attribute("aria-pressed", "true")
    targets = page.locator(".dt-cards--table button.is-target")
    expect(targets).to_have_count(2)
    expect(targets.first).to_be_focused()
    expect(page.locator(".tray")).to_have_attribute("aria-label", "What to do with Attack: Rocket")
    tray = page.locator(".tray button[data-action]")
    assert tray.all_inner_texts() == ["Attack Bob with 1 card(s)", "Attack Robo with 2 card(s)"]
    assert page.evaluate("window.announced") == ["Your turn", "4 plays"]
    page.screenshot(path=artifacts_dir / "toy-chosen-phone.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    page.keyboard.press("Escape")
    expect(a1).to_have_attribute("aria-pressed", "false")
    expect(a1).to_be_focused()
    expect(targets).to_have_count(0)

    # a card with no table target: focus goes into the tray; "Choose another card" back
    a2 = page.locator('.dt-cards--hand button[data-key="hand:a2"]')
    a2.focus()
    page.keyboard.press("Enter")
    expect(page.locator(".tray button").first).to_be_focused()
    assert page.locator(".tray button[data-action]").all_inner_texts() == [
        "Attack Robo with 2 card(s)",
        "discard it",
    ]
    page.get_by_role("button", name="Choose another card").press("Enter")
    expect(page.locator(".tray")).to_have_count(0)
    expect(page.locator('.dt-cards--hand button[data-key^="hand:"]').first).to_be_focused()

    # choose a1 again and take t2 by keyboard: the action goes out unchanged
    a1.press("Enter")
    page.keyboard.press("Tab")
    expect(page.locator('.dt-cards--table button[data-card="t2"]')).to_be_focused()
    page.keyboard.press("Enter")
    assert sent(page) == [{"type": "play", "card": "a1", "capture": "t2"}]
    answer(page, view(turn=1, hand=["a2", "d1"], table=["t1"]), [])
    expect(page.locator(".dt-cards--hand button")).to_have_count(0)
    expect(page.locator(".tray")).to_have_count(0)
    assert page.errors == []


def test_player_panels_and_the_turn_line(kit_page):
    page = kit_page()
    show(page, view(turn=1), [])
    panels = page.locator(".panel--player")
    expect(panels).to_have_count(2)  # not this seat's own
    expect(page.locator("#others-title")).to_have_text("Opponents")
    bob = page.locator('.panel--player[data-seat="1"]')
    expect(bob).to_have_class("panel panel--player is-turn")
    expect(bob.locator("h3")).to_have_text("▶ Playing now: Bob ○ offline")
    expect(bob).to_have_attribute("aria-labelledby", "player-1-title")
    expect(bob.locator(".scoreline")).to_have_text("12 life · 3 cards")
    robo = page.locator('.panel--player[data-seat="2"]')
    expect(robo).to_have_class("panel panel--player")
    expect(robo.locator("h3")).to_have_text("Robo bot")
    expect(page.locator(".turnbar__turn")).to_have_text("Bob's turn")
    expect(page.locator(".turnbar__turn")).not_to_have_class("is-mine")
    expect(page.locator('[data-fact="deck"]')).to_have_text("30")

    show(page, view(), TURN, version=2)
    expect(page.locator(".turnbar__turn")).to_have_text("Your turn")
    expect(page.locator(".turnbar__turn")).to_have_class("turnbar__turn is-mine")
    attack = {"kind": "attack", "seat": 0, "attacker": 1, "points": 5}
    show(page, view(turn=1, window=attack), ATTACKED, version=3)
    expect(page.locator(".turnbar__turn")).to_have_text("Answer now")
    show(page, view(turn=0, window=dict(attack, seat=2, attacker=0)), [], version=4)
    expect(page.locator(".turnbar__turn")).to_have_text("Waiting for Robo to answer.")

    # presence changes; a seat without a name is "Player n"
    page.evaluate(
        """() => window.renderer.setPlayers([
          {seat: 0, name: "Ann", bot: null, connected: true},
          {seat: 1, name: "Bob", bot: null, connected: true},
          {seat: 2, name: "", bot: null, connected: true}])"""
    )
    show(page, view(turn=1), [], version=5)
    expect(bob.locator("h3")).to_have_text("▶ Playing now: Bob ● online")
    expect(page.locator('.panel--player[data-seat="2"] h3')).to_have_text("Player 3 ● online")
    assert page.errors == []


def test_projector_shows_every_player_and_no_hand(kit_page):
    page = kit_page(seat=None)
    show(page, view(hand=None), [])
    expect(page.locator(".panel--player")).to_have_count(3)
    expect(page.locator("#others-title")).to_have_text("Players")
    expect(page.locator(".panel--hand")).to_have_count(0)
    expect(page.locator(".turnbar__turn")).to_have_text("Ann's turn")
    assert page.title() == "Board kit"
    assert page.errors == []


RESULT = {
    "winners": [0],
    "ranking": [[0], [2, 1]],
    "scores": [
        {"seat": 0, "life": 9},
        {"seat": 1, "life": 0},
        {"seat": 2, "life": 0},
    ],
    "decided_by": "life",
}


def test_end_screen(kit_page):
    page = kit_page()
    show(page, view(), TURN)
    assert page.title() == "▶ Board kit"
    page.locator('.dt-cards--hand button[data-key="hand:a1"]').focus()
    show(page, view(over=True, result=RESULT), [], version=9)
    end = page.locator(".panel--end")
    expect(end).to_be_focused()
    expect(end.locator("h2")).to_have_text("Game over")
    expect(end.locator(".end__winner")).to_have_text("You win!")
    expect(end.locator(".end__decided")).to_have_attribute("data-decided-by", "life")
    expect(end.locator(".end__decided")).to_have_text("Decided by life points.")
    expect(end.locator("thead th")).to_have_text(["Rank", "Player", "Life"])
    rows = end.locator("tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_have_class("is-winner")
    expect(rows.nth(0)).to_have_text("★ 1Ann (you)9")
    expect(rows.nth(1)).to_have_text("2Robo0")
    expect(rows.nth(2)).to_have_text("2Bob0")
    expect(page.locator(".turnbar, .panel--hand")).to_have_count(0)
    assert page.evaluate("window.announced") == ["Your turn", "Game over"]
    assert page.title() == "Board kit"
    expect(page.locator("[data-slot=board]")).to_have_class("board is-over")

    other = kit_page(seat=1)
    shared = dict(RESULT, winners=[0, 2], ranking=[[0, 2], [1]], decided_by="shared")
    show(other, view(over=True, result=shared), [])
    expect(other.locator(".end__winner")).to_have_text("Winners: Ann, Robo")
    expect(other.locator("tbody tr").nth(2)).to_have_text("2Bob (you)0")
    assert page.errors == [] and other.errors == []


def test_announcements_once_per_turn(kit_page):
    page = kit_page()
    show(page, view(), TURN, version=1)
    show(page, view(), TURN, version=2)  # the same turn again (a presence redraw)
    show(page, view(turn=1), [], version=3)
    assert page.title() == "Board kit"
    show(page, view(), TURN, version=4)
    assert page.evaluate("window.announced") == ["Your turn", "Your turn"]
    assert page.title() == "▶ Board kit"
    assert page.errors == []


def test_focus_survives_a_redraw(kit_page):
    page = kit_page()
    show(page, view(), TURN)
    page.get_by_role("button", name="draw").focus()
    show(page, view(deck_count=29), TURN, version=2)
    expect(page.get_by_role("button", name="draw")).to_be_focused()
    # the control went away: focus stays on the board's first control
    show(page, view(deck_count=28), TURN[:-1], version=3)
    assert page.evaluate("document.activeElement.dataset.key") == "hand:a1"
    assert page.errors == []


def test_game_log_and_countdown(kit_page):
    page = kit_page()
    lines = page.evaluate(
        """() => {
          const list = document.querySelector("[data-slot=log]");
          const log = window.kit.gameLog(list, 3);
          const texts = () => [...list.children].map((li) => li.textContent);
          const seen = [];
          log.take({ version: 1, log: ["one", "two"] });
          log.take({ version: 1, log: ["one", "two"] });  // a resync: not twice
          seen.push(texts());
          log.take({ version: 3, log: ["three", "four"] });  // a gap: kept, trimmed to 3
          log.take({ version: 2, log: ["old"] });
          seen.push(texts());
          log.reset();  // a new match
          log.take({ version: 0, log: ["new game"] });
          seen.push(texts());
          return seen;
        }"""
    )
    assert lines == [
        ["one", "two"],
        ["two", "three", "four"],
        ["three", "four", "new game"],
    ]
    countdown = page.locator("[data-slot=countdown]")
    page.evaluate("window.icon = () => document.querySelector('[data-slot=countdown] svg')")
    page.evaluate(
        """() => window.kit.drawCountdown(document.querySelector("[data-slot=countdown]"),
             { left: 75, total: 600, label: "Time card deadline",
               icons: "/static/img/cards.svg" })"""
    )
    expect(countdown).to_be_visible()
    expect(countdown).to_have_text("Time card deadline1:15")
    expect(countdown).not_to_have_class("countdown--low")
    page.evaluate("window.first = window.icon()")
    page.evaluate(
        """() => window.kit.drawCountdown(document.querySelector("[data-slot=countdown]"),
             { left: 4, total: 15, label: window.renderer.deadlineLabel({ seat: 1 }),
               icons: "/static/img/cards.svg" })"""
    )
    expect(countdown).to_have_text("Bob is answering4 seconds")
    expect(countdown).to_have_class("countdown countdown--low")
    expect(countdown.locator("svg.icon")).to_have_count(1)  # the same icon, not redrawn
    assert page.evaluate("window.first === window.icon()")
    bar = countdown.locator(".countdown__bar")
    assert bar.evaluate("e => e.style.getPropertyValue('--left')") == str(4 / 15)
    assert page.errors == []
