"""On PostgreSQL a server process writes its students' moves in several writer threads, a
table always in the same one (live.sockets.in_writer_thread): a move waits for no move
of another table. In the one database thread of a process, every move queued behind
the others' waits on the database server."""

import asyncio
import json
import threading

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, connections, transaction

from classroom.models import Seat
from games.models import Match
from live.sockets import WRITERS
from tests.classroom.channels_testing import in_own_event_loop
from tests.live.helpers import TIMEOUT, connect, play_socket, receive

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="SQLite takes one writer at a time: its moves stay in the database thread",
    ),
]


def hold_match_row(match_id: int, locked: threading.Event, release: threading.Event) -> None:
    """Keep the match's row locked, as a slow move of that match would, until ``release``."""
    try:
        with transaction.atomic():
            Match.objects.select_for_update().get(pk=match_id)
            locked.set()
            release.wait(3 * TIMEOUT)
    finally:
        connections.close_all()


def seats_by_table(session) -> dict[int, dict[int, object]]:
    """Return ``{table pk: {seat number: participant}}`` of the session's students."""
    tables: dict[int, dict[int, object]] = {}
    for seat in Seat.objects.filter(table__session=session, participant__isnull=False):
        tables.setdefault(seat.table_id, {})[seat.number] = seat.participant
    return tables


async def make_move(socket, state: dict) -> int:
    """Send the first legal action of ``state``; return the version it was made at."""
    action = state["legal_actions"][0]
    await socket.send_to(
        text_data=json.dumps({"type": "act", "version": state["version"], "action": action})
    )
    return state["version"]


async def states_within(socket, seconds: float) -> list[dict]:
    """Return the ``state`` messages ``socket`` gets within ``seconds`` (others pass)."""
    states = []
    while not await socket.receive_nothing(timeout=seconds):
        message = json.loads(await socket.receive_from(timeout=TIMEOUT))
        if message["type"] == "state":
            states.append(message)
    return states


@in_own_event_loop
async def test_a_move_waits_for_no_move_of_another_table(started):
    tables = await sync_to_async(seats_by_table)(started)
    slow, quick = sorted(tables)
    assert len(WRITERS) > 1 and slow % len(WRITERS) != quick % len(WRITERS)
    sockets, states = {}, {}
    for table, seated in tables.items():
        for number, student in seated.items():
            socket = play_socket(started, student)
            sockets[table, number] = socket
            states[table, number] = (await connect(socket))[1]
    slow_match = await sync_to_async(lambda: Match.objects.get(table__pk=slow).pk)()
    locked, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=hold_match_row, args=(slow_match, locked, release))
    holder.start()
    try:
        assert await asyncio.to_thread(locked.wait, TIMEOUT)
        movers = {
            table: next(key for key in states if key[0] == table and states[key]["legal_actions"])
            for table in (slow, quick)
        }
        slow_version = await make_move(sockets[movers[slow]], states[movers[slow]])
        quick_version = await make_move(sockets[movers[quick]], states[movers[quick]])
        # The other table's move is stored and seen at once, while the first one waits.
        for key, socket in sockets.items():
            if key[0] == quick:
                assert (await receive(socket, "state"))["version"] > quick_version
        for key, socket in sockets.items():
            if key[0] == slow:
                assert await states_within(socket, 0.3) == []
        assert holder.is_alive()
    finally:
        release.set()
        await asyncio.to_thread(holder.join, TIMEOUT)
    for key, socket in sockets.items():
        if key[0] == slow:
            assert (await receive(socket, "state"))["version"] > slow_version
    for socket in sockets.values():
        await socket.disconnect()
