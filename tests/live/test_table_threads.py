"""On PostgreSQL a server process does its play sockets' database work (moves, connects,
states, presence) in several table threads, a table's always in the same one
(live.sockets.in_table_thread): a table's work waits for no other table's. In the one
database thread of a process, every socket's work queued behind the others' waits on
the database server."""

import asyncio
import json
import threading
import time
from socket import create_server

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import DatabaseError, connection, connections, transaction
from django.db.models import Model, QuerySet

from classroom.models import ClassSession, Participant, Seat
from games.models import Match, MatchAction
from games.signals import action_stored
from live.sockets import TABLE_THREADS, in_table_thread
from tests.classroom.channels_testing import in_own_event_loop
from tests.live.database_relay import DatabaseRelay
from tests.live.helpers import (
    TIMEOUT,
    connect,
    database_process,
    end_database_process,
    keep_database_connection,
    play_socket,
    receive,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="SQLite takes one writer at a time: its sockets' work stays in the database thread",
    ),
]


def hold_row(rows: QuerySet[Model], locked: threading.Event, release: threading.Event) -> None:
    """Keep the row of the queryset ``rows`` locked, as a slow move would, until ``release``."""
    try:
        with transaction.atomic():
            rows.select_for_update().get()
            locked.set()
            release.wait(3 * TIMEOUT)
    finally:
        connections.close_all()


def seats_by_table(session: ClassSession) -> dict[int, dict[int, Participant]]:
    """Return ``{table pk: {seat number: participant}}`` of the session's students."""
    tables: dict[int, dict[int, Participant]] = {}
    for seat in Seat.objects.filter(table__session=session, participant__isnull=False):
        assert seat.participant is not None
        tables.setdefault(seat.table_id, {})[seat.number] = seat.participant
    return tables


async def seat_table(
    started: ClassSession, seated: dict[int, Participant]
) -> tuple[dict, dict, int]:
    """Connect a socket for each ``{seat number: student}``; return the sockets and their
    first states by seat number, and a seat that may move."""
    sockets, states = {}, {}
    for number, student in seated.items():
        sockets[number] = play_socket(started, student)
        states[number] = (await connect(sockets[number]))[1]
    mover = next(number for number, state in states.items() if state["legal_actions"])
    return sockets, states, mover


async def make_move(socket: WebsocketCommunicator, state: dict) -> int:
    """Send the first legal action of ``state``; return the version it was made at."""
    action = state["legal_actions"][0]
    await socket.send_to(
        text_data=json.dumps({"type": "act", "version": state["version"], "action": action})
    )
    return state["version"]


async def states_within(socket: WebsocketCommunicator, seconds: float) -> list[dict]:
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
    assert len(TABLE_THREADS) > 1 and slow % len(TABLE_THREADS) != quick % len(TABLE_THREADS)
    sockets, states = {}, {}
    for table, seated in tables.items():
        for number, student in seated.items():
            socket = play_socket(started, student)
            sockets[table, number] = socket
            states[table, number] = (await connect(socket))[1]
    slow_match = await sync_to_async(lambda: Match.objects.get(table__pk=slow).pk)()
    locked, release = threading.Event(), threading.Event()
    holder = threading.Thread(
        target=hold_row, args=(Match.objects.filter(pk=slow_match), locked, release)
    )
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


@in_own_event_loop
async def test_a_socket_connecting_waits_for_no_other_table(started):
    tables = await sync_to_async(seats_by_table)(started)
    slow, quick = sorted(tables)
    assert len(TABLE_THREADS) > 1 and slow % len(TABLE_THREADS) != quick % len(TABLE_THREADS)
    (number, student), *_ = tables[slow].items()
    waiting = play_socket(started, student)
    quick_sockets = [play_socket(started, other) for other in tables[quick].values()]
    for socket in quick_sockets:
        await connect(socket)
    # The seat's row stays locked: counting the socket on its seat waits.
    seat = Seat.objects.filter(table_id=slow, number=number)
    locked, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=hold_row, args=(seat, locked, release))
    holder.start()
    try:
        assert await asyncio.to_thread(locked.wait, TIMEOUT)
        connected, _ = await waiting.connect(timeout=TIMEOUT)
        assert connected
        assert await waiting.receive_nothing(timeout=0.3)  # its hello waits for the seat
        # Another table's socket asks for its table again meanwhile: answered at once.
        resyncing = quick_sockets[0]
        await resyncing.send_to(text_data=json.dumps({"type": "resync"}))
        assert (await receive(resyncing, "hello"))["table"] == quick
        assert (await receive(resyncing, "state"))["type"] == "state"
        assert holder.is_alive()
    finally:
        release.set()
        await asyncio.to_thread(holder.join, TIMEOUT)
    hello = await receive(waiting, "hello")
    assert (hello["table"], hello["seat"]) == (slow, number)
    for socket in [waiting, *quick_sockets]:
        await socket.disconnect()


@in_own_event_loop
async def test_a_move_that_meets_a_connection_dropped_in_steady_use_is_played_on_a_new_one(
    started, caplog
):
    """A table thread's connection in steady use is not checked before each use
    (config/postgresql/base.py): the move that meets it dropped (a database restart, a
    failover) runs again on a new connection. A move is safe to run twice: its version
    tells whether the first run was stored."""
    tables = await sync_to_async(seats_by_table)(started)
    table = min(tables)
    await in_table_thread(table, keep_database_connection)(True)
    try:
        sockets, states, mover = await seat_table(started, tables[table])
        pid = await in_table_thread(table, database_process)()
        await sync_to_async(end_database_process)(pid)
        version = await make_move(sockets[mover], states[mover])
        answer = await receive(sockets[mover])
        assert answer["type"] == "state", answer  # not the error "not_stored"
        assert answer["version"] == version + 1
        # Played on its second try, not after a check of the connection (it was in use).
        assert "database connection lost" in caplog.text
        assert await in_table_thread(table, database_process)() != pid
        match = await sync_to_async(Match.objects.get)(table__pk=table)
        assert match.version == version + 1
        for socket in sockets.values():
            await socket.disconnect()
    finally:
        await in_table_thread(table, keep_database_connection)(False)


async def logged_after(table: int, version: int) -> list[tuple[int, int | None]]:
    """Return the ``(version, seat)`` of the table's logged moves after ``version``."""
    moves = MatchAction.objects.filter(match__table__pk=table, version__gt=version)
    return await sync_to_async(
        lambda: list(moves.order_by("version").values_list("version", "seat"))
    )()


@in_own_event_loop
async def test_a_move_whose_commit_answer_is_lost_is_told_to_the_table_as_played(started, caplog):
    """The connection drops during the move's COMMIT, after the database stored it: the
    second try finds the move stored (not a stale version) and does what follows it.
    The mover and the other seats get the new state at once, and the apps that follow
    the moves hear of it, as after any move."""
    tables = await sync_to_async(seats_by_table)(started)
    table = min(tables)
    relay = DatabaseRelay(int(connection.settings_dict["PORT"]))
    heard = []

    def follower(sender, match, **kwargs):
        heard.append(match.version)

    action_stored.connect(follower)
    await in_table_thread(table, keep_database_connection)(True, relay.port)
    try:
        sockets, states, mover = await seat_table(started, tables[table])
        relay.lose_next_commit_answer()
        version = await make_move(sockets[mover], states[mover])
        answer = await receive(sockets[mover])
        assert answer["type"] == "state", answer  # not the error "stale_version"
        assert answer["version"] == version + 1
        assert relay.cuts == 1
        assert "database connection lost" in caplog.text
        assert f"move {version + 1} was stored before its answer was lost" in caplog.text
        for number, socket in sockets.items():
            if number != mover:  # at once, not when the heartbeat finds the gap
                assert (await receive(socket, "state"))["version"] == version + 1
        assert heard == [version + 1]
        assert await logged_after(table, version) == [(version + 1, mover)]
        for socket in sockets.values():
            await socket.disconnect()
    finally:
        action_stored.disconnect(follower)
        await in_table_thread(table, keep_database_connection)(False)
        relay.stop()


@in_own_event_loop
async def test_a_move_whose_commit_answer_is_lost_and_then_cannot_be_looked_up_is_unconfirmed(
    started, caplog
):
    """The connection drops during the move's COMMIT, after the database stored it, and
    the database cannot be reached for the second try: nobody can tell whether the move
    was stored, so the student is told that, where it was told "not stored" for a move
    the board then showed played."""
    tables = await sync_to_async(seats_by_table)(started)
    table = min(tables)
    relay = DatabaseRelay(int(connection.settings_dict["PORT"]))
    await in_table_thread(table, keep_database_connection)(True, relay.port)
    try:
        sockets, states, mover = await seat_table(started, tables[table])
        relay.lose_next_commit_answer(then_refuse=True)
        version = await make_move(sockets[mover], states[mover])
        answer = await receive(sockets[mover])
        assert answer["type"] == "error" and answer["code"] == "unconfirmed", answer
        assert "could not confirm your move" in answer["message"]
        assert relay.cuts == 1
        assert "of unknown outcome" in caplog.text
        assert await logged_after(table, version) == [(version + 1, mover)]
        for socket in sockets.values():
            await socket.disconnect()
    finally:
        await in_table_thread(table, keep_database_connection)(False)
        relay.stop()


@in_own_event_loop
async def test_a_socket_that_meets_its_table_thread_s_connection_dropped_connects_on_a_new_one(
    started, caplog
):
    """A socket's connect reads the seat's credential, its seat and the table in a table
    thread; meeting that thread's connection dropped it reads again on a new one, where
    the socket was closed with 1013 (try again) and the page had to come back."""
    tables = await sync_to_async(seats_by_table)(started)
    number, student = next(iter(tables[min(tables)].items()))
    processes = []
    for thread in TABLE_THREADS:  # the connect's first work runs in any of them
        await asyncio.wrap_future(thread.submit(keep_database_connection, True))
        processes.append(await asyncio.wrap_future(thread.submit(database_process)))
    try:
        for pid in processes:
            await sync_to_async(end_database_process)(pid)
        socket = play_socket(started, student)
        hello, state = await connect(socket)
        assert hello["seat"] == state["seat"] == number
        assert "database connection lost" in caplog.text
        await socket.disconnect()
    finally:
        for thread in TABLE_THREADS:
            await asyncio.wrap_future(thread.submit(keep_database_connection, False))


def freeze_inside_transaction(
    rows: QuerySet[Model],
    locked: threading.Event,
    woken: threading.Event,
    ended: list[DatabaseError],
) -> None:
    """Lock the row of ``rows`` and sit idle inside the transaction until ``woken``, as a
    process frozen in the middle of a move would; put what its commit raised in ``ended``."""
    try:
        with transaction.atomic():
            rows.select_for_update().get()
            locked.set()
            woken.wait(3 * TIMEOUT)
    except DatabaseError as error:  # psycopg's IdleInTransactionSessionTimeout
        ended.append(error)
    finally:
        connections.close_all()


@in_own_event_loop
async def test_a_process_frozen_inside_a_move_holds_its_table_until_the_database_ends_it(started):
    """The database ends a session idle inside a transaction after
    DB_IDLE_IN_TRANSACTION_SECONDS: the frozen process's lock on the match goes with it,
    and the table's next move is played, where it waited for the process to wake."""
    tables = await sync_to_async(seats_by_table)(started)
    table = min(tables)
    sockets, states, mover = await seat_table(started, tables[table])
    match = await sync_to_async(lambda: Match.objects.get(table__pk=table).pk)()
    locked, woken = threading.Event(), threading.Event()
    ended: list[DatabaseError] = []
    frozen = threading.Thread(
        target=freeze_inside_transaction,
        args=(Match.objects.filter(pk=match), locked, woken, ended),
    )
    frozen.start()
    try:
        assert await asyncio.to_thread(locked.wait, TIMEOUT)
        started_at = time.monotonic()
        version = await make_move(sockets[mover], states[mover])
        answer = await receive(sockets[mover])
        waited = time.monotonic() - started_at
        assert answer["type"] == "state", answer
        assert answer["version"] == version + 1
        assert waited >= settings.DB_IDLE_IN_TRANSACTION_SECONDS - 0.5  # it did wait
    finally:
        woken.set()
        await asyncio.to_thread(frozen.join, TIMEOUT)
    assert len(ended) == 1, "the frozen transaction was not ended by the database"
    assert "idle-in-transaction" in str(ended[0])
    for socket in sockets.values():
        await socket.disconnect()


@in_own_event_loop
async def test_a_database_that_never_answers_a_connection_refuses_the_move_in_time(started):
    """A database server that accepts the connection and never answers (stalled, or a
    proxy in front of a dead one): the move is refused, with its message, once
    DB_CONNECT_TIMEOUT has passed, where the table's thread waited for good."""
    tables = await sync_to_async(seats_by_table)(started)
    table = min(tables)
    sockets, states, mover = await seat_table(started, tables[table])
    silent = create_server(("127.0.0.1", 0))  # accepts, never answers
    await in_table_thread(table, keep_database_connection)(True, silent.getsockname()[1])
    try:
        started_at = time.monotonic()
        await make_move(sockets[mover], states[mover])
        answer = await receive(sockets[mover])
        assert answer["type"] == "error" and answer["code"] == "not_stored", answer
        assert time.monotonic() - started_at >= settings.DB_CONNECT_TIMEOUT - 0.5
    finally:
        await in_table_thread(table, keep_database_connection)(False)
        silent.close()
    for each in sockets.values():
        await each.disconnect()
