"""Channels test helpers: the WebsocketCommunicator, and async tests in their own loop."""

import asyncio
import functools
import sys
import threading
import traceback

from asgiref.sync import SyncToAsync
from channels.testing import WebsocketCommunicator
from django.db import connections

from live.sockets import DRAWING_THREADS, TABLE_THREADS

THREAD_TIMEOUT = 120

__all__ = ["WebsocketCommunicator", "in_own_event_loop"]


def thread_stacks():
    """Yield (thread name, current frame) of every live thread but this one."""
    names = {thread.ident: thread.name for thread in threading.enumerate()}
    for ident, frame in sys._current_frames().items():
        if ident != threading.get_ident():
            yield names.get(ident, str(ident)), frame


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
                # The database threads' too (the sockets' one, the dashboards' drawing
                # threads, the play sockets' table threads: live.sockets): Channels' test
                # communicator turns off the closing of old connections while it waits,
                # and PostgreSQL drops no test database while a connection is open.
                for executor in (
                    SyncToAsync.single_thread_executor,
                    *DRAWING_THREADS,
                    *TABLE_THREADS,
                ):
                    executor.submit(connections.close_all).result(THREAD_TIMEOUT)

        # A daemon: a test thread that hangs fails its test below, and must not then keep
        # pytest from exiting at the end of the run (the process waits for other threads).
        thread = threading.Thread(target=target, name=f"test-{test.__name__}", daemon=True)
        thread.start()
        thread.join(THREAD_TIMEOUT)
        if thread.is_alive():
            # Where it hangs is the whole diagnosis: the test thread's stack, and every
            # other thread's (an executor thread it waits for, say).
            stacks = "\n".join(
                f"--- {name}:\n" + "".join(traceback.format_stack(frame))
                for name, frame in thread_stacks()
            )
            raise TimeoutError(
                f"{test.__name__} did not finish in {THREAD_TIMEOUT} s; threads:\n{stacks}"
            )
        if "error" in outcome:
            raise outcome["error"]

    return run
