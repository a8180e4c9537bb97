"""The clock of live play: the one place where live play reads the time.

Timer due times, the length of a pause, the expiry of a lesson hold, the sweeper and
the staleness of a seat's sockets all read ``now()`` here, never
``django.utils.timezone.now()`` directly, so that a test can move the time instead of
waiting for it to pass.

In production this is the system clock. A test run sets the environment variable
``LIVE_CLOCK_FILE`` (tests/conftest.py) to a file that holds an offset in seconds;
every process that inherits the variable (the test process, and the Celery worker,
beat and ASGI server it starts) adds the offset to the system time, so ``advance()``
moves the time of all of them at once. Without the variable the offset is zero and
the clock cannot be moved.

Celery's ``eta`` and ``countdown`` run on the system clock: a task due at a time of
this clock is queued with ``countdown=until(moment)``, never with ``eta=moment``.
"""

from __future__ import annotations

import os
from datetime import datetime, timedelta
from pathlib import Path

from django.utils import timezone

CLOCK_FILE_VARIABLE = "LIVE_CLOCK_FILE"


def now() -> datetime:
    """Return the current time of live play (aware, UTC)."""
    return timezone.now() + offset()


def until(moment: datetime) -> float:
    """Return the seconds from now until ``moment`` on this clock (0 when it has passed):
    the ``countdown`` of a task due at ``moment``."""
    return max(0.0, (moment - now()).total_seconds())


def offset() -> timedelta:
    """Return how far a test moved the clock (zero unless LIVE_CLOCK_FILE is set)."""
    path = os.environ.get(CLOCK_FILE_VARIABLE)
    if not path:
        return timedelta(0)
    try:
        text = Path(path).read_text().strip()
    except FileNotFoundError:
        return timedelta(0)
    return timedelta(seconds=float(text or 0))


def advance(seconds: float) -> datetime:
    """Move the clock forward by ``seconds`` in every process that shares it; return
    the new time. Only possible where LIVE_CLOCK_FILE is set (the tests)."""
    _write(offset().total_seconds() + seconds)
    return now()


def reset() -> None:
    """Put the clock back on the system time."""
    if os.environ.get(CLOCK_FILE_VARIABLE):
        _write(0.0)


def _write(seconds: float) -> None:
    path = os.environ.get(CLOCK_FILE_VARIABLE)
    if not path:
        raise RuntimeError(f"the live clock moves only where {CLOCK_FILE_VARIABLE} is set")
    # Written aside and renamed, so that another process never reads half a number.
    target = Path(path)
    scratch = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    scratch.write_text(repr(seconds))
    os.replace(scratch, target)
