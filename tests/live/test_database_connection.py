"""A server's kept PostgreSQL connection is health-checked (``SELECT 1``, one round trip
to the database) only after it sat idle, not before every piece of a socket's database
work: a move is one round trip shorter. One that broke is still found and replaced."""

import time

import pytest
from django.db import OperationalError, connection, connections

from config.postgresql import base

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="SQLite's health check is no round trip (a file, always usable)",
    ),
]

IDLE = 0.3  # the idle time before a check, shortened for the test


@pytest.fixture
def kept(monkeypatch):
    """A connection kept between uses as the servers keep theirs, counting its checks."""
    monkeypatch.setattr(base, "HEALTH_CHECK_IDLE_SECONDS", IDLE)
    wrapper = connections["default"].__class__(
        {**connection.settings_dict, "CONN_MAX_AGE": 60, "CONN_HEALTH_CHECKS": True}
    )
    checks = []
    is_usable = wrapper.is_usable

    def counted() -> bool:
        checks.append(time.monotonic())
        return is_usable()

    wrapper.is_usable = counted
    yield wrapper, checks
    wrapper.close()


def backend_pid(wrapper) -> int:
    """Run a query as a socket's work would, after Channels' ``close_old_connections``."""
    wrapper.close_if_unusable_or_obsolete()
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def terminate(pid: int) -> None:
    """End a server process from another connection, as a database restart would."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_a_connection_in_steady_use_is_not_checked_before_each_use(kept):
    wrapper, checks = kept
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
    terminate(pid)
    time.sleep(IDLE + 0.1)
    assert backend_pid(wrapper) != pid  # no error: the check found it closed
    assert len(checks) == 1


def test_a_connection_dropped_in_steady_use_fails_one_query_then_is_replaced(kept):
    wrapper, checks = kept
    pid = backend_pid(wrapper)
    terminate(pid)
    with pytest.raises(OperationalError):
        backend_pid(wrapper)  # the one query the skipped check would have saved
    assert backend_pid(wrapper) != pid  # the failed query marked it: checked, replaced
    assert len(checks) == 1


@pytest.fixture
def pooled(monkeypatch):
    """A connection from a pool, as the ASGI server's threads share theirs
    (``DB_POOL_SIZE``), counting the checks made when the pool hands one out."""
    monkeypatch.setattr(base, "HEALTH_CHECK_IDLE_SECONDS", IDLE)
    checks = []
    alive = base.alive

    def counted(raw) -> bool:
        checks.append(time.monotonic())
        return alive(raw)

    monkeypatch.setattr(base, "alive", counted)
    settings = {
        **connection.settings_dict,
        "CONN_MAX_AGE": 0,
        "CONN_HEALTH_CHECKS": False,
        "OPTIONS": {**connection.settings_dict["OPTIONS"], "pool": {"min_size": 1, "max_size": 2}},
    }
    wrapper = connections["default"].__class__(settings, alias="pooled")
    wrapper.pool.open(wait=True)  # its one connection ready: none opened as the test goes
    yield wrapper, checks
    wrapper.close()
    wrapper.close_pool()


def test_a_pooled_connection_in_steady_use_is_checked_only_when_new(pooled):
    wrapper, checks = pooled
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
    terminate(pid)
    time.sleep(IDLE + 0.1)
    assert backend_pid(wrapper) != pid  # no error: the check found it closed
    assert len(checks) == 3  # the first use, the dropped one, the one opened instead


def test_a_pooled_connection_dropped_in_steady_use_fails_one_query_then_is_replaced(pooled):
    wrapper, checks = pooled
    pid = backend_pid(wrapper)
    terminate(pid)
    with pytest.raises(OperationalError):
        backend_pid(wrapper)  # the one query the skipped check would have saved
    assert backend_pid(wrapper) != pid  # the pool discarded it when it came back
    assert len(checks) == 2  # the first use and the one opened instead
