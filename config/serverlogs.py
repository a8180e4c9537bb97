"""What the ASGI server says of a client's fault, or of a backing service that went
away under a library's background task or under a follower of the moves, is no error of
the server."""

from __future__ import annotations

import logging

from classroom.services import describe, is_service_failure

# uvicorn's words when a client sends a text frame that is not UTF-8 (it then closes the
# socket with 1007, as RFC 6455 asks).
NOT_UTF8 = "Invalid UTF-8 sequence received from client."


class ClientFaults(logging.Filter):
    """Log a client's text frame that is not UTF-8 as a warning without a traceback.

    uvicorn logs it as an exception: any client could write a traceback into the
    server's error log with one frame per connection, and bury the real defects there.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR and record.getMessage() == NOT_UTF8:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = record.exc_text = None
            record.msg = "A client sent a text frame that is not UTF-8: closed with 1007."
        return True


# asyncio's words for a task that raised and that nobody awaited.
NEVER_RETRIEVED = "Task exception was never retrieved"


class LostServiceInOrphanTasks(logging.Filter):
    """Log a lost Redis (or database) in a task nobody awaits as a warning.

    A library's task that nobody awaits (channels-redis's core layer cleaned each
    received message off its backup queue in one) meeting a Redis that died makes
    asyncio log "Task exception was never retrieved" as an error with a traceback (found
    by benchmarks/chaos.py). What the task did not do is done again once Redis is back.
    Any other exception stays an error.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if (
            record.levelno >= logging.ERROR
            and str(record.msg).startswith(NEVER_RETRIEVED)
            and error is not None
            and is_service_failure(error)
        ):
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = record.exc_text = None
            record.msg, record.args = "a background task lost a service: %s", (describe(error),)
        return True


class ServiceFailuresOfFollowers(logging.Filter):
    """Leave out Django's error record of a signal receiver that lost a backing service.

    ``Signal.send_robust`` logs each exception a receiver raises as an error with its
    traceback before it returns it. Live play (``live.write``) is the platform's one
    caller: it raises a service failure again and handles it as the outage it is, with a
    warning, after the move was stored (found by the chaos test: a database cut off
    right after a commit left a traceback in the server's error log). Any other
    exception of a receiver stays an error.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not (error is not None and is_service_failure(error))


def _add_once(logger_name: str, kind: type[logging.Filter]) -> None:
    logger = logging.getLogger(logger_name)
    if not any(isinstance(f, kind) for f in logger.filters):
        logger.addFilter(kind())


def install() -> None:
    """Attach the filters to uvicorn's error logger and asyncio's (a no-op where
    uvicorn does not run)."""
    _add_once("uvicorn.error", ClientFaults)
    _add_once("asyncio", LostServiceInOrphanTasks)
