"""What the ASGI server says of a client's fault is no error of the server."""

from __future__ import annotations

import logging

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


def install() -> None:
    """Attach the filter to uvicorn's error logger (a no-op where uvicorn does not run)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, ClientFaults) for f in logger.filters):
        logger.addFilter(ClientFaults())
