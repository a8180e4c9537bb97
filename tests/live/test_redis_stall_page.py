"""In Chromium, on a real uvicorn and a Redis of the test's own: Redis stops answering
(SIGSTOP) during a live game. The student's page must not keep saying "Connected." over
a frozen game: within seconds it says it is reconnecting, and says so until Redis is
back; a move tried meanwhile gets a message (refused, never silence) and is not stored;
once Redis answers again the page is connected and the same move is played."""

import signal
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from classroom import actions
from classroom.models import Table
from games.models import Match
from tests.browser.classroom import TIMEOUT, play_one_step, student_joins
from tests.conftest import start_asgi
from tests.live import test_resilience
from tests.live.conftest import open_session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

own_redis = test_resilience.own_redis  # the fixture: a Redis this test may stop

# The channel layer's read timeout (settings.CHANNEL_LAYER_READ_TIMEOUT, 8 s) notices a
# stalled Redis; redis-py may retry the read once.
NOTICED_WITHIN = 20
STALL_SECONDS = 30


def status_timeline(page: Page, seconds: float) -> list[tuple[float, str, str]]:
    """Sample the status line for seconds: (time, text, state) at each change."""
    timeline: list[tuple[float, str, str]] = []
    started = time.monotonic()
    status = page.locator('[data-slot="status"]')
    while time.monotonic() - started < seconds:
        entry = (status.text_content() or "", status.get_attribute("data-state") or "")
        if not timeline or timeline[-1][1:] != entry:
            timeline.append((round(time.monotonic() - started, 1), *entry))
        page.wait_for_timeout(250)
    return timeline


def open_table(page: Page, table_url: str) -> None:
    """Open the table's page, unless the lobby went there by itself meanwhile: its socket
    draws the lobby on connect and on a lobby change (the other student's join), and the
    lobby of a started session sends the page to the table, which aborts a navigation of
    ours under way (seen once: ``net::ERR_ABORTED``)."""
    if page.url != table_url:
        try:
            page.goto(table_url)
        except PlaywrightError as error:
            if "ERR_ABORTED" not in str(error):
                raise
    page.wait_for_url(table_url, timeout=TIMEOUT)


def move_on_either(pages: list[Page]) -> Page:
    """Make one move on whichever page may move now; return that page."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for page in pages:
            if play_one_step(page):
                return page
        pages[0].wait_for_timeout(200)
    pytest.fail("neither student could move")


def test_a_stalled_redis_shows_reconnecting_and_no_move_vanishes(
    browser,
    school_class,
    service_env,
    own_redis,
    artifacts_dir,
):
    redis_server, redis_url = own_redis
    server, url = start_asgi({**service_env, "REDIS_URL": redis_url})
    contexts = []
    try:
        session = open_session(school_class, table_size=2)
        pages = []
        for nickname in ("Ana", "Ben"):
            context, page = student_joins(browser, url, session.join_code, nickname)
            contexts.append(context)
            pages.append(page)
        # Started from here: the lobby's notice would go through this process's Redis,
        # not the server's, so the students open the table themselves.
        actions.do_start_session(session)
        table_url = f"{url}/play/{session.join_code}/"
        for page in pages:
            open_table(page, table_url)
            expect(page.locator(".board > section").first).to_be_visible()
            expect(page.locator('[data-slot="status"]')).to_have_text("Connected.")
        match_id = Table.objects.get(session=session).match_id
        version = Match.objects.get(pk=match_id).version

        redis_server.signal(signal.SIGSTOP)
        try:
            mover = move_on_either(pages)
            errors = mover.locator('[data-slot="errors"]')
            expect(errors).to_contain_text("not stored", timeout=TIMEOUT)
            stored = Match.objects.get(pk=match_id).version
            timeline = status_timeline(mover, STALL_SECONDS)
            mover.screenshot(path=str(artifacts_dir / "stalled-redis-360.png"))
        finally:
            redis_server.signal(signal.SIGCONT)

        status = mover.locator('[data-slot="status"]')
        expect(status).to_have_text("Connected.", timeout=30_000)
        # The same move again, now that Redis answers: it is played.
        assert move_on_either([mover]) is mover
        deadline = time.monotonic() + 20
        while Match.objects.get(pk=match_id).version == version and time.monotonic() < deadline:
            time.sleep(0.2)
        played = Match.objects.get(pk=match_id).version
    finally:
        for context in contexts:
            context.close()
        server.stop()

    assert stored == version, "a move refused during the stall was stored"
    # The page left "Connected." within NOTICED_WITHIN s, said it was reconnecting or
    # could not reach the server, and never again "Connected." while Redis was stopped.
    first_change = next(
        (at for at, text, _state in timeline if text != "Connected."), STALL_SECONDS
    )
    assert first_change <= NOTICED_WITHIN, timeline
    after = [entry for entry in timeline if entry[0] >= first_change]
    assert after and all(state == "reconnecting" for _at, _text, state in after), timeline
    assert any("Reconnecting" in text for _at, text, _state in after), timeline
    assert played == version + 1
