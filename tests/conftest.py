"""Shared fixtures: the real services the platform runs on.

``make test`` starts a Redis server on a free port and exports REDIS_URL before pytest
starts, so the settings, the channel layer, the cache and Celery all use it. These
fixtures add a real Celery worker, a real ASGI server (uvicorn) and Debian's Chromium
driven by Playwright. The worker and the server are separate processes that share
the test database file, so tests that use them need ``transactional_db``: data must
be committed to be seen.

Every service these fixtures (or a test) start writes to a log file of its own, and a
test fails when a service or this process logged an unhandled exception during it:
see ``tests/logwatch.py`` and the ``expected_log_errors`` marker.

The ``clock`` fixture moves the clock of live play (``games.clock``) instead of
sleeping: in this process and in every service started from it, which inherit the
clock's file (LIVE_CLOCK_FILE, one per test run).
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from channels.layers import channel_layers
from django.conf import settings
from django.db import connection
from playwright.sync_api import Browser, sync_playwright
from pytest_django import DjangoDbBlocker

from config.services import (
    START_HOOKS,
    Service,
    asgi_service,
    celery_beat_service,
    celery_worker_service,
    free_port,
    port_open,
    wait_for_celery,
    wait_until,
)
from games import clock as live_clock
from lessons.links import forget_kept_links
from lessons.moments import forget_kept_cards, forget_kept_modes, forget_seen
from live.dashboard import forget_kept_tables
from live.messages import forget_kept_sessions
from tests.logwatch import ErrorRecords, ServiceLogs

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# The flags this sandbox needs: no sandbox as root, and no calls home (the network
# is closed, and Chromium would retry them many times).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


# Set before any service starts, so that every child process shares this run's clock.
os.environ.setdefault(
    live_clock.CLOCK_FILE_VARIABLE,
    str(Path(tempfile.gettempdir()) / f"live-clock-{os.getpid()}"),
)


SERVICE_LOGS = pytest.StashKey[ServiceLogs]()
LOG_RUNS_KEPT = 10


def service_log_dir() -> Path:
    """Return a new folder for this run's service logs under test-artifacts/logs/; keep
    the newest runs only. A folder per run, since test runs may overlap."""
    root = ARTIFACTS / "logs"
    root.mkdir(parents=True, exist_ok=True)
    for old in sorted(root.iterdir())[: -(LOG_RUNS_KEPT - 1)]:
        shutil.rmtree(old, ignore_errors=True)
    return root / f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"


@pytest.fixture(scope="session", autouse=True)
def service_logs(request: pytest.FixtureRequest) -> Iterator[ServiceLogs]:
    """Give every service started in this session (by a fixture or a test) a log file."""
    logs = ServiceLogs(service_log_dir())
    request.config.stash[SERVICE_LOGS] = logs
    START_HOOKS.append(logs.assign)
    try:
        yield logs
    finally:
        START_HOOKS.remove(logs.assign)
        logs.begin()  # what the session's services logged after the last test


@pytest.fixture(autouse=True)
def no_hidden_crashes(request: pytest.FixtureRequest, service_logs: ServiceLogs) -> Iterator[None]:
    """Fail the test if a service or this process logged an unhandled exception during it,
    except what ``@pytest.mark.expected_log_errors(r"regex", ...)`` allows: an error line
    or a traceback block one of whose lines matches one of the patterns."""
    expected = [
        pattern
        for marker in request.node.iter_markers("expected_log_errors")
        for pattern in marker.args
    ]
    service_logs.begin()
    records = ErrorRecords()
    root = logging.getLogger()
    root.addHandler(records)
    try:
        yield
    finally:
        root.removeHandler(records)
    if "service_env" in request.fixturenames or service_logs.grew():
        service_logs.settle()
    failures = service_logs.check(expected) + records.check(expected)
    if failures:
        pytest.fail("\n\n".join(failures), pytrace=False)


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, exitstatus: pytest.ExitCode, config: pytest.Config
) -> None:
    """List the errors services logged between tests, which no test could be failed for."""
    logs = config.stash.get(SERVICE_LOGS, None)
    if logs is None or not logs.between_tests:
        return
    terminalreporter.section("errors logged by services between tests")
    for where, block in logs.between_tests:
        terminalreporter.write_line(f"{where}:")
        for line in block[:40]:
            terminalreporter.write_line(f"    {line}")


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None) -> None:
    """pytest's own process closes its database connections after each use, as Django's
    own tests do: a connection kept by a thread of its own (a socket test's database
    thread) would stop it dropping the PostgreSQL test database at the end. The servers
    the tests start keep theirs (DB_CONN_MAX_AGE), as in production."""
    settings.DATABASES["default"]["CONN_MAX_AGE"] = 0


def database_url_for_children() -> str:
    """Return a DATABASE_URL naming the test database this process set up."""
    database = connection.settings_dict
    if database["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{database['NAME']}"
    user = database.get("USER") or ""
    password = f":{database['PASSWORD']}" if database.get("PASSWORD") else ""
    credentials = f"{user}{password}@" if user else ""
    port = f":{database['PORT']}" if database.get("PORT") else ""
    return f"postgres://{credentials}{database.get('HOST') or 'localhost'}{port}/{database['NAME']}"


@pytest.fixture(scope="session")
def service_env(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> dict[str, str]:
    """Return the environment for child services: the test database and test Redis."""
    with django_db_blocker.unblock():
        url = database_url_for_children()
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        {
            "DATABASE_URL": url,
            "REDIS_URL": settings.REDIS_URL,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "PYTHONUNBUFFERED": "1",
        }
    )
    return env


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """Give every test its own channel-layer instance: each async test runs its own loop,
    and a Redis layer's receive lock belongs to the loop that first used it (a test whose
    loop hung would otherwise fail every later test with "Two event loops")."""
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture
def clock() -> Iterator[ModuleType]:
    """Return the clock of live play (``games.clock``) for the test to move with
    ``clock.advance(seconds)``, in this process and in the services it started; it is
    back on the system time after the test."""
    live_clock.reset()
    try:
        yield live_clock
    finally:
        live_clock.reset()


@pytest.fixture(autouse=True)
def _forget_kept_rows():
    """Forget the lesson links, cards, seen lessons and sessions this process keeps: a
    test's rolled-back rows must not reach the next test (SQLite gives their ids out
    again)."""
    forget_kept_links()
    forget_kept_cards()
    forget_kept_modes()
    forget_seen()
    forget_kept_sessions()
    forget_kept_tables()
    yield


@pytest.fixture(scope="session", autouse=True)
def _clock_file() -> Iterator[None]:
    """Remove this run's clock file at the end."""
    yield
    Path(os.environ[live_clock.CLOCK_FILE_VARIABLE]).unlink(missing_ok=True)


@pytest.fixture(scope="session")
def celery_worker(service_env: dict[str, str]) -> Iterator[Service]:
    """Run a real Celery worker on the test database and the test Redis."""
    worker = celery_worker_service(service_env, concurrency=2).start()
    try:
        wait_for_celery(service_env, 60, [worker])
        yield worker
    finally:
        worker.stop()


@pytest.fixture
def celery_beat(
    celery_worker: Service, service_env: dict[str, str], tmp_path: Path
) -> Iterator[Service]:
    """Run Celery beat beside the worker, as `make run` does (the live-play sweeper)."""
    beat = celery_beat_service(service_env, tmp_path / "celerybeat-schedule").start()
    try:
        yield beat
    finally:
        beat.stop()


def start_asgi(service_env: dict[str, str]) -> tuple[Service, str]:
    """Start a uvicorn server on a free port; return it and its base URL."""
    port = free_port()
    server = asgi_service(service_env, "127.0.0.1", port).start()
    wait_until(lambda: port_open("127.0.0.1", port), 30, "the ASGI server", [server])
    return server, f"http://127.0.0.1:{port}"


@pytest.fixture(scope="session")
def live_server_url(service_env: dict[str, str]) -> Iterator[str]:
    """Run a real ASGI server (uvicorn) for the session; yield its base URL."""
    server, url = start_asgi(service_env)
    try:
        yield url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Launch Debian's Chromium through Playwright; never a downloaded browser."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium package")
    # Playwright's sync API keeps an event loop in this thread; the ORM calls that
    # browser tests make to set up data are still plain synchronous calls.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def artifacts_dir(request: pytest.FixtureRequest) -> Path:
    """Return a folder under test-artifacts/ for this test's screenshots."""
    folder = ARTIFACTS / request.node.name.replace("/", "_")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
