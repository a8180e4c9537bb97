"""A table server in the test process, for the browser client without the live server.

``FakeTable`` holds a real engine state (any registered game: Data-Tycoon,
Conspiranoia…) and speaks the table protocol
(docs/protocol.md) through Playwright's WebSocket routing: ``hello`` then ``state`` on
connect, ``act`` applied to the engine (or refused with an ``error``), ``resync``. The
other seats are played at once by the engine's heuristic bot. ``serve_page`` renders the
real templates (games/play.html, projector.html) and serves static files and the
JavaScript catalog from this tree, so the page is exactly what the server would send.
``serve_kit_page`` serves a bare board (the real styles and catalog, no game) for the
board kit's own tests (test_kit.py).

``find_state`` plays bots from a seed until a predicate holds: a DATA! window, a counter
window, a freeze, the end… for the DOM tests and the screenshots (``game=`` another
game's slug). ``panel_problems`` says what of a projector page is off the screen, cut
or under another panel.
"""

from __future__ import annotations

import contextlib
import json
import mimetypes
import random
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import translation
from django.views.i18n import JavaScriptCatalog
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    ViewportSize,
    expect,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from games.describe import event_line, how_to_play
from games.engine import IllegalAction
from games.engine.base import State
from games.registry import get_game
from live.views import game_stylesheet

ROOT = Path(__file__).resolve().parents[2]
BASE = "http://harness.test"
NAMES = ["Alice Fox", "Bob Owl", "Robo", "Chloé Lynx", "Dev Heron", "Eva Wren"]
SANCTION_LESSON = {
    "slug": "sanctions",
    "title": "Sanctions: warnings, bans and big fines",
    "short": "A data protection authority can warn, ban a processing or fine a company.",
    "articles": ["58(2)", "83(4)", "83(5)"],
    "more_url": "/lessons/sanctions/",
}


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def bot_move(state, seat, rng, kind="heuristic"):
    """Return the engine bot's choice for ``seat`` (the state's own game's bot)."""
    bot = state.game.bot(kind)
    return bot.choose(state.view(seat), state.legal_actions(seat), rng)


def referee(state):
    """Fire the first due timer when nobody may act (the server's job)."""
    if not state.to_move() and not state.is_over():
        state.apply(None, state.legal_actions(None)[0])
        return True
    return False


def find_state(
    predicate,
    *,
    game="data_tycoon",
    variant="standard",
    players=3,
    seeds=range(200),
    bot="heuristic",
    options=None,
):
    """Return the first position, bots playing, where ``predicate(state)`` holds."""
    game = get_game(game)
    for seed in seeds:
        state = game.new_state(players, seed, variant, options)
        rng = random.Random(seed)
        for _ in range(3000):
            if predicate(state):
                return state
            if state.is_over():
                break
            if referee(state):
                continue
            seat = state.to_move()[0]
            state.apply(seat, bot_move(state, seat, rng, bot))
    raise LookupError("no seed reaches the wanted position")


def scenario_states(scenarios: dict, **find: object) -> Callable[[str], State]:
    """Return a function giving a fresh copy of a named scenario's state (a page may
    change it), each found once with ``find_state(scenarios[name], **find)``."""
    cache: dict[str, State] = {}

    def get(name: str) -> State:
        if name not in cache:
            cache[name] = find_state(scenarios[name], **find)
        found = cache[name]
        return found.game.from_json(json.loads(json.dumps(found.to_json())))

    return get


def action_key(action: dict) -> str:
    """Return an action as a comparable string."""
    return json.dumps(sorted(action.items()))


def controls(page: Page) -> list[dict]:
    """Return the action of every control on the page."""
    return [
        json.loads(raw)
        for raw in page.eval_on_selector_all(
            "[data-action]", "els => els.map(e => e.dataset.action)"
        )
    ]


def offered_actions(page: Page, tray: tuple[str, ...] | None = None) -> set[str]:
    """Every control's action, each hand card's tray included (the action types
    ``tray`` names, or all); fails on two controls for one action."""
    offered = [action_key(a) for a in controls(page)]
    hand = page.locator(".dt-cards--hand button.dt-card")
    for i in range(hand.count()):
        hand.nth(i).click()
        offered += [action_key(a) for a in controls(page) if tray is None or a["type"] in tray]
        hand.nth(i).click()  # put it back
    assert len(offered) == len(set(offered)), "two controls for one action"
    return set(offered)


def legal_of(state: State, seat: int) -> list[dict]:
    """Return the seat's legal actions, none when it is not to move."""
    return state.legal_actions(seat) if seat in state.to_move() else []


def acts(table: FakeTable) -> list[dict]:
    """Return the actions the page sent to the fake table."""
    return [m["action"] for m in table.sent if m["type"] == "act"]


def wait_for_move(page: Page, table: FakeTable, count: int = 1) -> None:
    """Wait until the page's log shows a move; check how many the page sent."""
    page.wait_for_function(
        "document.querySelector('[data-slot=log]').children.length > 0", timeout=10_000
    )
    assert len(acts(table)) == count


def axe_serious(page: Page) -> list:
    """Return axe's serious and critical violations on the page, with their targets."""
    return [
        (v["id"], [n["target"] for n in v["nodes"]])
        for v in Axe().run(page).response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def seat_window(kind, seat=0):
    """Return a predicate: ``seat``'s first open window is ``kind``."""

    def predicate(state):
        view = state.view(seat)
        window = view["window"]
        return bool(window) and window["kind"] == kind and window["seat"] == seat

    return predicate


class FakeTable:
    """One match and the sockets of one page: a seat (0…) or the projector (None)."""

    def __init__(self, state, *, seat=0, language="en", names=NAMES, bots=True, paused=False):
        self.state = state
        self.seat = seat
        self.language = language
        self.names = list(names[: state.n])
        self.version = 0
        self.bots = bots
        self.paused = paused
        self.rng = random.Random(1)
        self.sent = []  # every message the page sent
        self.sockets = []
        self.game = state.game
        # as the server's hello: the texts worded for the kinds the match deals
        kinds = frozenset(self.game.dealt_kinds(state.variant, state.options))
        self.cards = {card["id"]: card for card in self.game.cards(state.variant, kinds)}
        self.log = []
        self.lesson_pause = None  # the state's lesson_pause field (docs/protocol.md)
        # A server in trouble: moves that get no answer; sockets closed as they open.
        self.answering = True
        self.reachable = True

    # --- the protocol ------------------------------------------------------------

    def hello(self):
        return {
            "type": "hello",
            "table": 1,
            "match": 1,
            "seat": self.seat,
            "players": [
                {"seat": s, "name": n, "bot": s == 2, "connected": True}
                for s, n in enumerate(self.names)
            ],
            "game": self.game.slug,
            "variant": self.state.variant,
            "catalogue": self.cards,
            "language": self.language,
        }

    def deadline(self, view):
        window = view.get("window")
        if not window:
            return None
        now = datetime.now(UTC)
        return {
            "timer": window["id"],
            "kind": window.get("kind") or self.state.timer_info(window["id"])["kind"],
            "seat": window["seat"],
            "at": iso(now + timedelta(seconds=window["seconds"])),
            "seconds": window["seconds"],
        }

    def log_lines(self, events):
        def name(seat):
            return self.names[seat]

        def card_name(card_id):
            return self.cards[card_id]["name"].get(self.language, self.cards[card_id]["name"]["en"])

        # as the server writes them (live.messages.event_lines): in the page's language
        with translation.override(self.language):
            lines = [event_line(self.game.slug, event, name, card_name) for event in events]
        return [line for line in lines if line is not None]

    def state_message(self, events=None):
        view = self.state.view(self.seat)
        may_act = self.seat is not None and not self.paused and self.seat in self.state.to_move()
        return {
            "type": "state",
            "version": self.version,
            "seat": self.seat,
            "view": view,
            "legal_actions": self.state.legal_actions(self.seat) if may_act else [],
            "deadline": self.deadline(view),
            "log": self.log_lines(events if events is not None else self.state.last_events),
            "paused": self.paused,
            "over": self.state.is_over(),
            "result": self.state.result() if self.state.is_over() else None,
            "lesson_pause": self.lesson_pause,
            "server_time": iso(datetime.now(UTC)),
        }

    def send_lesson(self, moment=7, *, lesson=None, event="attack", seats=(0, 1), pause=False):
        """Send a ``lesson`` message to the page, as the server does after a special card;
        in pause mode the table's state then carries ``lesson_pause`` until dismissed."""
        message = {
            "type": "lesson",
            "moment": moment,
            "lesson": lesson or SANCTION_LESSON,
            "event": event,
            "seats": list(seats),
            "pause": pause,
        }
        if pause:
            entry = {k: message[k] for k in ("moment", "event", "lesson", "seats")}
            entry["waiting"] = [s for s in seats if s != 2]  # seat 2 is a bot
            self.lesson_pause = {"waiting": entry["waiting"], "moments": [entry]}
            self.paused = True
        self.broadcast(message)
        if pause:
            self.broadcast(self.state_message([]))

    def broadcast(self, message):
        for ws in self.sockets:
            ws.send(json.dumps(message))

    def on_connect(self, ws):
        if not self.reachable:
            # What the server does when Redis is down: it accepts, says why, closes.
            ws.send(json.dumps(self.error("unavailable", "The server is busy for a moment.")))
            ws.close(code=1013, reason="try again later")
            return
        self.sockets.append(ws)
        ws.on_message(lambda raw: self.on_message(ws, raw))
        ws.send(json.dumps(self.hello()))
        ws.send(json.dumps(self.state_message()))

    def on_message(self, ws, raw):
        message = json.loads(raw)
        self.sent.append(message)
        kind = message.get("type")
        if kind == "ping":
            ws.send(json.dumps({"type": "pong", "server_time": iso(datetime.now(UTC))}))
        elif kind == "resync":
            # as the server does: this socket has the catalogue already
            hello = self.hello()
            del hello["catalogue"]
            ws.send(json.dumps(hello))
            ws.send(json.dumps(self.state_message()))
        elif kind == "act" and self.answering:
            self.act(ws, message)
        elif kind == "dismiss":
            self.dismiss(message)

    def dismiss(self, message):
        """A seat dismissed a lesson card: end the harness's lesson pause for it."""
        if not self.lesson_pause:
            return
        seat = None if message.get("all") else self.seat
        for entry in self.lesson_pause["moments"]:
            if message.get("all"):
                entry["waiting"] = []
            elif entry["moment"] == message.get("moment"):
                entry["waiting"] = [s for s in entry["waiting"] if s != seat]
        waiting = sorted({s for e in self.lesson_pause["moments"] for s in e["waiting"]})
        self.broadcast(
            {"type": "lesson_dismissed", "moment": message.get("moment"), "waiting": waiting}
        )
        if not waiting:
            self.lesson_pause, self.paused = None, False
            self.broadcast(self.state_message([]))

    def act(self, ws, message):
        if message.get("version") != self.version:
            ws.send(json.dumps(self.error("stale_version", "The game moved on.")))
            ws.send(json.dumps(self.state_message()))
            return
        try:
            events = self.state.apply(self.seat, message["action"])
        except IllegalAction as refused:
            ws.send(json.dumps(self.error(refused.code, str(refused))))
            return
        self.version += 1
        self.broadcast(self.state_message(events))
        self.run_others()

    def error(self, code, text):
        return {"type": "error", "code": code, "message": text, "version": self.version}

    def run_others(self):
        """Play the other seats (and the referee) until this seat must act or the end."""
        while self.bots and not self.state.is_over():
            movers = self.state.to_move()
            if self.seat in movers:
                return
            if not movers:
                events = self.state.apply(None, self.state.legal_actions(None)[0])
            else:
                seat = movers[0]
                events = self.state.apply(seat, bot_move(self.state, seat, self.rng))
            self.version += 1
            self.broadcast(self.state_message(events))


def serve_page(page, table, role="seat", template="games/play.html"):
    """Route the harness origin to the real templates, static files and the JS catalog."""

    factory = RequestFactory()
    request = factory.get("/play/TEST/")
    request.user = AnonymousUser()
    with translation.override(table.language):
        html, catalog = _page_and_catalog(factory, request, table, role, template)
    page.route(f"{BASE}/**", _handler(html, catalog))
    page.route_web_socket("**/ws/**", table.on_connect)
    page.goto(f"{BASE}/play/TEST/")


# The board kit's test page: the real styles and JS catalog, a board and the shell's log
# and countdown slots, no game and no socket; the test builds boards with kit.js.
KIT_PAGE = """<!doctype html>
<html lang="{language}"><head><meta charset="utf-8"><title>Board kit</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/css/app.css">
<link rel="stylesheet" href="/static/css/game.css">
</head><body class="page-play"><main class="page">
<div id="game" class="game game--seat" data-icons="/static/img/cards.svg">
  <div class="countdown" data-slot="countdown" role="timer" aria-live="off" hidden></div>
  <div class="game-layout">
    <div class="board" data-slot="board" aria-busy="false" tabindex="-1"></div>
    <section class="game-log"><div class="game-log__scroll" role="log" aria-live="polite">
      <ol data-slot="log"></ol></div></section>
  </div>
</div></main>
<script src="/jsi18n/"></script>
</body></html>"""


def serve_kit_page(page, language="en"):
    """Open the kit's test page; tests/ui/*.js is served under /test-js/."""

    with translation.override(language):
        catalog = _catalog(RequestFactory())
    page.route(f"{BASE}/**", _handler(KIT_PAGE.replace("{language}", language), catalog))
    page.goto(f"{BASE}/play/KIT/")
    page.wait_for_function("typeof gettext === 'function'")


def _handler(html, catalog):
    """Answer the harness origin: static files, tests/ui's scripts, the catalog, the page."""

    def file(route, path):
        if not path.is_file():
            route.fulfill(status=404, body=b"")
            return
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if path.suffix == ".js":
            kind = "text/javascript"
        route.fulfill(status=200, body=path.read_bytes(), content_type=kind)

    def handle(route):
        url = route.request.url[len(BASE) :].split("?")[0]
        if url.startswith("/static/"):
            file(route, ROOT / "static" / url[len("/static/") :])
        elif url.startswith("/test-js/"):
            file(route, ROOT / "tests" / "ui" / url[len("/test-js/") :])
        elif url.startswith("/jsi18n/"):
            route.fulfill(status=200, body=catalog, content_type="text/javascript")
        elif url.startswith("/play/"):
            route.fulfill(status=200, body=html, content_type="text/html; charset=utf-8")
        else:
            route.fulfill(status=404, body=b"")

    return handle


def _page_and_catalog(factory, request, table, role, template):
    """Render the page and the JavaScript catalog in the active language."""
    ws_path = "/ws/play/TEST/" if role == "seat" else "/ws/table/1/watch/"
    html = render_to_string(
        template,
        {
            "ws_path": ws_path,
            "role": role,
            "session": {"join_code": "TEST42", "language": table.language},
            "table_id": 1,
            "table": {"number": 1},
            "game_name": _name(table),
            "game_stylesheet": game_stylesheet(table.game.slug),
            "how_to_play": how_to_play(table.game.slug, table.state.variant, table.state.options)
            if role == "seat"
            else None,
        },
        request=request,
    )
    return html, _catalog(factory)


def _name(table):
    """The game's name in the table's language (a game names itself in every language)."""
    names = table.game.name
    if isinstance(names, str):
        return names
    return names.get(table.language) or names.get("en") or table.game.slug


def _catalog(factory: RequestFactory) -> bytes:
    """Return the JavaScript catalog in the active language."""

    response = JavaScriptCatalog.as_view()(factory.get("/jsi18n/"))
    assert isinstance(response, HttpResponse)
    return response.content


PAGE_TIMEOUT = 10_000  # ms, for each step of a board test


def open_table(
    browser: Browser,
    table: FakeTable,
    viewport: Mapping[str, int],
    *,
    role: str = "seat",
    template: str = "games/play.html",
    reduced: bool = False,
    context: BrowserContext | None = None,
) -> tuple[BrowserContext, Any]:
    """Open ``table``'s board in a new browser context (or ``context``); the page's
    JavaScript errors and console errors are collected in ``page.errors`` (an attribute
    Playwright's Page does not declare: the page is returned untyped)."""
    context = context or browser.new_context(
        viewport=ViewportSize(width=viewport["width"], height=viewport["height"]),
        locale="en-GB",
        reduced_motion="reduce" if reduced else "no-preference",
    )
    page: Any = context.new_page()
    page.set_default_timeout(PAGE_TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    page.on("console", console)
    serve_page(page, table, role=role, template=template)
    page.wait_for_selector(".board > section")
    page.errors = errors
    return context, page


# What hides part of the projector: a panel of the board (or the log, the title, the
# bar) out of the screen or under another panel, the board cut at its bottom, a panel
# or a ranking whose content is wider than its box (the ranking's cells off the
# screen), a market challenge narrower than 8 --u (a sliver), a player's count wrapped
# to a new line that starts with the "·" between counts. Returns one line per problem.
PANEL_PROBLEMS = """() => {
  const problems = [];
  const W = innerWidth, H = innerHeight;
  const u = Math.min(W, H * 1.7778) / 100;
  const name = (e) => e.tagName.toLowerCase() + [...e.classList].map((c) => '.' + c).join('');
  const shown = (e) => e.getClientRects().length > 0 && !e.classList.contains('visually-hidden')
    && getComputedStyle(e).position !== 'absolute';
  const rect = (e) => { const r = e.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; };
  const round = (r) => `[${[r.left, r.top, r.right, r.bottom].map(Math.round)}]`;
  const board = document.querySelector('.board');
  const b = board.getBoundingClientRect();
  const seen = { right: b.left + board.clientWidth, bottom: b.top + board.clientHeight };
  const inside = [...board.children].filter(shown);
  const outside = [...document.querySelectorAll('.projector-title, .game-bar, .game-log')]
    .filter(shown);
  const panels = [...outside, ...inside];
  for (const e of panels) {
    const r = rect(e);
    if (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1) {
      problems.push(`${name(e)} ${round(r)} goes off the ${W}x${H} screen`);
    }
  }
  // (2 px: client.js fits the board to its scrollHeight, a whole number of pixels)
  for (const e of inside) {
    const r = rect(e);
    if (r.bottom > seen.bottom + 2 || r.right > seen.right + 2) {
      problems.push(`${name(e)} ${round(r)} is cut by the board's box, ${round(b)}`);
    }
  }
  for (let i = 0; i < panels.length; i += 1) {
    for (let j = i + 1; j < panels.length; j += 1) {
      const p = rect(panels[i]), q = rect(panels[j]);
      const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (w > 1 && h > 1) {
        problems.push(`${name(panels[i])} ${round(p)} and ${name(panels[j])} ${round(q)} overlap`);
      }
    }
  }
  const wide = [...panels, ...document.querySelectorAll(
    '.ranking-scroll, .panel--player, .dm-challenge, .dth-manager, .dth-board, .board .dt-card')];
  for (const e of wide) {
    if (shown(e) && e.scrollWidth > e.clientWidth + 1) {
      const right = e.getBoundingClientRect().left + e.clientLeft + e.clientWidth;
      const out = [...e.querySelectorAll('*')]
        .find((d) => d.getBoundingClientRect().right > right + 1);
      problems.push(`${name(e)}: content ${e.scrollWidth} px wide in ${e.clientWidth} px`
        + (out ? ` (${name(out)}: "${out.textContent.slice(0, 40)}")` : ''));
    }
  }
  const lost = [...document.querySelectorAll('.panel--end > *, .ranking th, .ranking td')]
    .filter((e) => { const r = rect(e); return r.right > W + 1 || r.bottom > H + 1; });
  if (lost.length) {
    problems.push(`the end screen: ${lost.length} of its lines and cells off the screen`
      + ` ("${lost[0].textContent.slice(0, 40)}"…)`);
  }
  // a count wrapped to a new line starts with its words, not with the "·" between counts
  for (const line of document.querySelectorAll('.player__counts')) {
    const box = line.getBoundingClientRect();
    for (const item of line.children) {
      const first = item.getBoundingClientRect().left <= box.left + 1;
      if (!first || !item.textContent.trim().startsWith('·')) continue;
      const texts = document.createTreeWalker(item, NodeFilter.SHOW_TEXT);
      let text = texts.nextNode();
      while (text && !text.data.includes('·')) text = texts.nextNode();
      const dot = document.createRange();
      dot.setStart(text, text.data.indexOf('·'));
      dot.setEnd(text, text.data.indexOf('·') + 1);
      if (dot.getBoundingClientRect().right > box.left + 1) {
        problems.push(`"${item.textContent}" starts a line with its separator`);
      }
    }
  }
  for (const e of document.querySelectorAll('.dm-challenge')) {
    const width = e.getBoundingClientRect().width;
    if (width < 8 * u) problems.push(`a market challenge ${Math.round(width)} px wide (< 8 --u)`);
  }
  return problems;
}"""


# Words broken over two lines anywhere but at a soft hyphen (kit.js puts them between
# syllables, and the line then ends with a hyphen), in the texts of each element
# ``selector`` finds.
SPLIT_WORDS = """(selector) => {
  const split = [];
  const texts = [];
  for (const label of document.querySelectorAll(selector)) {
    if (!label.getClientRects().length) continue;
    const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) texts.push(walker.currentNode);
  }
  for (const text of texts) {
    let top = null;
    for (let i = 0; i < text.data.length; i += 1) {
      const ch = text.data[i];
      if (/\\s/.test(ch)) { top = null; continue; }
      if (ch === '\\u00ad') continue;
      const range = document.createRange();
      range.setStart(text, i); range.setEnd(text, i + 1);
      const rects = range.getClientRects();
      const rect = rects[rects.length - 1];
      if (!rect) continue;
      const now = Math.round(rect.top);
      if (top !== null && now > top + 2 && text.data[i - 1] !== '\\u00ad') {
        split.push(text.data.slice(0, i) + '|' + text.data.slice(i));
      }
      top = now;
    }
  }
  return split;
}"""
# Where a name is written in a narrow box: the cards' names, Data-Tycoon's treasures.
NAMED_BOXES = ".dt-card__name > span, .treasure--compact"


def split_words(page: Page, selector: str = NAMED_BOXES) -> list[str]:
    """Return the words of ``selector``'s texts broken anywhere but at a soft hyphen."""
    return page.evaluate(SPLIT_WORDS, selector)


def panel_problems(page: Page) -> list[str]:
    """What of the projector's panels is hidden, cut or under another (``PANEL_PROBLEMS``)."""
    return page.evaluate(PANEL_PROBLEMS)


def open_a_hand_card_under_a_prompt(page):
    """On a phone, with an answer box open: open the hand's last card (its tray grows the
    dock over the page), then check that the answers are still in sight."""
    expect(page.locator(".prompt")).to_be_visible()
    page.locator(
        '.dt-cards--hand [data-key^="info:"], .dt-cards--hand [data-key^="hand:"]'
    ).last.click()
    expect(page.locator(".tray .card-effect")).to_be_visible()
    assert_answers_in_sight(page)


# Where the sticky bar ends, the hand's dock begins and each answer of the answer box lies.
ANSWERS_PLACE = """() => ({
    bar: document.querySelector('[data-slot="bar"]').getBoundingClientRect().bottom,
    dock: document.querySelector('.panel--hand').getBoundingClientRect().top,
    answers: [...document.querySelectorAll('.prompt button')].map(
        (b) => [b.getBoundingClientRect().top, b.getBoundingClientRect().bottom]),
})"""


def assert_answers_in_sight(page):
    """On a phone: the answer box's buttons between the sticky bar and the hand's dock.

    The page scrolls two frames after a draw (the dock measured, then the page moved),
    later on a loaded machine: the place is awaited up to 5 s, then checked."""
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function(
            f"""() => {{ const p = ({ANSWERS_PLACE})();
                return p.answers.length > 0 && p.answers.every(
                    ([top, bottom]) => p.bar - 1 <= top && bottom <= p.dock); }}""",
            timeout=5000,
        )
    place = page.evaluate(ANSWERS_PLACE)
    assert place["answers"], "the answer box offers no answer"
    for top, bottom in place["answers"]:
        assert place["bar"] - 1 <= top and bottom <= place["dock"], place
