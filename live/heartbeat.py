"""One heartbeat per server process for all of its seated sockets.

Every HEARTBEAT_SECONDS each socket that holds a seat must refresh the seat's
``last_seen_at`` (else the sweeper takes it for a socket of a killed server) and catch up
with a match that moved on without it (a state lost with a Redis that died before writing
it to disk). Done by each socket on its own, that is two trips a beat to the process's
one database thread per socket: with a thousand students, a hundred a second, queued
with the moves. Here one task per event loop does it for every seated socket at once:
one UPDATE of their seats, one read of their tables' versions.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Protocol

from channels.db import database_sync_to_async

from classroom.actions import do_seats_seen
from classroom.models import HEARTBEAT_SECONDS, Table
from classroom.services import SERVICE_ERRORS, describe

logger = logging.getLogger(__name__)

# A state the write path sent just before a beat may still be on its way (under load,
# a second or more): a socket found behind the stored match is caught up only if it is
# still behind this long after, instead of reading a table whose state is arriving.
IN_FLIGHT_SECONDS = 3.0


class Member(Protocol):
    """A seated socket, as the heartbeat sees it (live.consumers.PlayConsumer)."""

    seat_pk: int | None
    table_id: int | None

    def behind(self, stored_version: int) -> bool: ...

    def catch_up(self) -> None: ...


def stored_versions(seat_pks: list[int], table_ids: set[int]) -> dict[int, int]:
    """Mark the seats seen now; return the stored version of each table's match."""
    do_seats_seen(seat_pks)
    return dict(
        Table.objects.filter(pk__in=table_ids, match__isnull=False).values_list(
            "pk", "match__version"
        )
    )


class Heartbeat:
    """The heartbeat of the seated sockets of one event loop."""

    def __init__(self) -> None:
        self.members: set[Member] = set()
        self.task: asyncio.Task | None = None
        self.checks: set[asyncio.Task] = set()  # a loop keeps weak references only

    def add(self, member: Member) -> None:
        self.members.add(member)
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self.run())

    def discard(self, member: Member) -> None:
        self.members.discard(member)

    async def run(self) -> None:
        """Beat while any socket is seated; the task ends with the last one."""
        while self.members:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                await self.beat()
            except SERVICE_ERRORS as error:
                # Retried at the next beat; a seat is stale only after several missed.
                logger.warning("heartbeat failed: %s", describe(error))
            except Exception:
                logger.exception("heartbeat raised")

    async def beat(self) -> None:
        members = [member for member in self.members if member.seat_pk is not None]
        if not members:
            return
        versions = await database_sync_to_async(stored_versions)(
            [member.seat_pk for member in members],
            {member.table_id for member in members if member.table_id is not None},
        )
        behind = []
        for member in members:
            stored = versions.get(member.table_id)
            if member in self.members and stored is not None and member.behind(stored):
                behind.append((member, stored))
        if behind:
            check = asyncio.create_task(self.catch_up_later(behind))
            self.checks.add(check)
            check.add_done_callback(self.checks.discard)

    async def catch_up_later(self, behind: list[tuple[Member, int]]) -> None:
        """Catch up the sockets still behind the versions the beat found stored."""
        await asyncio.sleep(IN_FLIGHT_SECONDS)
        for member, stored in behind:
            if member in self.members and member.behind(stored):
                member.catch_up()


_beats: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Heartbeat] = (
    weakref.WeakKeyDictionary()
)


def join(member: Member) -> None:
    """Count a seated socket in its event loop's heartbeat."""
    loop = asyncio.get_running_loop()
    if loop not in _beats:
        _beats[loop] = Heartbeat()
    _beats[loop].add(member)


def leave(member: Member) -> None:
    """Take a socket out of its event loop's heartbeat (once it is released)."""
    beat = _beats.get(asyncio.get_running_loop())
    if beat is not None:
        beat.discard(member)
