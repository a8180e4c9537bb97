"""Tell a session's open WebSockets that its lobby changed, once the change is committed."""

import asyncio
import concurrent.futures
import logging
import os
import secrets
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from classroom.presence import players_in_every_language
from classroom.services import SERVICE_ERRORS, describe

logger = logging.getLogger(__name__)


def session_group(session_id: int) -> str:
    """Return the channel-layer group of a session."""
    return f"session-{session_id}"


def _loop_running_in_this_thread() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def table_group(table_id: int) -> str:
    """Return the channel-layer group of every socket at a table."""
    return f"table-{table_id}"


def seat_group(table_id: int, seat: int | None) -> str:
    """Return the channel-layer group of the sockets of one seat (None: the projector's
    public view). The write path of the previous release sent each seat's ``state``
    there (this one sends the table one ``table.states``): the sockets still join it, so
    that a rolling upgrade loses no state."""
    return f"table-{table_id}-seat-{seat}" if seat is not None else f"table-{table_id}-public"


def dashboard_group(session_id: int) -> str:
    """Return the channel-layer group of a session's teacher dashboard."""
    return f"dashboard-{session_id}"


def send_now(session_id: int, event: dict) -> None:
    """Send an event to the session's group right away; log, never raise, on failure."""
    send_group(session_group(session_id), event)


def send_group(group: str, event: dict) -> None:
    """Send an event to a group right away; log, never raise, on failure.

    The change it announces is already committed: a lost message must not turn the
    teacher's or student's request into an error (pages resync when they reconnect).
    """
    send_groups([(group, event)])


# The sends handed to an event loop and not finished yet (a loop keeps only a weak
# reference to its tasks).
_pending: set[concurrent.futures.Future] = set()


class ServerLoop:
    """The event loop of this process's ASGI server, once one of its sockets has run,
    and the last batch of sends handed to it from another thread."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.last: concurrent.futures.Future | None = None
        self.last_loop: asyncio.AbstractEventLoop | None = None
        self.lock = threading.Lock()

    def hand(self, send: Callable[[], Awaitable[None]]) -> bool:
        """Run send on the server's loop after the sends handed before it; return False
        when this thread cannot (no server loop running, or this is the loop's thread)."""
        loop = self.loop
        if loop is None or not loop.is_running() or _loop_running_in_this_thread():
            return False
        with self.lock:
            # A batch handed to a loop that stopped since (a test's) never ends.
            previous = self.last if self.last_loop is loop else None

            async def in_order() -> None:
                if previous is not None and not previous.done():
                    await asyncio.wait([asyncio.wrap_future(previous)])
                await send()

            future = asyncio.run_coroutine_threadsafe(in_order(), loop)
            self.last, self.last_loop = future, loop
        _pending.add(future)
        future.add_done_callback(_pending.discard)
        return True


_server = ServerLoop()


def serve_from(loop: asyncio.AbstractEventLoop | None) -> None:
    """Remember the event loop of this process's ASGI server.

    A send from one of the server's threads (the sockets' database thread, a request's
    thread) then runs on that loop, in order, while the thread goes on at once. Waiting
    for it held the thread as long as Redis took to answer: during a Redis stall each
    presence notice of a socket that closed held the database thread for the channel
    layer's read timeout, and every socket of the process, arriving or playing, with it.
    """
    _server.loop = loop


class OwnLoop:
    """An event loop in a daemon thread of this process, for the sends of a process that
    is not an ASGI server (a Celery worker), once ``send_from_own_loop`` asks for it.

    Without it each send ran in an event loop made for it (``async_to_sync``), with a
    channel layer of its own: a new Redis connection, opened and closed for every bot
    move and timer a worker played. On one loop for the process, the channel layer keeps
    its connections. A forked child starts a loop of its own.
    """

    def __init__(self) -> None:
        self.wanted = False
        self.loop: asyncio.AbstractEventLoop | None = None
        self.pid: int | None = None
        self.lock = threading.Lock()

    def running(self) -> asyncio.AbstractEventLoop | None:
        """Return the process's own loop, started when needed (None: not wanted here)."""
        if not self.wanted:
            return None
        with self.lock:
            if self.loop is None or self.pid != os.getpid() or not self.loop.is_running():
                loop = asyncio.new_event_loop()
                started = threading.Event()
                loop.call_soon(started.set)
                threading.Thread(
                    target=loop.run_forever, name="classroom-sends", daemon=True
                ).start()
                started.wait()
                self.loop, self.pid = loop, os.getpid()
            return self.loop


_own = OwnLoop()


def send_from_own_loop(**kwargs: Any) -> None:
    """Send this process's group messages from an event loop of its own, each send done
    when ``send_groups`` returns (connected to Celery's ``worker_process_init``)."""
    _own.wanted = True


def send_groups(
    messages: list[tuple[str, dict]], loop: asyncio.AbstractEventLoop | None = None
) -> None:
    """Send events to groups at once (concurrently, in one trip to the event loop); log,
    never raise, on failure, each message on its own.

    ``loop``: the running event loop of the server that called this from its database
    thread. The sends then run there while the calling thread goes on at once (the
    thread serves every socket's database work, one call at a time, so it must not
    wait on the channel layer). Without it, a thread of the server hands them to the
    server's loop (``serve_from``), after the sends it handed before; anywhere else (a
    Celery worker, a management command) they are done when this returns (in a worker,
    sent from the process's own loop: ``send_from_own_loop``).
    """
    if not messages:
        return

    async def one(group: str, event: dict) -> None:
        try:
            await get_channel_layer().group_send(group, event)
        except SERVICE_ERRORS as error:
            logger.warning("could not send %s to %s: %s", event.get("type"), group, describe(error))
        except Exception:
            logger.exception("could not send %s to %s", event.get("type"), group)

    async def all_of_them() -> None:
        await asyncio.gather(*(one(group, event) for group, event in messages))

    if loop is not None and loop.is_running():
        future = asyncio.run_coroutine_threadsafe(all_of_them(), loop)
        _pending.add(future)
        future.add_done_callback(_pending.discard)
        return

    if _server.hand(all_of_them):
        return

    def send():
        try:
            own = _own.running()
            if own is not None:
                asyncio.run_coroutine_threadsafe(all_of_them(), own).result()
            else:
                async_to_sync(all_of_them)()
        except SERVICE_ERRORS as error:
            logger.warning("could not send %d messages: %s", len(messages), describe(error))

    if _loop_running_in_this_thread():
        # A synchronous caller inside a busy event loop (not the ASGI server's case,
        # which runs views in worker threads): send from a helper thread.
        helper = threading.Thread(target=send, name="classroom-broadcast")
        helper.start()
        helper.join(10)
    else:
        send()


def lobby_changed(session_id: int, reason: str) -> None:
    """Broadcast, after the current transaction commits, that the lobby changed.

    The event names the change (``change``, unique): the sockets of one process that
    receive it read the lobby once for all of them (``live.session_sockets``).
    """
    event = {"type": "lobby.changed", "reason": reason, "change": secrets.token_hex(8)}
    transaction.on_commit(lambda: send_now(session_id, event))


def on_commit_send(group: str, event: dict) -> None:
    """Send an event to a group once the current transaction commits."""
    transaction.on_commit(lambda: send_group(group, event))


def dashboard_changed(session_id: int, reason: str, table: int | None = None) -> None:
    """Tell the session's dashboard to redraw, after the current transaction commits
    (``table``: only that table's part changed)."""
    event: dict[str, Any] = {"type": "dashboard.changed", "reason": reason}
    if table is not None:
        event["table"] = table
    on_commit_send(dashboard_group(session_id), event)


def table_event(table_id: int, kind: str, **fields: Any) -> None:
    """Tell every socket at a table (paused, resumed, presence...), after commit."""
    on_commit_send(table_group(table_id), {"type": f"table.{kind}", **fields})


def presence_changed(table_id: int) -> None:
    """Tell every socket at a table who sits where now, after commit: the players are
    read once here, in every language, not by each socket."""

    def send() -> None:
        players = players_in_every_language(table_id)
        send_group(table_group(table_id), {"type": "table.presence", "players": players})

    transaction.on_commit(send)
