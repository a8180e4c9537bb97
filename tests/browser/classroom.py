"""Steps every whole-game browser test takes: a teacher launches a session, students
join on devices of their own and reach their table, a control is clicked."""

import re

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, expect

PASSWORD = "Browser-teacher-passw0rd"
TIMEOUT = 15_000


# Counts the lines the client adds to the game log: "the board updated".
COUNT_LOG_LINES = """
document.addEventListener("DOMContentLoaded", () => {
  window.logLines = 0;
  const log = document.querySelector("[data-slot=log]");
  if (log) new MutationObserver((changes) => {
    for (const change of changes) window.logLines += change.addedNodes.length;
  }).observe(log, { childList: true });
});
"""


def is_over(page: Page) -> bool:
    """Tell whether the page shows the end of the game."""
    return page.locator(".panel--end").count() > 0


def teacher_launches(
    page, base_url, *, username, class_name, game, variant, options=(), language="en", players=3
):
    """Log in, create a class, open a lobby of tables of ``players`` (3) with bots; return
    the code.

    ``options``: (label, value) pairs of the game's own options in the launch form;
    ``language``: the session's (the students' pages and the projector's).
    """
    page.goto(f"{base_url}/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="My classes")).to_be_visible()
    page.get_by_role("link", name="New class").first.click()
    page.get_by_label("Name").fill(class_name)
    page.get_by_role("button", name="Create the class").click()
    page.get_by_role("link", name="Launch a session").click()
    page.get_by_label("Game", exact=True).select_option(game)
    # the form shows the chosen game's own options only
    shown = page.locator("details.game-options:visible")
    expect(shown).to_have_count(1)
    expect(shown).to_have_attribute("data-game", game)
    page.locator("#id_variant").select_option(variant)  # a game option may say "variant" too
    page.locator("#id_language").select_option(language)
    page.get_by_label("Players per table").fill(str(players))
    page.get_by_label("Bots fill empty seats").check()
    if options:
        fieldset = page.locator(f"details.game-options[data-game={game}]")
        fieldset.locator("summary").click()
        for label, value in options:
            field = fieldset.get_by_label(label)
            if field.evaluate("element => element.tagName") == "SELECT":
                field.select_option(value)
            else:
                field.fill(value)
    page.get_by_role("button", name="Open the lobby").click()
    code = page.locator(".join-code").inner_text().strip()
    assert re.fullmatch(r"[A-HJKMNP-Z2-9]{6}", code)
    return code


def student_joins(browser, base_url, code, nickname, *, viewport=(360, 740), init_script=""):
    """Join from a fresh browser context (its own cookies: another device)."""
    width, height = viewport
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{base_url}/join/")
    page.get_by_label("Game code").fill(code)
    page.get_by_label("Nickname").fill(nickname)
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page.get_by_role("heading", name=f"Hello, {nickname}!")).to_be_visible()
    return context, page


def reach_the_table(page, code):
    """The lobby sends the student to the table once the teacher starts."""
    try:
        page.wait_for_url(f"**/play/{code}/", timeout=TIMEOUT)
    except PlaywrightError:
        page.get_by_role("link", name="Go to your table").click()
        page.wait_for_url(f"**/play/{code}/")
    expect(page.locator(".board > section").first).to_be_visible()


def try_click(locator: Locator) -> bool:
    """Click the first match if it is there now; the board may re-render meanwhile."""
    try:
        if locator.count() == 0:
            return False
        locator.first.click(timeout=2_000)
        return True
    except PlaywrightError:
        return False


def play_one_step(page: Page) -> bool:
    """On a Data-Tycoon page, click one legal control if the page offers any now (answer
    a prompt, else build, else a hand card and its first play); return whether it did."""
    if page.locator("#game.is-busy").count():
        return False
    for selector in (".prompt button[data-action]", ".free-actions button[data-action]"):
        if try_click(page.locator(selector)):
            return True
    hand = page.locator(".dt-cards--hand button.dt-card")
    if hand.count() == 0:
        return False
    chosen = page.locator('.dt-cards--hand button.dt-card[aria-pressed="true"]')
    if not try_click(chosen) and not try_click(hand):
        return False
    target = page.locator(".dt-cards--table button.is-target, .tray button[data-action]")
    return try_click(target)
