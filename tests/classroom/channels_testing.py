"""Channels test helpers: the WebsocketCommunicator, and async tests in their own loop.

channels.testing's WebsocketCommunicator is imported even when daphne is missing.

channels/testing/__init__.py imports ChannelsLiveServerTestCase, which needs daphne;
these tests run on uvicorn and never use that class. When daphne is missing, a stub
``daphne.testing`` module stands in for that one import; once daphne is installed
(add it to the dev extra), the real one is used and this stub is never made.
"""

import asyncio
import functools
import importlib.util
import sys
import threading
import types

from django.db import connections

THREAD_TIMEOUT = 120

if importlib.util.find_spec("daphne") is None and "daphne.testing" not in sys.modules:
    daphne = types.ModuleType("daphne")
    daphne_testing = types.ModuleType("daphne.testing")

    class DaphneProcess:
        """Stand-in: channels' live-server test case is not used here."""

        def __init__(self, *args, **kwargs):
            raise RuntimeError("daphne is not installed")

    daphne_testing.DaphneProcess = DaphneProcess
    daphne.testing = daphne_testing
    sys.modules["daphne"] = daphne
    sys.modules["daphne.testing"] = daphne_testing

from channels.testing import WebsocketCommunicator  # noqa: E402 - after the stub

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
