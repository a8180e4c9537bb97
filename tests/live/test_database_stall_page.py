"""In Chromium, on PostgreSQL: the database stops answering (every PostgreSQL process
stopped with SIGSTOP) just as a student moves. The page must not leave the move in
silence: it says the move may not have been stored and reconnects, says it is
reconnecting (never "Connected.") while the database is away, and once the database
answers it is connected again and shows what the database holds: the move stored, or
not, never half."""

import contextlib
import os
import signal
import time
from pathlib import Path

import pytest
from django.db import connection
from playwright.sync_api import expect

from classroom import actions
from classroom.models import Table
from games.models import Match
from tests.browser.classroom import TIMEOUT, reach_the_table, student_joins
from tests.live.conftest import open_session
from tests.live.test_redis_stall_page import move_on_either, status_timeline

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STALL_SECONDS = 25


def postgres_processes() -> list[int]:
    """Return the PostgreSQL server's processes: the postmaster and its children."""
    with connection.cursor() as cursor:
        cursor.execute("SHOW data_directory")
        (data_directory,) = cursor.fetchone()
    postmaster = int((Path(data_directory) / "postmaster.pid").read_text().split()[0])
    children = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == postmaster:
            children.append(int(entry.name))
    return [postmaster, *children]


def signal_all(pids: list[int], signum: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signum)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="stops a PostgreSQL server")
def test_a_stalled_database_never_leaves_a_move_in_silence(
    browser, school_class, live_server_url, artifacts_dir
):
    url = live_server_url
    session = open_session(school_class, table_size=2)
    contexts, pages = [], []
    try:
        for nickname in ("Ana", "Ben"):
            context, page = student_joins(browser, url, session.join_code, nickname)
            contexts.append(context)
            pages.append(page)
        actions.do_start_session(session)
        for page in pages:
            reach_the_table(page, session.join_code)
            expect(page.locator('[data-slot="status"]')).to_have_text("Connected.")
        match_id = Table.objects.get(session=session).match_id
        version = Match.objects.get(pk=match_id).version
        connection.close()  # this process's own connection must not wait on the stall

        stopped = postgres_processes()
        assert len(stopped) > 1, stopped
        signal_all(stopped, signal.SIGSTOP)
        try:
            mover = move_on_either(pages)
            errors = mover.locator('[data-slot="errors"]')
            expect(errors).to_contain_text("stored", timeout=TIMEOUT)
            told = errors.text_content()
            timeline = status_timeline(mover, STALL_SECONDS)
            mover.screenshot(path=str(artifacts_dir / "stalled-database-360.png"))
        finally:
            signal_all(stopped, signal.SIGCONT)

        status = mover.locator('[data-slot="status"]')
        expect(status).to_have_text("Connected.", timeout=30_000)
        stored = Match.objects.get(pk=match_id).version
        # The pages hold the database's version again: the next move is played on it.
        move_on_either(pages)
        deadline = time.monotonic() + 20
        while Match.objects.get(pk=match_id).version == stored and time.monotonic() < deadline:
            time.sleep(0.2)
        played = Match.objects.get(pk=match_id).version
    finally:
        for context in contexts:
            context.close()

    # The move was either refused or stored; the page was told it may not have been.
    assert stored in {version, version + 1}
    assert told is not None and "not" in told and "stored" in told, told
    # While the database was away the page never said "Connected.".
    first_change = next((at for at, text, _state in timeline if text != "Connected."), None)
    assert first_change is not None, timeline
    after = [entry for entry in timeline if entry[0] >= first_change]
    assert all(state == "reconnecting" for _at, _text, state in after), timeline
    assert played == stored + 1
