"""What every WebSocket consumer of the platform shares: a lifetime that always ends
cleanly, and failures that become messages instead of crashes.

Channels calls ``disconnect()`` only when the server delivers ``websocket.disconnect``.
A socket can end otherwise: the client goes while the server is sending (the ASGI
server raises an ``OSError`` from ``send``), a handler raises, or the channel layer
loses Redis. Without care each of those leaves the socket's groups, its background
tasks (a heartbeat) and its seat count behind: a student shown as connected who left
long ago. Here the consumer's whole life runs inside ``try/finally``, and
``release()`` (idempotent) frees everything, however the socket ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import threading
import weakref
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from classroom import broadcast
from classroom.services import describe, is_service_failure

logger = logging.getLogger(__name__)

# The close code asking a client to come back later (RFC 6455 "Try Again Later"): the
# server could not serve the socket for a moment; the client reconnects with backoff.
CLOSE_TRY_AGAIN = 1013


# A process's sockets leaving at once (the end of a class, a school's network dropping)
# each take a channel-layer connection to leave their groups: together they took the
# whole pool (CHANNEL_LAYER_MAX_CONNECTIONS), and the moves' sends failed with "Too many
# connections". At most half of the pool joins or leaves groups at once; the others wait.
_group_changes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


def group_changes() -> asyncio.Semaphore:
    """Return this event loop's bound on the sockets' group joins and leaves at once."""
    loop = asyncio.get_running_loop()
    bound = _group_changes.get(loop)
    if bound is None:
        bound = asyncio.Semaphore(max(1, settings.CHANNEL_LAYER_MAX_CONNECTIONS // 2))
        _group_changes[loop] = bound
    return bound


def keep_database_connection() -> None:
    """Mark this thread (a table or drawing thread: ``ThreadPoolExecutor``'s initializer)
    as one that keeps its database connection between uses, on PostgreSQL too, where the
    server's passing threads share a pool, and that serves live play: its statements
    have a deadline (config/postgresql/base.py reads the marks)."""
    thread = threading.current_thread()
    # Marks of our own on the Thread object, unknown to its type.
    thread.keeps_database_connection = thread.serves_live_play = True  # type: ignore[attr-defined]


# The teachers' pages (the live dashboard, the join screen) are drawn in threads of
# their own. In the database thread that every move goes through, a move waited behind
# them: a drawing is milliseconds of queries and templates for each table that changed,
# and with every teacher of a busy server watching, the students' moves queued behind
# the drawings (at 2,000 students, p95 of a move's views 0.5 to 0.8 s). Each thread
# (settings.LIVE_DRAWING_THREADS: one on SQLite, two on PostgreSQL, where a drawing waits
# for each statement's round trip) keeps one database connection more; a session's
# drawings all go to the same one, one after another.
DRAWING_THREADS = tuple(
    ThreadPoolExecutor(
        max_workers=1,
        thread_name_prefix=f"drawing-{number}",
        initializer=keep_database_connection,
    )
    for number in range(settings.LIVE_DRAWING_THREADS)
)
P = ParamSpec("P")
R = TypeVar("R")


def in_drawing_thread(key: int, func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """Return ``func`` as a coroutine function run in the drawing thread of ``key`` (a
    session's id), with the old database connections closed around it as
    ``database_sync_to_async`` does."""
    executor = DRAWING_THREADS[key % len(DRAWING_THREADS)]
    return database_sync_to_async(func, thread_sensitive=False, executor=executor)


# A play socket's database work (its moves, its connect and hello, the states it reads,
# its presence) runs in one of a process's table threads (settings.LIVE_DATABASE_THREADS;
# none on SQLite, where it stays in the database thread): on PostgreSQL each statement
# waits for the server, and in one thread every socket of the process queued behind
# those waits (1,000 students on a database 2.4 ms away: p95 from a move to every view
# 4.1 s in one thread, 0.22 s in four; docs/benchmarks.md, "Load"). A table's work all goes to the
# same thread, in the order it came; each thread keeps one database connection.
TABLE_THREADS = tuple(
    ThreadPoolExecutor(
        max_workers=1,
        thread_name_prefix=f"table-{number}",
        initializer=keep_database_connection,
    )
    for number in range(settings.LIVE_DATABASE_THREADS)
)


# Each socket's number: before it knows its table (or session), it picks the socket's
# table thread.
SOCKET_NUMBERS = itertools.count()


def in_table_thread(key: int, func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """Return ``func`` as a coroutine function run in the table thread of ``key`` (a
    table's id; before a socket knows its table, any number of its own), or in the
    database thread when there are no table threads."""
    if not TABLE_THREADS:
        return database_sync_to_async(func)
    executor = TABLE_THREADS[key % len(TABLE_THREADS)]
    return database_sync_to_async(func, thread_sensitive=False, executor=executor)


class ClientGone(StopConsumer):
    """The client went away while the server was sending to it: end quietly."""


class PlatformConsumer(AsyncWebsocketConsumer):
    """A WebSocket consumer that releases what it holds however its socket ends.

    Subclasses put per-socket tasks in ``start_task`` (cancelled on release), join
    groups with ``join`` (left on release), free anything else in ``on_release``, and
    say in ``on_failure`` what the client is told when a backing service failed while
    handling one of its messages.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.joined: list[str] = []
        self.tasks: set[asyncio.Task] = set()
        self.released = False

    async def __call__(
        self,
        scope: dict[str, Any],
        receive: Callable[[], Awaitable[dict]],
        send: Callable[[dict], Awaitable[None]],
    ) -> None:
        broadcast.serve_from(asyncio.get_running_loop())
        closed = False

        async def send_or_gone(message):
            # After the close nothing more may go out (the server refuses it): a failure
            # noticed by two paths at once closes once and says nothing after.
            nonlocal closed
            if closed:
                return
            closed = message["type"] == "websocket.close"
            try:
                await send(message)
            except OSError as error:  # the ASGI spec's way of saying the client is gone
                raise ClientGone() from error

        try:
            await super().__call__(scope, receive, send_or_gone)
        except Exception as error:
            if not is_service_failure(error):
                raise
            # The channel layer lost Redis: the socket cannot hear its groups any more.
            logger.warning("%s: channel layer failed: %s", self.__class__.__name__, describe(error))
            with contextlib.suppress(Exception):
                await self.close(code=CLOSE_TRY_AGAIN)
        finally:
            await self.release()

    async def dispatch(self, message: dict) -> None:
        """Handle one message; a failed service or a bug becomes a message to the client.

        Channels' own dispatch first closes old database connections in the database
        thread (``aclose_old_connections``), for every message: a ping, each move's state
        at every socket of the table. That queued each of them behind the moves being
        written there, and cost a thread hop each. Every database call of these sockets
        goes through ``database_sync_to_async``, which closes old connections before and
        after it, so a handler that reads nothing waits for nothing.
        """
        try:
            handler = getattr(self, get_handler_name(message), None)
            if handler is None:
                raise ValueError(f"No handler for message type {message['type']}")
            await handler(message)
        except (StopConsumer, asyncio.CancelledError):
            raise
        except Exception as error:
            if is_service_failure(error):
                logger.warning(
                    "%s: %s failed: %s",
                    self.__class__.__name__,
                    message.get("type"),
                    describe(error),
                )
                await self.failed(message, "unavailable")
                return
            # A defect: logged with its traceback for the developers; the socket stays.
            logger.exception("%s: %s raised", self.__class__.__name__, message.get("type"))
            await self.failed(message, "server_error")

    async def failed(self, message: dict, code: str) -> None:
        """Tell the client; a socket whose connection could not be set up (its groups, its
        seat) would be deaf, so it closes and the client comes back with backoff."""
        await self.on_failure(message, code)
        if message.get("type") == "websocket.connect":
            with contextlib.suppress(ClientGone):
                await self.close(code=CLOSE_TRY_AGAIN)

    async def disconnect(self, code: int) -> None:
        await self.release()

    async def join(self, group: str) -> None:
        """Join a channel-layer group (once); it is left on release."""
        if group not in self.joined:
            async with group_changes():
                await self.channel_layer.group_add(group, self.channel_name)
            self.joined.append(group)

    def start_task(self, work: Callable[[], Awaitable[None]]) -> asyncio.Task:
        """Run work beside the socket; a service failure in it is logged, not lost."""

        async def guarded():
            try:
                await work()
            except (ClientGone, asyncio.CancelledError):
                pass
            except Exception as error:
                if not is_service_failure(error):
                    logger.exception("%s: background work raised", self.__class__.__name__)
                    return
                logger.warning(
                    "%s: background work failed: %s", self.__class__.__name__, describe(error)
                )

        task = asyncio.create_task(guarded())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def release(self) -> None:
        """Cancel the socket's tasks, leave its groups, free the rest (once)."""
        if self.released:
            return
        self.released = True
        tasks, self.tasks = set(self.tasks), set()
        for task in tasks:
            task.cancel()
        if tasks:
            # wait() collects the tasks' own ends without raising them, and unlike a
            # suppressed await it lets a cancellation of this socket itself go through.
            await asyncio.wait(tasks)
        groups, self.joined = self.joined, []
        for group in groups:
            try:
                async with group_changes():
                    await self.channel_layer.group_discard(group, self.channel_name)
            except Exception as error:  # a service's: the group's entry expires on its own
                if not is_service_failure(error):
                    raise
                logger.warning("could not leave %s: %s", group, describe(error))
        try:
            await self.on_release()
        except Exception as error:  # a service's: the sweeper corrects what was not stored
            if not is_service_failure(error):
                raise
            logger.warning("%s: release failed: %s", self.__class__.__name__, describe(error))

    async def on_release(self) -> None:
        """Free what the subclass holds besides tasks and groups."""

    async def on_failure(self, message: dict, code: str) -> None:
        """Tell the client that handling ``message`` failed (``code``: "unavailable" when a
        service failed, "server_error" for a defect). By default the socket closes with
        "try again later", and the client reconnects and gets a fresh page."""
        with contextlib.suppress(ClientGone):
            await self.close(code=CLOSE_TRY_AGAIN)
