"""The projector's table view on a classroom screen, in Chromium: the public view fills
1920x1080 and 3840x2160, its cards and names read from the back of the room, and the
page never scrolls.

No live server: tests/ui/harness.py serves the real projector template and answers the
table protocol from engine-made states (Data-Tycoon and Conspiranoia). Screenshots go to
test-artifacts/<test>/ for a person to look at.
"""

import pytest
from playwright.sync_api import ConsoleMessage, Page

from tests.browser.screens import HIDDEN_OVERFLOW
from tests.ui.harness import (
    NAMES,
    FakeTable,
    find_state,
    panel_problems,
    serve_page,
    split_words,
)

pytestmark = [pytest.mark.browser]

HD = {"width": 1920, "height": 1080}
UHD = {"width": 3840, "height": 2160}
TIMEOUT = 10_000
# A full card at least this wide at 1920x1080 (the board used to draw 115 px cards):
# about 10 % of the screen's width, the size that reads from 10 m.
MIN_CARD_PX = 200
# Player names at least this high at 1920x1080 (a font size of 16 px read from the
# back row is a blur).
MIN_NAME_FONT_PX = 30
MIN_LOG_FONT_PX = 22
# The players' panels drawn smaller to fit a crowded board stop here (16.5 px at the
# panel's smallest scale; its chips' words are a little smaller still).
MIN_PLAYER_FONT_PX = 16


def late_at_four(game: str, ply: int, **spec: object) -> dict:
    """A table of four (the platform's size) of ``game``'s standard rules past move ``ply``."""
    return dict(game=game, variant="standard", players=4, predicate=lambda s: s.ply >= ply, **spec)


def crowded(players: int, collected: int) -> dict:
    """A Data-Tycoon expert table of ``players`` with ``collected`` cards in the players'
    collections, in Russian too (its long words put the colour chips on two lines)."""
    return dict(
        game="data_tycoon",
        variant="expert",
        players=players,
        languages=("en", "fr", "ru"),
        predicate=lambda s: sum(len(p["collection"]) for p in s.view(None)["players"]) >= collected,
    )


SCENARIOS = {
    "data_tycoon-rich": dict(
        game="data_tycoon",
        variant="expert",
        # a crowded board: many cards collected, and cards on the table (the full-size
        # cards measured below)
        predicate=lambda s: (
            len(s.view(0)["players"][0]["collection"]) >= 10 and len(s.view(None)["table"]) >= 3
        ),
    ),
    # a full table of the platform's size, late in the game
    "data_tycoon-four": dict(
        game="data_tycoon",
        variant="expert",
        players=4,
        predicate=lambda s: (
            sum(len(p["collection"]) for p in s.view(None)["players"]) >= 36
            and len(s.view(None)["table"]) >= 1
        ),
    ),
    # five and six players late in the game: too tall even at the smallest fit, so the
    # players take the screen's whole width, under the log (client.js, "crowded")
    "data_tycoon-five": crowded(5, collected=45),
    "data_tycoon-six": crowded(6, collected=50),
    "data_tycoon-first": dict(game="data_tycoon", variant="expert", predicate=lambda s: s.ply == 3),
    # every game's full table of four, late in the game, fits the screen (Data Monsters'
    # and Data Thief's boards are laid out in their own way, their cards and names
    # measured by tests/ui/test_data_monsters_board.py and test_data_thief_board.py)
    "data_monsters-four": late_at_four("data_monsters", 60, sizes=False),
    "data_thief-four": late_at_four("data_thief", 24, sizes=False),
    "conspiranoia-four": late_at_four("conspiranoia", 40),
    "conspiranoia-play": dict(
        game="conspiranoia",
        variant="quick",
        predicate=lambda s: s.view(0)["stage"] == "play" and s.ply > 12,
    ),
}


def over(game: str, variant: str = "standard", players: int = 4, **spec: object) -> dict:
    """A table of ``game`` (four players: the platform's size) at its end screen."""
    return dict(
        game=game, variant=variant, players=players, predicate=lambda s: s.is_over(), **spec
    )


# The positions a UX audit found broken on a 1920x1080 classroom screen: the end screens
# (Data-Tycoon's log drawn over its ranking, Data Thief's ranking below the screen) and
# Data Monsters late in a Spanish game with an interrupt window open (its market
# squeezed into slivers, the log over the turn bar and the window, the players cut off).
# Each in the languages with the longest words, with the audit's nicknames.
LAYOUTS = {
    "data_tycoon-over": over("data_tycoon", languages=("en", "es", "fr", "ru")),
    "data_tycoon-expert-over": over("data_tycoon", "expert", languages=("en", "ru")),
    # six Russian players' final collections under a ranking of six (the longest end):
    # the end's players' panels drop what the ranking says and what no longer counts,
    # and the crowded log narrows so that the cards left on the table lie in one row
    # (data_tycoon.css)
    "data_tycoon-six-over": over("data_tycoon", "expert", players=6, languages=("en", "ru")),
    "data_monsters-over": over("data_monsters", languages=("en", "es", "ru")),
    "data_thief-over": over("data_thief", languages=("en", "fr", "ru")),
    "conspiranoia-over": over("conspiranoia", languages=("en", "ru")),
    "data_monsters-interrupt": dict(
        game="data_monsters",
        variant="standard",
        players=4,
        predicate=lambda s: bool(s.window) and s.round >= 7,
        languages=("es", "en", "ru"),
    ),
}
AUDIT_NAMES = [
    "Marie Dupont",
    "Removed student",
    "Théo Lefebvre",
    "Bot 4",
    "Nour Haddad",
    "Mateo García",
]
# the sizes the panels must fit: a classroom screen, a laptop, an old 4:3 projector
LAYOUT_SCREENS = {
    "1920x1080": HD,
    "1366x768": {"width": 1366, "height": 768},
    "1024x768": {"width": 1024, "height": 768},
}


@pytest.fixture(scope="module")
def states():
    cache = {}

    def get(name):
        if name not in cache:
            spec = SCENARIOS[name] if name in SCENARIOS else LAYOUTS[name]
            cache[name] = find_state(
                spec["predicate"],
                game=spec["game"],
                variant=spec["variant"],
                players=spec.get("players", 3),
            )
        found = cache[name]
        return found.game.from_json(found.to_json())

    return get


def open_projector(browser, state, viewport, language="en", names=NAMES):
    context = browser.new_context(viewport=viewport, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    page.on("console", console)
    table = FakeTable(state, seat=None, bots=False, language=language, names=names)
    serve_page(page, table, role="spectator", template="games/projector.html")
    page.wait_for_selector(".board > section")
    page.errors = errors
    return context, page


def measures(page: Page) -> dict:
    return page.evaluate(
        """() => {
          const root = document.documentElement;
          const font = (selector) => [...document.querySelectorAll(selector)]
            .map((e) => parseFloat(getComputedStyle(e).fontSize));
          return {
            scrollWidth: root.scrollWidth, scrollHeight: root.scrollHeight,
            cards: [...document.querySelectorAll('.board .dt-card:not(.dt-card--mini)')]
              .map((e) => e.getBoundingClientRect().width),
            names: font('.board .player__name'),
            log: font('.game-log li'),
            board: document.querySelector('.game-layout').getBoundingClientRect().toJSON(),
            // what the board's own box hides below its bottom (nobody scrolls a projector)
            hidden: (() => {
              const board = document.querySelector('.board');
              return board.scrollHeight - board.clientHeight;
            })(),
            players: font('.board .panel--player'),
            // the log's newest line shows in its box (the box scrolls, the screen not)
            newestLogShown: (() => {
              const box = document.querySelector('.game-log__scroll').getBoundingClientRect();
              const line = document.querySelector('.game-log li:last-child');
              if (!line) return false;
              const rect = line.getBoundingClientRect();
              return rect.top >= box.top - 1 && rect.bottom <= box.bottom + 1;
            })(),
          };
        }"""
    )


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_the_projector_fills_a_classroom_screen(browser, states, scenario, artifacts_dir):
    for name, viewport in (("1920x1080", HD), ("3840x2160", UHD)):
        for language in SCENARIOS[scenario].get("languages", ("en", "fr")):
            context, page = open_projector(browser, states(scenario), viewport, language)
            page.wait_for_timeout(300)  # the log's first lines
            page.screenshot(path=artifacts_dir / f"{scenario}-{name}-{language}.png")
            found, errors, problems = measures(page), page.errors, panel_problems(page)
            problems += [f"hidden sideways: {h}" for h in page.evaluate(HIDDEN_OVERFLOW)]
            context.close()
            assert problems == [], "\n".join(problems)
            assert found["scrollWidth"] <= viewport["width"], "the page scrolls sideways"
            assert found["scrollHeight"] <= viewport["height"], "the page scrolls down"
            # the whole board shows: a crowded one draws its players smaller, not cut off
            assert found["hidden"] <= 1, f"{found['hidden']} px of the board hidden"
            assert found["newestLogShown"], "the log's newest line is out of sight"
            assert errors == []
            if SCENARIOS[scenario].get("sizes", True):
                assert_read_from_the_back(found, viewport)


def assert_read_from_the_back(found: dict, viewport: dict) -> None:
    """Cards, names, the log and the players large enough for the back row, and the
    board using the screen."""
    scale = viewport["width"] / HD["width"]
    assert found["cards"], "no full-size card on the projector"
    assert min(found["cards"]) >= MIN_CARD_PX * scale, found["cards"]
    assert found["names"], "no player's name on the projector"
    assert min(found["names"]) >= MIN_NAME_FONT_PX * scale, found["names"]
    assert found["log"], "the game log is empty"
    assert min(found["log"]) >= MIN_LOG_FONT_PX * scale, found["log"]
    assert min(found["players"]) >= MIN_PLAYER_FONT_PX * scale, found["players"]
    # the board uses the screen: its layout spans most of the width and height
    assert found["board"]["width"] >= 0.9 * viewport["width"]
    assert found["board"]["bottom"] >= 0.85 * viewport["height"]


@pytest.mark.parametrize("scenario", list(LAYOUTS))
def test_no_panel_hides_another(browser, states, scenario, artifacts_dir):
    """At the end of a game and in an interrupt window, every panel of the projector (the
    turn, the table, the market, the ranking, the players, the log) shows whole, on the
    screen and under no other, at 1920x1080, 1366x768 and 1024x768."""
    problems = []
    for size, viewport in LAYOUT_SCREENS.items():
        for language in LAYOUTS[scenario]["languages"]:
            context, page = open_projector(
                browser, states(scenario), viewport, language, names=AUDIT_NAMES
            )
            page.wait_for_timeout(300)  # the board's fit, the log's first lines
            page.screenshot(path=artifacts_dir / f"{scenario}-{size}-{language}.png")
            found = measures(page)
            where = f"{scenario} {size} {language}"
            title = page.locator(".projector-title").inner_text()
            if not title.endswith(" · TEST42"):
                problems.append(f"{where}: no separator before the code in {title!r}")
            problems += [f"{where}: {p}" for p in panel_problems(page)]
            problems += [f"{where}: hidden sideways: {h}" for h in page.evaluate(HIDDEN_OVERFLOW)]
            problems += [f"{where}: a word broken with no hyphen: {w}" for w in split_words(page)]
            if found["hidden"] > 1:
                problems.append(f"{where}: {found['hidden']} px of the board hidden")
            if (
                found["scrollHeight"] > viewport["height"]
                or found["scrollWidth"] > viewport["width"]
            ):
                problems.append(f"{where}: the page scrolls")
            problems += [f"{where}: {e}" for e in page.errors]
            context.close()
    assert not problems, "\n".join(problems)
