"""A server's kept PostgreSQL connection is health-checked (``SELECT 1``, one round trip
to the database) only after it sat idle, not before every piece of a socket's database
work: a move is one round trip shorter. One that broke is still found and replaced. The
same holds for a connection of the pool an ASGI server's HTTP requests share, and a
thread that finds the pool busy, or the database away, does not wait out its timeout."""

import contextlib
import functools
import os
import random
import signal
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest
from django.db import DEFAULT_DB_ALIAS, OperationalError, connection, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorWrapper
from django.test import RequestFactory

from classroom import actions
from classroom.models import SchoolClass, Table
from classroom.services import again_on_lost_connection
from config.postgresql import base
from config.services import free_port, postgres_answers, postgres_service, wait_until
from config.unavailable import SentStatements, ServiceUnavailableMiddleware
from games.matches import load_state
from games.models import Match, MatchAction, MatchHold, MatchTimer
from games.signals import action_stored
from lessons.models import LessonMoment
from lessons.moments import forget_kept_cards
from live import tasks, write
from live.screen import render_screen
from live.session_sockets import render_dashboard, render_tables
from live.sockets import DRAWING_THREADS, TABLE_THREADS
from live.sockets import keep_database_connection as live_keep_database_connection
from tests.live.conftest import open_session, seat_students
from tests.live.database_relay import DatabaseRelay
from tests.live.helpers import (
    database_process,
    database_process_alive,
    drive_to_call_window,
    end_database_process,
    keep_database_connection,
    random_step,
)
from tests.live.test_lessons_live import sanction_table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="SQLite's health check is no round trip (a file, always usable)",
    ),
]

IDLE = 0.3  # the idle time before a check, shortened for the test
# What "in steady use" means in the tests of a connection used again at once: never idle
# long enough to be checked, however slow a busy machine runs the test between two uses.
STEADY = 60.0


def in_steady_use(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the idle time before a check longer than the test can take."""
    monkeypatch.setattr(base, "HEALTH_CHECK_IDLE_SECONDS", STEADY)


@pytest.fixture
def kept(monkeypatch):
    """A connection kept between uses as the servers keep theirs, counting its checks."""
    monkeypatch.setattr(base, "HEALTH_CHECK_IDLE_SECONDS", IDLE)
    wrapper = connections["default"].__class__(
        {**connection.settings_dict, "CONN_MAX_AGE": 60, "CONN_HEALTH_CHECKS": True}
    )
    checks: list[float] = []
    is_usable = wrapper.is_usable

    def counted() -> bool:
        checks.append(time.monotonic())
        return is_usable()

    monkeypatch.setattr(wrapper, "is_usable", counted)
    yield wrapper, checks
    wrapper.close()


def pooled_settings(**pool: float) -> dict:
    """The test database's settings with a pool of connections, as an ASGI server's
    HTTP requests share theirs on PostgreSQL (``DB_POOL_SIZE``)."""
    return {
        **connection.settings_dict,
        "CONN_MAX_AGE": 0,
        "CONN_HEALTH_CHECKS": False,
        "OPTIONS": {**connection.settings_dict["OPTIONS"], "pool": pool},
    }


def database_wrapper(settings_dict: dict, alias: str = DEFAULT_DB_ALIAS) -> base.DatabaseWrapper:
    """Return a new connection of the test database's backend (ours, on PostgreSQL)."""
    wrapper = connections["default"].__class__(settings_dict, alias=alias)
    assert isinstance(wrapper, base.DatabaseWrapper), wrapper
    return wrapper


def backend_pid(wrapper: BaseDatabaseWrapper) -> int:
    """Run a query as a socket's work would, after Channels' ``close_old_connections``."""
    wrapper.close_if_unusable_or_obsolete()
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def test_a_connection_in_steady_use_is_not_checked_before_each_use(kept, monkeypatch):
    wrapper, checks = kept
    in_steady_use(monkeypatch)
    pid = backend_pid(wrapper)
    for _ in range(5):
        assert backend_pid(wrapper) == pid
    assert checks == []


def test_a_connection_that_sat_idle_is_checked_first(kept):
    wrapper, checks = kept
    pid = backend_pid(wrapper)
    time.sleep(IDLE + 0.1)
    assert backend_pid(wrapper) == pid
    assert len(checks) == 1
    assert backend_pid(wrapper) == pid  # used a moment ago again: no check
    assert len(checks) == 1


def test_a_connection_dropped_while_idle_is_replaced_before_its_next_use(kept):
    wrapper, checks = kept
    pid = backend_pid(wrapper)
    end_database_process(pid)
    time.sleep(IDLE + 0.1)
    assert backend_pid(wrapper) != pid  # no error: the check found it closed
    assert len(checks) == 1


@pytest.fixture
def pooled(monkeypatch):
    """A connection from a pool, counting the checks made when the pool hands one out."""
    monkeypatch.setattr(base, "HEALTH_CHECK_IDLE_SECONDS", IDLE)
    checks: list[float] = []
    alive = base.alive

    def counted(raw: psycopg.Connection) -> bool:
        checks.append(time.monotonic())
        return alive(raw)

    monkeypatch.setattr(base, "alive", counted)
    settings = pooled_settings(min_size=1, max_size=2)
    wrapper = database_wrapper(settings, alias="pooled")
    assert wrapper.pool is not None
    wrapper.pool.open(wait=True)  # its one connection ready: none opened as the test goes
    yield wrapper, checks
    wrapper.close()
    wrapper.close_pool()


def test_a_pooled_connection_in_steady_use_is_checked_only_when_new(pooled, monkeypatch):
    wrapper, checks = pooled
    in_steady_use(monkeypatch)
    pid = backend_pid(wrapper)
    assert len(checks) == 1  # one the pool just opened has run nothing yet
    for _ in range(5):
        assert backend_pid(wrapper) == pid  # back to the pool and out again each time
    assert wrapper.pool.get_stats()["connections_num"] == 1
    assert len(checks) == 1


def test_a_pooled_connection_dropped_while_idle_is_replaced_before_its_next_use(pooled):
    wrapper, checks = pooled
    pid = backend_pid(wrapper)
    assert backend_pid(wrapper) == pid
    end_database_process(pid)
    time.sleep(IDLE + 0.1)
    assert backend_pid(wrapper) != pid  # no error: the check found it closed
    assert len(checks) == 3  # the first use, the dropped one, the one opened instead


@pytest.mark.parametrize(
    ("connection_kind", "checks_made"),
    [
        # the failed query marked it: checked before the next use, and replaced
        ("kept", 1),
        # the pool discarded it when it came back; the one opened instead is checked
        # when handed out, as new, after the first use's
        ("pooled", 2),
    ],
)
def test_a_connection_dropped_in_steady_use_fails_one_query_then_is_replaced(
    request, monkeypatch, connection_kind, checks_made
):
    wrapper, checks = request.getfixturevalue(connection_kind)
    in_steady_use(monkeypatch)
    pid = backend_pid(wrapper)
    end_database_process(pid)
    with pytest.raises(OperationalError):
        backend_pid(wrapper)  # the one query the skipped check would have saved
    assert backend_pid(wrapper) != pid
    assert len(checks) == checks_made


def match_waiting_for_its_bot(school_class: SchoolClass) -> tuple[Match, int]:
    """Start a session of one student and a bot; play until the bot is to move; return
    the match and the bot's seat."""
    session = open_session(school_class, table_size=2, bots=True)
    seat_students(session, "Ana")
    actions.do_start_session(session)
    table = Table.objects.get(session=session)
    bot = table.seats.get(participant__isnull=True).number
    match = Match.objects.get(pk=table.match_id)
    rng = random.Random(3)
    while bot not in load_state(match).to_move():
        random_step(match, rng)
    return match, bot


def test_a_bot_move_that_meets_its_worker_s_connection_dropped_is_played_on_a_new_one(
    school_class, caplog
):
    """A Celery worker keeps its connection as the servers do: the bot's move that meets
    it dropped runs again on a new connection, where it used to wait for the sweeper.
    (The task's function runs here in a thread of its own, as a worker's pool process
    runs it; a version-checked move is safe to run twice.)"""
    match, bot = match_waiting_for_its_bot(school_class)
    worker = ThreadPoolExecutor(max_workers=1)
    try:
        worker.submit(keep_database_connection, True).result()
        end_database_process(worker.submit(database_process).result())
        played = worker.submit(tasks.bot_move, match.pk, bot, match.version, match.seed)
        assert played.result() is True
        assert "database connection lost" in caplog.text  # its second try
    finally:
        worker.submit(keep_database_connection, False).result()
        worker.shutdown()
    moved = MatchAction.objects.get(match=match, version=match.version + 1)
    assert moved.seat == bot


def with_commit_answer_lost(
    caplog: pytest.LogCaptureFixture,
    match: Match,
    task: Callable[..., object],
    *args: object,
    then_refuse: bool = False,
) -> tuple[object, list[tuple[int, int]]]:
    """Run ``task(*args)`` in a thread of its own, as a worker's pool process runs it, its
    connection kept and through a relay that loses the next COMMIT's answer (and with
    ``then_refuse``, every connection after it); return what it returned and the
    ``(match, version)`` the apps that follow the moves heard of."""
    relay = DatabaseRelay(int(connection.settings_dict["PORT"]))
    heard: list[tuple[int, int]] = []

    def follower(sender, match, **kwargs):
        heard.append((match.pk, match.version))

    action_stored.connect(follower)
    worker = ThreadPoolExecutor(max_workers=1)
    try:
        worker.submit(keep_database_connection, True, relay.port).result()
        worker.submit(database_process).result()  # connected, as a worker in steady use
        relay.lose_next_commit_answer(then_refuse)
        result = worker.submit(task, *args).result()
        assert relay.cuts == 1
        assert "database connection lost" in caplog.text  # its second try
        stored = f"move {match.version + 1} was stored before its answer was lost"
        assert (stored in caplog.text) is not then_refuse
    finally:
        action_stored.disconnect(follower)
        worker.submit(keep_database_connection, False).result()
        worker.shutdown()
        relay.stop()
    return result, heard


def test_a_bot_move_whose_commit_answer_is_lost_is_finished_on_its_second_try(school_class, caplog):
    """The worker's connection drops during the bot move's COMMIT, after the database
    stored it: the second try finds the move stored and does what follows it (the
    followers, the table, the next bot or timer), which used to be left undone."""
    match, bot = match_waiting_for_its_bot(school_class)
    played, heard = with_commit_answer_lost(
        caplog, match, tasks.bot_move, match.pk, bot, match.version, match.seed
    )
    assert played is True
    assert heard == [(match.pk, match.version + 1)]
    moved = MatchAction.objects.filter(match=match, version__gt=match.version)
    assert [(entry.version, entry.seat) for entry in moved] == [(match.version + 1, bot)]


def test_a_bot_move_whose_commit_answer_is_lost_and_cannot_be_looked_up_is_of_unknown_outcome(
    school_class, caplog
):
    """The database cannot be reached for the second try either: the worker logs the
    bot's move as of unknown outcome (it was stored), not as "not played"."""
    match, bot = match_waiting_for_its_bot(school_class)
    played, heard = with_commit_answer_lost(
        caplog, match, tasks.bot_move, match.pk, bot, match.version, match.seed, then_refuse=True
    )
    assert played is False
    assert heard == []  # the sweeper goes on from the stored move
    assert f"bot move of match {match.pk} of unknown outcome" in caplog.text
    assert "not played" not in caplog.text
    moved = MatchAction.objects.filter(match=match, version__gt=match.version)
    assert [(entry.version, entry.seat) for entry in moved] == [(match.version + 1, bot)]


def test_a_timer_expiry_whose_commit_answer_is_lost_is_finished_on_its_second_try(
    school_class, caplog, clock
):
    """The same for a timer's expiry: its timer's record is gone with the first try's
    commit, so the second try used to find nothing to fire and leave the move untold."""
    session = open_session(school_class, table_size=2, bots=False)
    seat_students(session, "Ana", "Ben")
    actions.do_start_session(session)
    match = Match.objects.get(pk=Table.objects.get(session=session).match_id)
    drive_to_call_window(match)
    timer = MatchTimer.objects.get(match=match)
    clock.advance(timer.seconds + 1)
    fired, heard = with_commit_answer_lost(
        caplog, match, tasks.fire_timer, match.pk, timer.timer_id, match.seed
    )
    assert fired is True
    assert heard == [(match.pk, match.version + 1)]
    moved = MatchAction.objects.filter(match=match, version__gt=match.version)
    assert [(entry.version, entry.seat, entry.action) for entry in moved] == [
        (match.version + 1, None, timer.action)
    ]
    assert not MatchTimer.objects.filter(match=match, timer_id=timer.timer_id).exists()


def after_statement(statement: str, then: Callable[[], None]) -> Callable[..., object]:
    """Return an execute wrapper that calls ``then()`` once, after a statement containing
    ``statement`` ran and before the next one is sent."""
    ran: list[str] = []
    done: list[str] = []

    def wrapper(execute, sql, params, many, context):
        if ran and not done:
            done.append(sql)
            then()
        result = execute(sql, params, many, context)
        if statement in sql:
            ran.append(sql)
        return result

    return wrapper


def end_in_a_thread_of_its_own(pid: int) -> None:
    """End PostgreSQL's process ``pid`` from a connection of another thread (this one's
    may be the one to end)."""

    def end_and_close() -> None:
        try:
            end_database_process(pid)
        finally:
            connection.close()

    killer = ThreadPoolExecutor(max_workers=1)
    killer.submit(end_and_close).result()
    killer.shutdown()


@pytest.mark.parametrize("mode", ["show", "pause"])
def test_a_lesson_whose_moments_lose_their_connection_is_recorded_once(school_class, caplog, mode):
    """The connection drops right after a move's lesson moments were inserted: the
    lessons app's follower runs again on a new one. It records the moments once and, in
    the "pause" mode, holds the match once, with the moments: it used to record them
    twice (the students' debrief counted the lesson twice), or hold the match for a
    moment rolled back."""
    session, table, card, _people = sanction_table(school_class, mode)
    forget_kept_cards()  # the lesson's card is read after its moments: a statement more
    attack = {"type": "attack", "card": card, "target": 1}
    worker = ThreadPoolExecutor(max_workers=1)
    try:
        worker.submit(keep_database_connection, True).result()
        pid = worker.submit(database_process).result()
        drop = after_statement(
            'INSERT INTO "lessons_lessonmoment"', lambda: end_in_a_thread_of_its_own(pid)
        )
        applied = worker.submit(with_wrapper, drop, write.act, table.match_id, 0, attack, 0)
        applied = applied.result()
    finally:
        worker.submit(keep_database_connection, False).result()
        worker.shutdown()
    assert "database connection lost" in caplog.text  # the follower's second try
    assert applied.match.version == 1
    moments = LessonMoment.objects.filter(session=session).order_by("pk")
    assert [(m.lesson.slug, m.seat, m.version) for m in moments] == [
        ("sanctions", 0, 1),
        ("sanctions", 1, 1),
    ]
    holds = MatchHold.objects.filter(match_id=table.match_id)
    match = Match.objects.get(pk=table.match_id)
    if mode == "pause":
        assert [hold.moment for hold in holds] == [moments[0].pk]
        assert match.status == Match.Status.PAUSED
    else:
        assert not holds.exists()
        assert match.status == Match.Status.RUNNING


@pytest.mark.parametrize("stopped", ["between moves", "holding the match's lock"])
def test_a_move_on_a_database_process_that_stopped_is_given_up_in_time(
    school_class, caplog, settings, stopped
):
    """The PostgreSQL server process of a table thread's connection stops (its machine
    swapping, a frozen disk) and keeps its TCP connection alive: no timeout of the kernel
    or the server fires. The thread's statement used to wait until the process woke,
    holding every table the thread serves. Past DB_STATEMENT_SECONDS the watchdog shuts
    the connection and the move runs once more on a new one: it is played, or, when the
    stopped process holds the match's lock, refused in time too."""
    settings.DB_STATEMENT_SECONDS = 1
    _session, table, card, _people = sanction_table(school_class, "show")
    attack = {"type": "attack", "card": card, "target": 1}
    move = again_on_lost_connection(write.act)  # as a socket's move runs
    thread = ThreadPoolExecutor(max_workers=1, initializer=live_keep_database_connection)
    pid = thread.submit(database_process).result()
    stop = functools.partial(os.kill, pid, signal.SIGSTOP)
    # right after the move's transaction locked the match, or before the move
    wrapper = after_statement("FOR UPDATE", stop) if stopped != "between moves" else None
    if wrapper is None:
        stop()
    started = time.monotonic()
    try:
        played = thread.submit(with_wrapper, wrapper, move, table.match_id, 0, attack, 0)
        with contextlib.suppress(OperationalError):
            played.result(timeout=30)
        took = time.monotonic() - started
    finally:
        os.kill(pid, signal.SIGCONT)
        thread.submit(keep_database_connection, False).result()  # closes its own
        thread.shutdown()
    assert "unanswered past its deadline: connection given up" in caplog.text
    assert "database connection lost" in caplog.text  # the move's second try
    stored = MatchAction.objects.filter(match_id=table.match_id)
    if stopped == "between moves":
        assert played.result().match.version == 1
        assert [entry.action for entry in stored] == [attack]
        assert 1 <= took < 8, took
    else:  # the second try waited for the lock as long, and was refused
        assert isinstance(played.exception(), OperationalError)
        assert not stored.exists()
        assert 2 <= took < 8, took
        # once the process wakes, finds its client gone and lets the lock go, play goes on
        wait_until(lambda: not database_process_alive(pid), 10, f"process {pid}")
        assert write.act(table.match_id, 0, attack, 0).match.version == 1


def test_a_bot_move_on_a_database_process_that_stopped_is_given_up_in_time(
    school_class, caplog, settings
):
    """The same for a worker's bot move (its thread serves live play while the task
    runs): it used to hold the worker's process until the database's went on."""
    settings.DB_STATEMENT_SECONDS = 1
    match, bot = match_waiting_for_its_bot(school_class)
    worker = ThreadPoolExecutor(max_workers=1)
    worker.submit(keep_database_connection, True).result()
    pid = worker.submit(database_process).result()
    os.kill(pid, signal.SIGSTOP)
    started = time.monotonic()
    try:
        played = worker.submit(tasks.bot_move, match.pk, bot, match.version, match.seed)
        assert played.result(timeout=30) is True
        took = time.monotonic() - started
        # the mark is the task's own: the worker's other work (a debrief) has no deadline
        # live.tasks marks its thread so; Thread does not declare the attribute
        marked = worker.submit(lambda: threading.current_thread().serves_live_play)  # type: ignore[attr-defined]
        assert marked.result() is False
    finally:
        os.kill(pid, signal.SIGCONT)
        worker.submit(keep_database_connection, False).result()
        worker.shutdown()
    assert "unanswered past its deadline: connection given up" in caplog.text
    assert 1 <= took < 8, took
    moved = MatchAction.objects.get(match=match, version=match.version + 1)
    assert moved.seat == bot


def with_wrapper(wrapper, func, *args):
    """Run ``func(*args)`` with ``wrapper`` (if any) around this thread's database
    statements."""
    if wrapper is None:
        return func(*args)
    with connection.execute_wrapper(wrapper):
        return func(*args)


@pytest.mark.parametrize(
    "draw",
    [
        lambda session, tables: render_dashboard(session.pk, "en"),
        lambda session, tables: render_tables(session.pk, "en", tables),
        lambda session, tables: render_screen(session.pk),
    ],
    ids=["dashboard", "dashboard tables", "join screen"],
)
def test_a_drawing_that_meets_its_connection_dropped_is_drawn_on_a_new_one(
    school_class, caplog, draw
):
    """A drawing thread keeps its connection: a teacher's dashboard or the join screen
    drawn on one dropped in steady use is drawn again on a new connection (a read),
    where it failed and waited for the next change."""
    session = open_session(school_class, table_size=2, bots=True)
    seat_students(session, "Ana")
    actions.do_start_session(session)
    tables = set(session.tables.values_list("pk", flat=True))
    assert tables
    worker = ThreadPoolExecutor(max_workers=1)
    try:
        worker.submit(keep_database_connection, True).result()
        end_database_process(worker.submit(database_process).result())
        html = worker.submit(draw, session, tables).result()
        assert "Ana" in html
        assert "database connection lost" in caplog.text  # its second try
    finally:
        worker.submit(keep_database_connection, False).result()
        worker.shutdown()


WRITE = "UPDATE classroom_table SET number = number WHERE id = -1"


def read(cursor: CursorWrapper) -> None:
    cursor.execute("SELECT 1")


def write_(cursor: CursorWrapper) -> None:
    cursor.execute(WRITE)


def write_then_commit(cursor: CursorWrapper) -> None:
    with transaction.atomic():
        cursor.execute(WRITE)


@pytest.mark.parametrize(
    ("method", "before_the_drop", "in_a_transaction", "runs_again"),
    [
        ("POST", read, False, True),  # only reads sent: nothing of it was stored
        ("POST", write_, False, False),  # stored as it ran
        ("GET", write_, False, True),  # a page read's writes may run twice
        ("POST", write_then_commit, False, False),  # committed
        # the drop ends the transaction of the write: the database lets it go
        ("POST", write_, True, True),
        ("POST", write_, "its COMMIT", False),  # the COMMIT's answer may be lost
    ],
    ids=[
        "a form that read",
        "a form that wrote",
        "a page read that wrote",
        "a form that committed a write",
        "a form whose write was in the transaction the drop ended",
        "a form whose COMMIT met the drop",
    ],
)
def test_a_request_runs_again_on_a_dropped_connection_only_if_twice_changes_nothing(
    method, before_the_drop, in_a_transaction, runs_again
):
    """A request met its connection dropped: run again when it is a page read, or when
    nothing it wrote can have been stored, never when a write it sent may have been."""
    request = getattr(RequestFactory(), method.lower())("/join/")

    def drop(cursor: CursorWrapper) -> None:
        cursor.execute("SELECT pg_backend_pid()")
        end_in_a_thread_of_its_own(cursor.fetchone()[0])  # as the database's restart would

    def run_until_the_drop() -> bool:
        keep_database_connection(True)
        try:
            request.sent_statements = sent = SentStatements()
            with (
                connection.execute_wrapper(sent),
                pytest.raises(OperationalError) as met,
                connection.cursor() as cursor,
            ):
                if not in_a_transaction:
                    before_the_drop(cursor)
                    drop(cursor)
                    cursor.execute("SELECT 1")
                with transaction.atomic():
                    before_the_drop(cursor)
                    drop(cursor)
                    if in_a_transaction != "its COMMIT":
                        cursor.execute("SELECT 1")
            return ServiceUnavailableMiddleware.may_run_again(request, met.value)
        finally:
            keep_database_connection(False)

    with ThreadPoolExecutor(1) as thread:
        assert thread.submit(run_until_the_drop).result() is runs_again


def test_a_thread_that_finds_the_pool_busy_opens_a_connection_of_its_own_and_closes_it():
    settings = pooled_settings(min_size=1, max_size=1, timeout=0.2)
    holder = database_wrapper(settings, alias="busy")
    other = database_wrapper(settings, alias="busy")
    try:
        assert holder.pool is not None
        holder.pool.open(wait=True)
        held = backend_pid(holder)  # the pool's one connection, out of the pool
        own = backend_pid(other)  # waited 0.2 s, then opened its own
        assert own != held
        assert other.own_connection
        other.close()
        assert other.connection is None
        # Closed, not left to the pool (its server process ends a moment later).
        wait_until(lambda: not database_process_alive(own), 5, "its server process to end")
        holder.close()  # back to the pool
        assert backend_pid(other) == held
        assert not other.own_connection
    finally:
        other.close()
        holder.close()
        holder.close_pool()


def test_the_connections_beside_a_busy_pool_are_capped_and_a_thread_past_them_waits(
    monkeypatch,
):
    """A burst of requests (a class joining) opened a connection each beside a busy pool,
    past what the database allows: now at most ``POOL_OVERFLOW`` a process, and the next
    thread waits for a connection of either kind, refused only after ``BUSY_SECONDS``."""
    monkeypatch.setattr(base, "BUSY_SECONDS", 1.0)
    settings = {**pooled_settings(min_size=1, max_size=1, timeout=0.2), "POOL_OVERFLOW": 1}

    def wrapper():
        return connections["default"].__class__(settings, alias="capped")

    def waiting_thread():
        waiter = wrapper()
        try:
            return backend_pid(waiter), waiter.own_connection
        finally:
            waiter.close()

    holder, beside = wrapper(), wrapper()
    try:
        holder.pool.open(wait=True)
        held = backend_pid(holder)  # the pool's one connection, out of the pool
        own = backend_pid(beside)  # the one room beside it
        assert beside.own_connection and own != held
        assert beside.overflow.open == 1

        started = time.monotonic()
        with pytest.raises(OperationalError, match="busy"):
            waiting_thread()  # no third connection: refused after waiting
        assert 1.0 <= time.monotonic() - started < 2.5
        assert beside.overflow.open == 1

        with ThreadPoolExecutor(1) as thread:
            waiting = thread.submit(waiting_thread)
            time.sleep(0.5)
            assert not waiting.done()
            beside.close()  # its room is free: the waiting thread opens one there
            assert waiting.result(timeout=5)[1]
            assert beside.overflow.open == 0  # and closed it after its use

            backend_pid(beside)  # the room taken again
            waiting = thread.submit(waiting_thread)
            time.sleep(0.5)
            holder.close()  # back to the pool: the waiting thread takes it
            assert waiting.result(timeout=5) == (held, False)
    finally:
        beside.close()
        holder.close()
        holder.close_pool()
    assert base.overflows.get("capped") is None  # gone with its pool


def test_the_threads_of_the_sockets_work_keep_their_connections_beside_the_pool(settings):
    """A burst of HTTP requests (a class joining) may hold every connection of the pool:
    the sockets' moves and drawings never wait for it."""
    pooled = pooled_settings(min_size=1, max_size=2)

    def wrapper():
        return connections["default"].__class__(pooled, alias="beside")

    for thread in (*TABLE_THREADS, *DRAWING_THREADS):
        kept = thread.submit(wrapper).result()
        assert kept.pool is None
        assert kept.settings_dict["CONN_MAX_AGE"] == settings.DB_CONN_MAX_AGE > 0
        assert kept.settings_dict["CONN_HEALTH_CHECKS"]
    passing = wrapper()  # an HTTP request's thread, say
    assert passing.pool is not None
    passing.close_pool()


def test_a_pool_refuses_at_once_while_the_database_is_away_and_serves_when_it_is_back(
    monkeypatch,
):
    """The pool alone made every piece of work wait its whole timeout while the database
    was away, and after it came back it reconnected only on its back-off schedule."""
    monkeypatch.setattr(base, "HEALTH_CHECK_IDLE_SECONDS", IDLE)
    port = free_port()
    # A folder of its own in the temporary folder: as root PostgreSQL runs as another
    # user, who cannot enter pytest's (mode 0700).
    folder = tempfile.TemporaryDirectory(prefix="dp-pg-away-")
    server = postgres_service(Path(folder.name), port).start()
    wrapper = None
    try:
        wait_until(lambda: postgres_answers(port), 30, "PostgreSQL", [server])
        pool = {"min_size": 1, "max_size": 2, "timeout": 5.0, "reconnect_timeout": 2.0}
        away = {"NAME": "postgres", "USER": "postgres", "PASSWORD": "", "HOST": "127.0.0.1"}
        wrapper = database_wrapper({**pooled_settings(**pool), **away, "PORT": port}, alias="away")
        assert wrapper.pool is not None
        wrapper.pool.open(wait=True)
        backend_pid(wrapper)
        server.stop()
        time.sleep(IDLE + 0.1)
        waits = []
        for _ in range(3):
            started = time.monotonic()
            with pytest.raises(OperationalError):
                backend_pid(wrapper)
            waits.append(time.monotonic() - started)
        # The first waited for the pool (its timeout: a busy pool looks the same); the
        # next ones were refused by the database itself, at once.
        assert max(waits[1:]) < pool["timeout"] / 5, waits
        server.start()
        wait_until(lambda: postgres_answers(port), 30, "PostgreSQL", [server])
        for _ in range(3):
            assert backend_pid(wrapper)  # no error from the first use on
    finally:
        if wrapper is not None:
            wrapper.close()
            wrapper.close_pool()
        server.stop()
        folder.cleanup()
