"""The crash check itself: what counts as an unhandled error in a log, and the opt-out."""

import logging

import pytest

from config import services
from config.services import python_service
from tests.logwatch import ServiceLogs, incidents, unexpected

CELERY = """\
[2025-05-01 10:00:00,000: INFO/MainProcess] Task live.tasks.bot_move[1] received
[2025-05-01 10:00:00,1: ERROR/ForkPoolWorker-1] Task bot_move[1] raised unexpected: ValueError()
Traceback (most recent call last):
  File "/x/celery/app/trace.py", line 453, in trace_task
    R = retval = fun(*args, **kwargs)
ValueError: no seat
[2025-05-01 10:00:00,200: INFO/MainProcess] Task live.tasks.sweep[2] received
"""

UVICORN = """\
INFO:     127.0.0.1:5000 - "GET /play/ABCDEF/ HTTP/1.1" 200 OK
ERROR:    Exception in ASGI application
Traceback (most recent call last):
  File "/x/uvicorn/protocols/websockets/websockets_impl.py", line 244, in run_asgi
    result = await self.app(self.scope, self.asgi_receive, self.asgi_send)
KeyError: 'seat'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/x/channels/consumer.py", line 58, in __call__
    await await_many_dispatch(...)
RuntimeError: boom
INFO:     connection closed
WARNING:  Invalid HTTP request received.
"""


def test_a_celery_error_line_and_its_traceback_make_one_incident():
    [block] = incidents(CELERY)
    assert block[0].endswith("raised unexpected: ValueError()")
    assert block[-1] == "ValueError: no seat"


def test_a_chained_traceback_is_one_incident_and_warnings_are_not_errors():
    [block] = incidents(UVICORN)
    assert block[0] == "ERROR:    Exception in ASGI application"
    assert block[-1] == "RuntimeError: boom"
    assert incidents("WARNING:  Invalid HTTP request received.\nINFO: ok\n") == []


def test_an_expected_pattern_allows_its_whole_block_and_nothing_else():
    blocks = incidents(CELERY + UVICORN)
    assert len(blocks) == 2
    assert unexpected(blocks, [r"ValueError: no seat"]) == [blocks[1]]
    assert unexpected(blocks, [r"no seat", r"RuntimeError"]) == []


def test_a_service_started_under_the_hook_writes_a_log_that_the_check_reads(tmp_path, monkeypatch):
    logs = ServiceLogs(tmp_path)
    # this test's hook alone, not the session's (which would watch the demo too)
    monkeypatch.setattr(services, "START_HOOKS", [logs.assign])
    script = "import sys; print('ERROR:    Exception in ASGI application', file=sys.stderr)"
    service = python_service("demo", ["-c", script], {}).start()
    assert service.process is not None and service.log_path is not None
    service.process.wait(10)
    assert service.log_path.parent == tmp_path
    [failure] = logs.check([])
    assert "the demo service" in failure and "Exception in ASGI application" in failure
    assert logs.check([]) == []  # read once


def test_a_service_with_a_log_path_of_its_own_is_left_alone(tmp_path, monkeypatch):
    logs = ServiceLogs(tmp_path / "watched")
    own = tmp_path / "own.log"
    monkeypatch.setattr(services, "START_HOOKS", [logs.assign])
    service = python_service("demo", ["-c", "print('hello')"], {})
    service.log_path = own
    process = service.start().process
    assert process is not None
    process.wait(10)
    assert own.read_text() == "hello\n" and logs.logs == []


@pytest.mark.expected_log_errors(r"ZeroDivisionError")
def test_the_marker_allows_an_error_logged_on_purpose():
    try:
        1 / 0  # noqa: B018
    except ZeroDivisionError:
        logging.getLogger("tests.logwatch").exception("provoked on purpose")
