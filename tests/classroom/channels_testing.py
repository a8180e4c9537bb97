"""Channels test helpers: the WebsocketCommunicator, and async tests in their own loop."""

import asyncio
import functools
import threading

from channels.testing import WebsocketCommunicator
from django.db import connections

THREAD_TIMEOUT = 120

__all__ = ["WebsocketCommunicator", "in_own_event_loop"]


def in_own_event_loop(test):
    """Run an async test in a thread with its own event loop.

    A session-scoped Playwright browser (sync API) keeps an event loop running in the
    main thread, where pytest-asyncio then cannot run its own; a thread of our own
    always can, whatever ran before.
    """

    @functools.wraps(test)
    def run(*args, **kwargs):
        outcome = {}

        def target():
            try:
                asyncio.run(test(*args, **kwargs))
            except BaseException as error:  # re-raised in the test's thread
                outcome["error"] = error
            finally:
                connections.close_all()

        thread = threading.Thread(target=target, name=f"test-{test.__name__}")
        thread.start()
        thread.join(THREAD_TIMEOUT)
        if thread.is_alive():
            raise TimeoutError(f"{test.__name__} did not finish in {THREAD_TIMEOUT} s")
        if "error" in outcome:
            raise outcome["error"]

    return run
