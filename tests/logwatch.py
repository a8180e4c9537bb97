"""Crashes never hide: find the unhandled exceptions that services and loggers report.

A test can pass while the ASGI server or the Celery worker logs a traceback (a consumer
that crashed after the page got what it waited for, a task that failed in the
background). The harness gives every service it starts a log file of its own
(``ServiceLogs``, through ``config.services.START_HOOKS``) and catches the ERROR records
that carry an exception in the test process (``ErrorRecords``); ``tests/conftest.py``
fails a test when either reported one during it, unless the test expects it
(``@pytest.mark.expected_log_errors(r"regex", ...)``).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from config.services import Service

TRACEBACK = "Traceback (most recent call last)"
# The line formats that report an error: uvicorn's ("ERROR:    Exception in ASGI
# application"), Celery's ("[2025-01-01 10:00:00,000: ERROR/ForkPoolWorker-1] Task x
# raised unexpected: ...") and the settings' LOGGING ("2025-01-01 10:00:00,000 ERROR
# django.request: ...").
ERROR_LINES = [
    re.compile(r"^(ERROR|CRITICAL):\s"),
    re.compile(r"^\[[^\]]*:\s*(ERROR|CRITICAL)/[^\]]*\]"),
    re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ (ERROR|CRITICAL) "),
]
# Lines that go on the block above them: a traceback's frames and its chaining.
CONTINUATION = ("During handling of the above exception", "The above exception was")
MAX_EXCERPT_LINES = 40
MAX_INCIDENTS_SHOWN = 3


def is_error_line(line: str) -> bool:
    """Tell whether a log line reports an error or starts a traceback."""
    return TRACEBACK in line or any(pattern.search(line) for pattern in ERROR_LINES)


def incidents(text: str) -> list[list[str]]:
    """Split log text into incidents: an error line or a traceback, with its frames and
    the exception line that ends it."""
    lines = text.splitlines()
    found: list[list[str]] = []
    i = 0
    while i < len(lines):
        if not is_error_line(lines[i]):
            i += 1
            continue
        start, in_traceback = i, TRACEBACK in lines[i]
        i += 1
        while i < len(lines):
            line = lines[i]
            if TRACEBACK in line:
                in_traceback = True
            elif line.startswith(CONTINUATION) or not line.strip() or line[:1] in " \t":
                pass
            elif in_traceback:
                in_traceback = False  # the exception line closes the traceback
            else:
                break
            i += 1
        while i > start + 1 and not lines[i - 1].strip():
            i -= 1
        found.append(lines[start:i])
    return found


def unexpected(blocks: Iterable[list[str]], expected: Sequence[str]) -> list[list[str]]:
    """Return the blocks none of whose lines matches an expected pattern."""
    patterns = [re.compile(pattern) for pattern in expected]
    return [
        block
        for block in blocks
        if not any(pattern.search(line) for pattern in patterns for line in block)
    ]


def excerpt(blocks: list[list[str]]) -> str:
    """Format the first few blocks for a failure message."""
    parts = []
    for block in blocks[:MAX_INCIDENTS_SHOWN]:
        lines = block
        if len(block) > MAX_EXCERPT_LINES:
            # The head says where it was logged, the tail what was raised.
            half = MAX_EXCERPT_LINES // 2
            lines = [*block[:half], f"    [... {len(block) - 2 * half} lines ...]", *block[-half:]]
        parts.append("\n".join("    " + line for line in lines))
    if len(blocks) > MAX_INCIDENTS_SHOWN:
        parts.append(f"    [... and {len(blocks) - MAX_INCIDENTS_SHOWN} more]")
    return "\n\n".join(parts)


@dataclass
class WatchedLog:
    """One service start's log file and how far it has been checked."""

    name: str
    path: Path
    checked: int | None = None  # None: never checked, so a test reads it from the start

    def size(self) -> int:
        try:
            return self.path.stat().st_size
        except FileNotFoundError:
            return 0

    def read(self, start: int, end: int) -> str:
        if end <= start:
            return ""
        with open(self.path, "rb") as log:
            log.seek(start)
            return log.read(end - start).decode("utf-8", errors="replace")


@dataclass
class ServiceLogs:
    """The log files of the services started in this test session, one per start."""

    directory: Path
    logs: list[WatchedLog] = field(default_factory=list)
    # Incidents logged between two tests (after one's check, before the next starts).
    between_tests: list[tuple[str, list[str]]] = field(default_factory=list)

    def assign(self, service: Service) -> None:
        """Give a service about to start a log file of its own (a START_HOOKS hook)."""
        if service.log_path is not None or service.stdout is not None:
            return
        number = len(self.logs) + 1
        service.log_path = self.directory / f"{number:03d}-{service.name}.log"
        self.logs.append(WatchedLog(service.name, service.log_path))

    def begin(self) -> None:
        """Skip, at a test's start, what was logged since the last check (and keep its
        incidents for the session's summary)."""
        for log in self.logs:
            if log.checked is None:
                continue
            size = log.size()
            for block in incidents(log.read(log.checked, size)):
                self.between_tests.append((f"{log.name} ({log.path})", block))
            log.checked = size

    def sizes(self) -> list[int]:
        return [log.size() for log in self.logs]

    def grew(self) -> bool:
        """Tell whether any log was written since its last check."""
        return any(log.size() > (log.checked or 0) for log in self.logs)

    def settle(self, longest: float = 0.3, quiet: float = 0.1) -> None:
        """Wait until no log has grown for `quiet` seconds, at most `longest` seconds: a
        service often logs a crash just after the test saw what it waited for."""
        deadline = time.monotonic() + longest
        last, quiet_since = self.sizes(), time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.05)
            now = self.sizes()
            if now != last:
                last, quiet_since = now, time.monotonic()
            elif time.monotonic() - quiet_since >= quiet:
                return

    def check(self, expected: Sequence[str]) -> list[str]:
        """Read what each log got since its last check; return a failure paragraph for
        each service that logged an unexpected incident."""
        failures = []
        for log in self.logs:
            size = log.size()
            text = log.read(log.checked or 0, size)
            log.checked = size
            blocks = unexpected(incidents(text), expected)
            if blocks:
                failures.append(
                    f"the {log.name} service logged an unhandled error during this test "
                    f"(full log: {log.path}):\n{excerpt(blocks)}"
                )
        return failures


class ErrorRecords(logging.Handler):
    """Keep the ERROR (and worse) records that carry an exception, from any thread."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info and record.exc_info[0] is not None:
            self.records.append(record)

    def check(self, expected: Sequence[str]) -> list[str]:
        """Return a failure paragraph if an unexpected record was logged."""
        blocks = []
        for record in self.records:
            try:
                blocks.append(self.format(record).splitlines())
            except Exception as exc:  # a record whose message cannot be formatted
                blocks.append([f"{record.levelname} {record.name}: {record.msg!r} ({exc!r})"])
        blocks = unexpected(blocks, expected)
        if not blocks:
            return []
        return [f"this process logged an unhandled error during this test:\n{excerpt(blocks)}"]
