"""Data Thief at five players with long nicknames, in Chromium: the projector (1920 px),
a tablet (1024 px) and a phone (390 px), in English and Russian, mid-game.

A long nickname or card name wraps between words, or inside a word only where a hyphen
shows (a soft hyphen the board put between syllables): never at a random letter, on the
students' page at every size and on the classroom screen at 1920 px. No page is wider
than the window. The screenshots (the classroom screen at the three sizes too) go to
test-artifacts/<test name>/, to be looked at.
"""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import expect

from classroom import actions
from classroom.identity import new_device_id
from classroom.models import ClassSession, Table
from games.data_thief.rules import State as DataThiefState
from games.matches import load_state
from games.models import Match
from tests.browser.classroom import PASSWORD, TIMEOUT
from tests.browser.screens import log_in, overflow_problems
from tests.live.helpers import random_step

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone-390": (390, 844), "tablet": (1024, 768), "projector": (1920, 1080)}
# Nicknames of the longest length (20), one word each: the worst case for a narrow column.
NICKNAMES = {
    "en": ["Superkalifragilistic", "Bartholomew-Winthrop", "Montgomeryshire", "Alexandrina"],
    "ru": ["Достопримечательная", "Константинопольская", "Александровна", "Непревзойдённый"],
}

# Every word of the names on the board (players' and cards') that the browser breaks
# across lines at a place with no hyphen: [text of the element, the word].
BROKEN_WORDS = """
() => {
  const found = [];
  const selector = [".dth-manager__name", ".dth-thief h2", ".players .nickname", ".nickname",
    ".dt-card__label", ".dt-card__head", ".dth-note", ".dth-slot--free", ".dt-card__shape",
    ".dt-card__badge", ".ranking th",
    ".scoreline"].join(", ");
  for (const element of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      const text = node.textContent;
      for (const match of text.matchAll(/[^\\s]+/g)) {
        const start = match.index;
        let previousTop = null;
        for (let i = start; i < start + match[0].length; i += 1) {
          // a soft hyphen: drawn (or not) at the end of the line it breaks
          if (text[i] === "\\u00ad") continue;
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rects = range.getClientRects(); // a drawn hyphen first, then the letter
          const rect = rects[rects.length - 1];
          if (!rect || !rect.width) continue;
          const top = Math.round(rect.top);
          // a new line inside the word: allowed right after a soft or a real hyphen
          if (previousTop !== null && top > previousTop + 2 && !/[\\u00ad-]/.test(text[i - 1])) {
            found.push([element.textContent.trim().slice(0, 40), match[0].replace(/\\u00ad/g, "")]);
            break;
          }
          previousTop = top;
        }
      }
    }
  }
  return found;
}
"""

# The chips of a board's cards (a measure's nature, "◐ face down") that stick out of
# their card, where the card cuts them off: [card, chip text].
CLIPPED_CHIPS = """
() => [...document.querySelectorAll(".dth-slots .dt-card")].flatMap((card) => {
  const edge = card.getBoundingClientRect().right;
  return [...card.querySelectorAll(".dt-card__shape, .dt-card__badge")]
    .filter((chip) => chip.getBoundingClientRect().right > edge + 1)
    .map((chip) => [card.dataset.card || "", chip.textContent.replace(/\u00ad/g, "")]);
})
"""


def mid_game_session(teacher: User, language: str) -> ClassSession:
    """A Data Thief session of five a table: four long-named students and a bot (the
    thief), started and played to the fifth round."""
    school_class = actions.do_create_class(teacher, "Year 9")
    session = actions.do_create_session(
        school_class,
        game="data_thief",
        variant="standard",
        language=language,
        table_size=5,
        bots_fill=True,
    )
    for nickname in NICKNAMES[language][1:]:
        actions.do_join_session(session, nickname, new_device_id())
    return session


def thief_round(match: Match) -> int:
    """The round the match's Data Thief game is at."""
    state = load_state(match)
    assert isinstance(state, DataThiefState)
    return state.round


@pytest.mark.parametrize("language", ["en", "ru"])
def test_long_names_wrap_cleanly_at_five_players(language, browser, live_server_url, artifacts_dir):
    teacher = get_user_model().objects.create_user(username="screens", password=PASSWORD)
    session = mid_game_session(teacher, language)
    student = browser.new_context(locale=language)
    page = student.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{live_server_url}/join/{session.join_code}/")
    page.locator("#id_nickname").fill(NICKNAMES[language][0])
    page.locator("main form [type=submit]").first.click()
    page.wait_for_url(f"**/lobby/{session.join_code}/")
    actions.do_start_session(session)
    table = Table.objects.get(session=session)
    match = Match.objects.get(pk=table.match_id)
    rng = random.Random(4)
    while thief_round(match) < 5:
        random_step(match, rng)
    assert table.seats.count() == 5

    teacher_context = browser.new_context(locale=language)
    log_in(teacher_context, live_server_url)
    projector = teacher_context.new_page()
    projector.set_default_timeout(TIMEOUT)
    problems = []
    pages = {
        "play": (page, f"/play/{session.join_code}/"),
        "projector": (projector, reverse("live:projector", args=[table.pk])),
    }
    for name, (tab, path) in pages.items():
        for size, (width, height) in SIZES.items():
            tab.set_viewport_size({"width": width, "height": height})
            tab.goto(live_server_url + path)
            expect(tab.locator(".dth-manager").first).to_be_visible()
            expect(tab.locator(".dth-manager")).to_have_count(4)
            tab.wait_for_timeout(200)  # the board's measured fit of long words
            tab.screenshot(path=artifacts_dir / f"{language}-{name}-{size}.png", full_page=True)
            # the classroom screen on a phone: no wider than it, but its cards may clip
            on_a_phone = name == "projector" and size == "phone-390"
            problems += overflow_problems(tab, f"{name} @ {size}", boxes=not on_a_phone)
            if name == "projector" and size != "projector":
                continue  # the classroom screen is checked at its own size, 1920 px
            if name == "projector" and size == "projector":
                # nobody scrolls a classroom screen: the thief in view whatever the
                # managers' boards hold (at five players a manager's full boards, long
                # names and countered attacks may still run past the bottom edge)
                box = tab.locator(".dth-thief").bounding_box()
                if box["y"] + box["height"] > height + 1:
                    problems.append("projector: the thief ends below the screen")
            for card, chip in tab.evaluate(CLIPPED_CHIPS):
                problems.append(f"{name} @ {size}: {chip!r} cut off by its card {card}")
            for text, word in tab.evaluate(BROKEN_WORDS):
                problems.append(f"{name} @ {size}: {word!r} broken without a hyphen in {text!r}")
    for context in (student, teacher_context):
        context.close()
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
