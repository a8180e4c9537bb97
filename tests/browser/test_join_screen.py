"""In Chromium, on the live server: the session page and the join screen on a classroom
projector.

The teacher launches a session (in English, then in French), and the session page shows
the join code on one line at 1280, 1366 and 1920 px with the QR code above the fold.
The join screen opens from the session page on a 1920x1080 screen and a 3840x2160 one:
the code on one line in letters that read from 10 m, the whole QR code, no scrolling;
students join and their nicknames appear on both screens through the socket, without a
reload; the teacher starts the game and both screens turn into the tables overview,
whose table links open the table's projector view. Screenshots go to
test-artifacts/<test>/.
"""

import os
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Locator, Page, expect

from tests.browser.classroom import PASSWORD, TIMEOUT, teacher_launches
from tests.browser.sockets import assert_no_reconnect

# Read by the child services (uvicorn, the Celery worker) when the session starts them.
os.environ.setdefault("BOT_DELAY_SECONDS", "0.05")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HD = {"width": 1920, "height": 1080}
UHD = {"width": 3840, "height": 2160}
LAPTOP = {"width": 1366, "height": 768}
# The code's capitals at least this high at 1920x1080 (twice that at 3840x2160): the
# size that reads from the back of a classroom, about 10 m away.
MIN_GLYPH_PX = 120
# A nickname appears on the screen this soon after the student joined.
APPEAR_MS = 5_000
NICKNAMES = ("Alice Fox", "Bob Owl", "Chloé Lynx", "Dmitri Bear")

# The code's box, its line height and the height of its letters as drawn in its font.
MEASURE_CODE = """(el) => {
  const style = getComputedStyle(el);
  const context = document.createElement('canvas').getContext('2d');
  context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const text = context.measureText(el.dataset.code);
  const box = el.getBoundingClientRect();
  return {
    height: box.height, right: box.right, lineHeight: parseFloat(style.lineHeight),
    glyph: text.actualBoundingBoxAscent + text.actualBoundingBoxDescent,
    whiteSpace: style.whiteSpace, fontFamily: style.fontFamily,
  };
}"""
PAGE_SIZE = """() => ({
  scrollWidth: document.documentElement.scrollWidth,
  scrollHeight: document.documentElement.scrollHeight,
})"""


@pytest.fixture
def teacher(django_user_model):
    return django_user_model.objects.create_user(username="ms-screen", password=PASSWORD)


def assert_accessible(page: Page, where: str) -> None:
    """No axe-core violation on the page (axe ships with the package: no network)."""
    results = Axe().run(page)
    assert results.violations_count == 0, f"{where}:\n{results.generate_report()}"


def assert_one_line(measure: dict, where: str) -> None:
    """One line box: the element is about one line high."""
    assert measure["height"] < 1.5 * measure["lineHeight"], f"{where}: the code wraps: {measure}"


def assert_fits(page: Page, viewport: dict, where: str) -> None:
    """Nothing overflows the screen, sideways or down."""
    size = page.evaluate(PAGE_SIZE)
    assert size["scrollWidth"] <= viewport["width"], f"{where}: scrolls sideways: {size}"
    assert size["scrollHeight"] <= viewport["height"], f"{where}: scrolls down: {size}"


def assert_fully_visible(locator: Locator, viewport: dict, where: str) -> None:
    box = locator.bounding_box()
    assert box is not None, f"{where}: not shown"
    assert box["x"] >= 0 and box["y"] >= 0, f"{where}: {box}"
    assert box["x"] + box["width"] <= viewport["width"] + 0.5, f"{where}: {box}"
    assert box["y"] + box["height"] <= viewport["height"] + 0.5, f"{where}: {box}"


def check_session_page(page: Page, artifacts_dir: Path, language: str) -> None:
    """The code on one line at 1280, 1366 and 1920 px; the QR code above the fold at 1080p."""
    code = page.locator(".join-code")
    # the code is in the DOM before projector.css has loaded; a person sees it after
    page.wait_for_load_state("load")
    for width, height in ((1280, 800), (1366, 768), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        measure = code.evaluate(MEASURE_CODE.replace("el.dataset.code", "el.textContent"))
        assert_one_line(measure, f"session page at {width} px")
        assert measure["right"] <= width
        page.screenshot(path=artifacts_dir / f"session-{width}x{height}-{language}.png")
    assert_fully_visible(page.locator(".join-panel .qr svg"), HD, "the session page's QR code")
    # on a phone the panel is one column and the page does not scroll sideways
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate(PAGE_SIZE)["scrollWidth"] <= 390
    assert_one_line(code.evaluate(MEASURE_CODE.replace("el.dataset.code", "el.textContent")), "390")
    page.screenshot(path=artifacts_dir / f"session-390x844-{language}.png", full_page=True)


def student_joins(browser, base_url, code, nickname):
    """Join from a device of its own; the screen, not this page, is what is checked."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{base_url}/join/")
    page.get_by_label("Game code").fill(code)
    page.get_by_label("Nickname").fill(nickname)
    page.get_by_role("button", name="Join", exact=True).click()
    page.wait_for_url(f"**/lobby/{code}/")
    return context


def open_screen(browser, teacher_context, href, base_url, viewport):
    context = browser.new_context(
        viewport=viewport, locale="en-GB", storage_state=teacher_context.storage_state()
    )
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.goto(base_url + href)
    page.wait_for_function("() => window.dpSockets && window.dpSockets.opened >= 1")
    return context, page


def check_join_screen(page: Page, viewport: dict, where: str) -> None:
    scale = viewport["width"] / HD["width"]
    code = page.locator(".join-screen__code")
    measure = code.evaluate(MEASURE_CODE)
    assert_one_line(measure, where)
    assert measure["whiteSpace"] == "nowrap"
    assert "mono" in measure["fontFamily"].lower(), measure
    assert measure["glyph"] >= MIN_GLYPH_PX * scale, f"{where}: letters too small: {measure}"
    assert code.inner_text() == code.get_attribute("data-code")  # grouped, still one word
    assert_fully_visible(page.locator(".join-screen__qr svg"), viewport, f"{where}: QR code")
    assert_fits(page, viewport, where)


@pytest.mark.usefixtures("celery_worker", "teacher")
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_join_screen_shows_the_code_the_students_and_then_the_tables(
    browser, live_server_url, artifacts_dir, language
):
    teacher_context = browser.new_context(viewport=HD, locale="en-GB")
    page = teacher_context.new_page()
    page.set_default_timeout(TIMEOUT)
    code = teacher_launches(
        page,
        live_server_url,
        username="ms-screen",
        class_name="Year 8 Screen",
        game="data_tycoon",
        variant="beginner",
        language=language,
    )
    check_session_page(page, artifacts_dir, language)
    page.set_viewport_size(HD)

    link = page.get_by_role("link", name="Show the join screen on the projector")
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    screens = {
        "1920x1080": (HD, *open_screen(browser, teacher_context, href, live_server_url, HD)),
        "3840x2160": (UHD, *open_screen(browser, teacher_context, href, live_server_url, UHD)),
    }
    for name, (viewport, _, screen) in screens.items():
        expect(screen.locator(".screen-live__count")).to_contain_text("0")
        expect(screen.locator("html")).to_have_attribute("lang", language)
        check_join_screen(screen, viewport, f"the join screen at {name}")
        screen.screenshot(path=artifacts_dir / f"join-empty-{name}-{language}.png")

    for _viewport, _context, screen in screens.values():
        screen.evaluate("() => { window.notReloaded = true; }")  # gone if the page reloads
    students = []
    for nickname in NICKNAMES:
        students.append(student_joins(browser, live_server_url, code, nickname))
        for _viewport, _context, screen in screens.values():
            expect(screen.locator(".screen-roster")).to_contain_text(nickname, timeout=APPEAR_MS)
    for name, (viewport, _, screen) in screens.items():
        expect(screen.locator(".screen-roster__name")).to_have_count(len(NICKNAMES))
        assert screen.evaluate("() => window.notReloaded === true"), f"{name} reloaded"
        check_join_screen(screen, viewport, f"the join screen at {name} with students")
        screen.screenshot(path=artifacts_dir / f"join-students-{name}-{language}.png")
    assert_accessible(screens["1920x1080"][2], "the join screen")
    laptop = screens["1920x1080"][2]
    laptop.set_viewport_size(LAPTOP)
    check_join_screen(laptop, LAPTOP, "the join screen on a 1366x768 laptop")
    laptop.screenshot(path=artifacts_dir / f"join-students-1366x768-{language}.png")
    laptop.set_viewport_size(HD)

    page.get_by_role("button", name="Start").click()
    for name, (viewport, _, screen) in screens.items():
        # four students and bots at tables of three: two tables
        expect(screen.locator(".screen-table")).to_have_count(2)
        expect(screen.locator(".join-screen__qr")).to_be_hidden()
        for nickname in NICKNAMES:
            expect(screen.locator(".screen-tables")).to_contain_text(nickname)
        assert_fits(screen, viewport, f"the tables overview at {name}")
        code_box = screen.locator(".join-screen__code").bounding_box()
        assert code_box is not None and code_box["y"] + code_box["height"] <= viewport["height"]
        screen.wait_for_timeout(500)  # the bots' first moves
        screen.screenshot(path=artifacts_dir / f"tables-{name}-{language}.png")
        assert screen.evaluate("() => window.notReloaded === true"), f"{name} reloaded"
        assert_no_reconnect(screen, f"the join screen at {name}")
        assert screen.errors == []

    # a table's link opens its projector view
    screen = screens["1920x1080"][2]
    assert_accessible(screen, "the tables overview")
    screen.locator(".screen-table__head a").first.click()
    screen.wait_for_url("**/projector/")
    expect(screen.locator(".board > section").first).to_be_visible()
    assert_fits(screen, HD, "the projector view")
    screen.screenshot(path=artifacts_dir / f"projector-1920x1080-{language}.png")

    for context in (*students, *(context for _, context, _ in screens.values())):
        context.close()
    teacher_context.close()
