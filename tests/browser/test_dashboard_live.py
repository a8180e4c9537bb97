"""In Chromium: the teacher's live dashboard follows the moves without a reload. A move
sends only its table's part, which the page swaps in by its id; the other tables and
the rest of the dashboard stay as they were, and the socket never reconnects."""

import random
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from classroom import actions
from classroom.models import Table
from games.matches import load_state
from games.models import Match
from live import write
from tests.browser.screens import PASSWORD, log_in, overflow_problems
from tests.browser.sockets import TIMEOUT, assert_no_reconnect
from tests.live.conftest import EIGHT, open_session, seat_students

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def started_session():
    teacher = get_user_model().objects.create_user(username="screens", password=PASSWORD)
    session = open_session(actions.do_create_class(teacher, "8C"), table_size=4, bots=True)
    seat_students(session, *EIGHT[:6])
    return actions.do_start_session(session)


def move_at(table: Table, rng: random.Random) -> int:
    """Play one legal move at the table through the write path; return the version."""
    match = Match.objects.get(pk=table.match_id)
    state = load_state(match)
    movers = state.to_move()
    seat = movers[0] if movers else None
    return write.act(match.pk, seat, rng.choice(state.legal_actions(seat)), match.version).version


def test_a_move_redraws_its_table_on_the_open_dashboard(browser, live_server_url, artifacts_dir):
    session = started_session()
    first, second = Table.objects.filter(session=session).order_by("number")
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    log_in(context, live_server_url)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    frames: list[str] = []
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framereceived",
            lambda payload: frames.append(payload if isinstance(payload, str) else ""),
        ),
    )
    page.goto(f"{live_server_url}/teacher/sessions/{session.pk}/live/")
    one, two = page.locator(f"#live-table-{first.pk}"), page.locator(f"#live-table-{second.pk}")
    expect(one).to_contain_text("move 0")
    expect(two).to_contain_text("move 0")
    for _ in range(100):  # the socket's first message: the whole fragment, once connected
        if frames:
            break
        page.wait_for_timeout(100)
    assert frames and 'id="live-tables"' in frames[0]
    page.locator("#live-tables").evaluate("node => { node.dataset.untouched = 'yes'; }")
    two.evaluate("node => { node.dataset.untouched = 'yes'; }")

    rng = random.Random(5)
    version = 0
    for _ in range(3):
        version = move_at(first, rng)
    expect(one).to_contain_text(f"move {version}")
    page.wait_for_timeout(1500)  # one more coalescing window: nothing else comes
    expect(two).to_contain_text("move 0")
    # the page was not redrawn whole: the marks set on it are still there
    expect(page.locator("#live-tables")).to_have_attribute("data-untouched", "yes")
    expect(two).to_have_attribute("data-untouched", "yes")
    moves = [frame for frame in frames[1:] if f'id="live-table-{first.pk}"' in frame]
    assert moves, frames
    assert all(frame.lstrip().startswith("<section") for frame in moves)
    assert all('id="live-tables"' not in frame for frame in moves)
    page.screenshot(path=artifacts_dir / "dashboard-after-moves-1280.png", full_page=True)
    assert_no_reconnect(page, "the teacher")


def test_a_hidden_dashboard_waits_and_is_drawn_whole_when_seen(
    browser, live_server_url, artifacts_dir
):
    """The page tells its socket when its tab is hidden: the moves meanwhile send it
    nothing; seen again, it gets the whole dashboard with every move since."""
    session = started_session()
    first = Table.objects.filter(session=session).order_by("number").first()
    assert first is not None
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    log_in(context, live_server_url)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    frames: list[str] = []
    sent: list[str] = []

    def follow(ws):
        ws.on(
            "framereceived",
            lambda payload: frames.append(payload if isinstance(payload, str) else ""),
        )
        ws.on("framesent", lambda payload: sent.append(payload if isinstance(payload, str) else ""))

    page.on("websocket", follow)
    page.goto(f"{live_server_url}/teacher/sessions/{session.pk}/live/")
    one = page.locator(f"#live-table-{first.pk}")
    expect(one).to_contain_text("move 0")
    for _ in range(100):  # connected: the whole fragment came
        if frames:
            break
        page.wait_for_timeout(100)
    assert frames

    def set_hidden(hidden: bool) -> None:
        page.evaluate(
            """hidden => {
                Object.defineProperty(document, "hidden", {value: hidden, configurable: true});
                document.dispatchEvent(new Event("visibilitychange"));
            }""",
            hidden,
        )

    set_hidden(True)
    for _ in range(50):
        if any('"hidden":true' in message for message in sent):
            break
        page.wait_for_timeout(100)
    assert any('"hidden":true' in message for message in sent), sent
    page.wait_for_timeout(300)
    received = len(frames)
    rng = random.Random(7)
    version = 0
    for _ in range(3):
        version = move_at(first, rng)
    page.wait_for_timeout(2500)  # two coalescing windows: nothing comes
    assert len(frames) == received
    expect(one).to_contain_text("move 0")

    set_hidden(False)
    expect(one).not_to_contain_text("move 0")
    assert 'id="live-tables"' in frames[received]  # the whole dashboard
    # every move since, the table's bot may have played more after them
    shown = re.search(r"move (\d+)", one.inner_text())
    assert shown is not None
    assert int(shown.group(1)) >= version
    page.screenshot(path=artifacts_dir / "dashboard-seen-again-1280.png", full_page=True)
    assert_no_reconnect(page, "the teacher")


# The texts of the cells whose first sign ("▶", "●") is not on the line of the next letter.
SIGN_ALONE = """(cells) => cells.filter((cell) => {
  const text = [...cell.querySelectorAll('*'), cell].flatMap((e) => [...e.childNodes])
    .find((node) => node.nodeType === Node.TEXT_NODE && node.data.trim());
  if (!text) return false;
  const start = text.data.search(/\\S/);
  const top = (i) => { const range = document.createRange();
    range.setStart(text, i); range.setEnd(text, i + 1);
    return Math.round(range.getBoundingClientRect().top); };
  return top(start) !== top(start + 2);
}).map((cell) => cell.innerText)"""


def test_every_table_fits_its_card_in_every_language_from_phone_to_projector(
    browser, live_server_url
):
    """The scores' words are long in some languages (Russian's "sensitive" has 14
    letters): the seats table never runs past its card's edge into a hidden scroll."""
    session = started_session()
    first, second = Table.objects.filter(session=session).order_by("number")
    rng = random.Random(1)
    for _ in range(3):
        move_at(first, rng)
        move_at(second, rng)
    problems = []
    for locale in ("en-GB", "es-ES", "fr-FR", "ru-RU"):
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
        log_in(context, live_server_url)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT)
        for width, height in ((390, 844), (1366, 768), (1920, 1080)):
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{live_server_url}/teacher/sessions/{session.pk}/live/")
            expect(page.locator(".live-seats")).to_have_count(2)
            problems += overflow_problems(page, f"{locale} @ {width}")
            # "▶ to play" and "● yes": the sign on the line of its word, never alone
            signs = page.locator(".live-seats td:nth-child(3), .live-seats td:nth-child(4)")
            assert signs.count() > 0
            problems += [
                f"{locale} @ {width}: {text!r} leaves its sign alone"
                for text in signs.evaluate_all(SIGN_ALONE)
            ]
        context.close()
    assert not problems, "\n".join(problems)
