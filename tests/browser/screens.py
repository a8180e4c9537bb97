"""What the screens tests check on a page (no horizontal overflow, no text under 12 px on
a phone, the join code on one line, axe), the sizes they check it at, and the steps
that bring a session to each page."""

from __future__ import annotations

import random
from pathlib import Path

from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect

from classroom import actions
from classroom.models import ClassSession, Table
from games.models import Match
from tests.browser.classroom import PASSWORD, TIMEOUT
from tests.live.conftest import open_session
from tests.live.helpers import random_step

VIEWPORTS = {
    "phone-360": (360, 740),
    "phone-390": (390, 844),
    "tablet": (1024, 768),
    "projector": (1920, 1080),
}
PHONES = {"phone-360", "phone-390"}
# Pages made for the classroom screen, sized in fractions of it: on a phone the teacher
# has the live dashboard instead. They are still checked for overflow and by axe.
SCREEN_PAGES = {"projector"}
LANGUAGES = [code for code, _name in settings.LANGUAGES]
# axe's own impact levels; "moderate" and "minor" are reported, not failed on.
FAILING_IMPACTS = {"serious", "critical"}
SMALLEST_TEXT_PX = 12

# Visible text smaller than SMALLEST_TEXT_PX: [font size, text] of each element.
SMALL_TEXT = """
(limit) => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const text = node.textContent.trim();
    const element = node.parentElement;
    if (!text || !element) continue;
    const style = getComputedStyle(element);
    const box = element.getBoundingClientRect();
    const hidden = style.visibility === "hidden" || box.width <= 1 || box.height <= 1
      || element.closest("[hidden], [aria-hidden=true], .visually-hidden, svg");
    const size = parseFloat(style.fontSize);
    if (!hidden && size < limit) found.push([size, text.slice(0, 40)]);
  }
  return found;
}
"""
# How a check names an element: its tag and classes ("section.card.live-table").
ELEMENT_NAME = """
  const name = (e) => e.tagName.toLowerCase()
    + (e.className && typeof e.className === "string"
      ? "." + e.className.trim().split(/\\s+/).join(".") : "");
"""
# How far the page is wider than the window (0: no horizontal overflow), and the
# outermost elements that stick out, to say where.
OVERFLOW = """
() => {%NAME%  const width = window.innerWidth;
  const clipped = (element) => {  // inside a box that scrolls or clips sideways
    for (let e = element.parentElement; e && e !== document.body; e = e.parentElement) {
      if (getComputedStyle(e).overflowX !== "visible") return true;
    }
    return false;
  };
  const out = [...document.body.querySelectorAll("*")].filter((element) => {
    const box = element.getBoundingClientRect();
    const parent = element.parentElement.getBoundingClientRect();
    // the outermost box that sticks out: where the page's own width comes from
    return box.right > width + 1 && box.width > 0 && !clipped(element)
      && (element.parentElement === document.body || parent.right <= width + 1);
  });
  return [document.documentElement.scrollWidth - width, out.slice(0, 4).map(name)];
}
""".replace("%NAME%", ELEMENT_NAME)
# The boxes that scroll or clip sideways (a card's ``overflow-x: auto``) whose content is
# wider than they are (by more than a pixel: the rounding of widths): what the page's
# own width does not show (OVERFLOW leaves them out), a part hidden until one scrolls
# the box. Left out: what is not drawn (a closed <details>'s panel), a line cut short
# with an ellipsis on purpose, and a box made to scroll: one that snaps (a phone's hand
# of cards) or a scrolling region the keyboard can reach (``role="region"`` with a
# tabindex: a wide ranking).
HIDDEN_OVERFLOW = """
() => {%NAME%  return [...document.body.querySelectorAll("*")].filter((element) => {
    const style = getComputedStyle(element);
    return ["auto", "scroll", "hidden"].includes(style.overflowX)
      && style.textOverflow !== "ellipsis"
      && element.clientWidth > 2 && element.scrollWidth > element.clientWidth + 1
      && style.scrollSnapType === "none" && !element.matches("[role=region][tabindex]")
      && element.checkVisibility();
  }).slice(0, 4).map((e) =>
    `${name(e)} (${e.scrollWidth - e.clientWidth} px: "${e.innerText.slice(0, 40)}")`);
}
""".replace("%NAME%", ELEMENT_NAME)
# The join code's rendered lines (1: it does not wrap).
CODE_LINES = """
(element) => {
  const range = document.createRange();
  range.selectNodeContents(element);
  const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
  return tops.size;
}
"""


def screen_session(teacher: User, language: str) -> ClassSession:
    """A class and a Data-Tycoon session in ``language``, with bots, not started yet."""
    school_class = actions.do_create_class(teacher, "4B")
    return open_session(
        school_class, table_size=3, bots=True, variant="beginner", language=language
    )


def log_in(context: BrowserContext, base_url: str) -> None:
    page = context.new_page()
    page.goto(f"{base_url}/login/")
    page.locator("#id_username").fill("screens")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("#id_password").press("Enter")
    page.wait_for_url(f"{base_url}/teacher/")
    page.close()


def student_joins(context: BrowserContext, base_url: str, code: str) -> None:
    """Join through the join form, whatever its language; the lobby follows."""
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{base_url}/join/{code}/")
    page.locator("#id_nickname").fill("Robin")
    page.locator("main form [type=submit]").first.click()
    page.wait_for_url(f"**/lobby/{code}/")
    page.close()


def finish_match(table: Table) -> None:
    """Play the table's match to its end with random legal moves, for every seat."""
    match = Match.objects.get(pk=table.match_id)
    rng = random.Random(7)
    for _ in range(5000):
        if match.status == Match.Status.FINISHED:
            return
        random_step(match, rng)
    raise AssertionError("the match did not end")


def answer_the_quiz(context: BrowserContext, base_url: str) -> tuple[str, int]:
    """Answer every question (the first choice); return the last page's path and how
    many questions there were."""
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(base_url + reverse("lessons:quiz"))
    answered = 0
    while page.locator(".quiz-form").count():
        page.locator('.quiz-form input[name="choice"]').first.check()
        with page.expect_navigation():
            page.locator(".quiz-form [type=submit]").click()
        expect(page.locator(".quiz-feedback")).to_be_visible()
        answered += 1
        assert answered <= 5
    path = page.url.removeprefix(base_url)
    page.close()
    return path, answered


def overflow_problems(page: Page, where: str, *, boxes: bool = True) -> list[str]:
    """Return what sticks out of the page: past the window, or (``boxes``) hidden sideways
    in a box."""
    problems = []
    overflow, culprits = page.evaluate(OVERFLOW)
    if overflow > 0:
        problems.append(f"{where}: {overflow} px wider than the window: {culprits}")
    hidden = page.evaluate(HIDDEN_OVERFLOW) if boxes else []
    if hidden:
        problems.append(f"{where}: wider than the box that shows it, hidden sideways: {hidden}")
    return problems


# The language switch on the site name's line: its middle within the name's height, or
# nothing when a page's header has no name or no switch.
SWITCH_BESIDE_THE_NAME = """
() => {
  const name = document.querySelector(".site-header .brand");
  const language = document.querySelector(".site-header .language-switcher");
  if (!name || !language) return true;
  const n = name.getBoundingClientRect(), l = language.getBoundingClientRect();
  const middle = (l.top + l.bottom) / 2;
  return n.top <= middle && middle <= n.bottom + n.height;
}
"""


def check(page: Page, name: str, size: str, *, folder: Path, problems: list[str], axe: Axe) -> None:
    """Screenshot the page, then collect what is wrong with it into ``problems``."""
    where = f"{name} @ {size}"
    page.screenshot(path=folder / f"{name}-{size}.png", full_page=True)
    problems += overflow_problems(page, where)
    if size in PHONES and not name.endswith(tuple(SCREEN_PAGES)):
        small = page.evaluate(SMALL_TEXT, SMALLEST_TEXT_PX)
        if small:
            problems.append(f"{where}: text under {SMALLEST_TEXT_PX} px: {small[:5]}")
    if size not in PHONES and not page.evaluate(SWITCH_BESIDE_THE_NAME):
        problems.append(f"{where}: the language switch is not on the site name's line")
    for code in page.locator(".join-code").all():
        if code.is_visible() and code.evaluate(CODE_LINES) > 1:
            problems.append(f"{where}: the join code wraps")
    if size in {"phone-390", "projector"}:  # axe's rules barely depend on the width
        for violation in axe.run(page).response["violations"]:
            if violation["impact"] in FAILING_IMPACTS:
                targets = [node["target"] for node in violation["nodes"][:3]]
                problems.append(f"{where}: axe {violation['id']} ({violation['impact']}) {targets}")


# What shows that a page drew what it is checked for (a board draws from its socket).
READY = {
    "play": ".board > section",
    "projector": ".board > section",
    "end": ".panel--end",
    "quiz": ".quiz-form",
    "quiz-result": "#done-heading",
    "lesson": "main h1",
    "replay": "#replay-move",
}
