"""A socket's lifetime, in-process on the real Redis channel layer: a handler that
raises or a service that fails becomes an error message, and whatever ends the socket
gives its seat back."""

import asyncio
import json
import logging
import time
from typing import Any

import pytest
import redis
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.db import OperationalError
from redis.asyncio.client import PubSub

from classroom.broadcast import table_group
from classroom.models import Seat, Table
from games.matches import apply_action
from live import consumers, heartbeat, messages, write
from live.sockets import CLOSE_TRY_AGAIN, PlatformConsumer
from tests.classroom.channels_testing import in_own_event_loop
from tests.live.helpers import TIMEOUT, connect, play_socket, receive
from tests.live.test_consumers import started_table

pytestmark = pytest.mark.django_db(transaction=True)


def connected(table: Table, number: int) -> int:
    return Seat.objects.get(table=table, number=number).connected


def fail_once(monkeypatch: pytest.MonkeyPatch, target: object, name: str, error: Exception) -> None:
    """Make target.name raise error the next time it is called, then work again."""
    original = getattr(target, name)
    calls = {"n": 0}

    def failing(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 1:
            raise error
        return original(*args, **kwargs)

    monkeypatch.setattr(target, name, failing)


@pytest.mark.expected_log_errors(
    r"PlayConsumer: websocket.receive raised", r"RuntimeError: a defect"
)
@in_own_event_loop
async def test_a_handler_that_raises_answers_an_error_and_keeps_the_socket(
    school_class, monkeypatch
):
    session, table, people = await sync_to_async(started_table)(school_class)
    ana = next(p for p in people.values() if p.nickname == "Ana")
    socket = play_socket(session, ana)
    await connect(socket)
    fail_once(monkeypatch, consumers.TableConsumer, "build_full", RuntimeError("a defect"))
    await socket.send_to(text_data=json.dumps({"type": "resync"}))
    error = await receive(socket, "error")
    assert error["code"] == "server_error" and error["message"]
    await socket.send_to(text_data=json.dumps({"type": "ping"}))
    assert (await receive(socket, "pong"))["type"] == "pong"
    seat = await sync_to_async(lambda: ana.seats.get().number)()
    assert await sync_to_async(connected)(table, seat) == 1
    await socket.disconnect()
    assert await sync_to_async(connected)(table, seat) == 0


@in_own_event_loop
async def test_a_service_failure_while_connecting_is_an_error_and_leaves_no_count(
    school_class, monkeypatch
):
    session, table, people = await sync_to_async(started_table)(school_class)
    ana = next(p for p in people.values() if p.nickname == "Ana")
    seat = await sync_to_async(lambda: ana.seats.get().number)()
    # The seat is counted, then building the first state meets a Redis that is gone.
    fail_once(
        monkeypatch,
        consumers.TableConsumer,
        "build_full",
        redis.exceptions.ConnectionError("Redis went away"),
    )
    socket = play_socket(session, ana)
    accepted, _ = await socket.connect(timeout=TIMEOUT)
    assert accepted
    error = await receive(socket, "error")
    assert error["code"] == "unavailable"
    assert "busy" in error["message"]
    # A socket that could not be set up closes, so that the client tries again.
    closed = await socket.receive_output(timeout=TIMEOUT)
    assert closed == {"type": "websocket.close", "code": CLOSE_TRY_AGAIN}
    await socket.disconnect()  # the client answers the close
    assert await sync_to_async(connected)(table, seat) == 0
    again = play_socket(session, ana)
    await connect(again)  # Redis is back: the next attempt plays on
    assert await sync_to_async(connected)(table, seat) == 1
    await again.disconnect()
    assert await sync_to_async(connected)(table, seat) == 0


@in_own_event_loop
async def test_a_move_whose_storing_fails_is_refused_as_not_stored(school_class, monkeypatch):
    session, _table, people = await sync_to_async(started_table)(school_class)
    sockets = {}
    for participant in people.values():
        sockets[participant.pk] = play_socket(session, participant)
    states = {pk: (await connect(socket))[1] for pk, socket in sockets.items()}
    mover, state = next((pk, s) for pk, s in states.items() if s["legal_actions"])
    fail_once(
        monkeypatch,
        write,
        "apply_action",
        redis.exceptions.TimeoutError("Timeout reading from socket"),
    )
    act = {"type": "act", "version": state["version"], "action": state["legal_actions"][0]}
    await sockets[mover].send_to(text_data=json.dumps(act))
    refusal = await receive(sockets[mover], "error")
    assert refusal["code"] == "not_stored" and "not stored" in refusal["message"]
    await sockets[mover].send_to(text_data=json.dumps(act))
    played = await receive(sockets[mover], "state")
    assert played["version"] == state["version"] + 1
    for socket in sockets.values():
        await socket.disconnect()


# What uvloop raises when redis-py writes on the connection of a Redis that was killed.
CLOSED_TRANSPORT = RuntimeError(
    "unable to perform operation on <TCPTransport closed=True reading=False 0x7f0>; "
    "the handler is closed"
)


@in_own_event_loop
async def test_a_channel_layer_whose_redis_was_killed_closes_the_socket_to_come_back(
    school_class, monkeypatch
):
    """benchmarks/chaos.py found it: killed under the channel layer's read, Redis left
    redis-py a closed connection, and uvloop's RuntimeError went through as "Exception in
    ASGI application". It is the channel layer losing Redis: the layer's subscription
    reader meets it, the socket closes with "try again later", and the client comes back."""
    session, table, people = await sync_to_async(started_table)(school_class)
    ana = next(p for p in people.values() if p.nickname == "Ana")
    seat = await sync_to_async(lambda: ana.seats.get().number)()
    original = PubSub.get_message
    killed: dict[str, Any] = {"now": asyncio.Event(), "armed": True}

    async def get_message(pubsub, *args, **kwargs):
        if killed["armed"] and killed["now"].is_set():
            killed["armed"] = False
            raise CLOSED_TRANSPORT
        return await original(pubsub, *args, **kwargs)

    monkeypatch.setattr(PubSub, "get_message", get_message)
    socket = play_socket(session, ana)
    await connect(socket)
    assert await sync_to_async(connected)(table, seat) == 1
    killed["now"].set()
    closed = await socket.receive_output(timeout=TIMEOUT)
    while closed["type"] == "websocket.send":  # a presence notice sent before the loss
        closed = await socket.receive_output(timeout=TIMEOUT)
    assert closed == {"type": "websocket.close", "code": CLOSE_TRY_AGAIN}
    assert not killed["armed"]
    await socket.disconnect()  # the client answers the close
    assert await sync_to_async(connected)(table, seat) == 0
    again = play_socket(session, ana)
    await connect(again)  # Redis is back: the next socket plays on
    await again.disconnect()


@in_own_event_loop
async def test_a_state_lost_on_the_way_is_sent_at_the_next_heartbeat(school_class, monkeypatch):
    """A move stored whose state never reached the table (sent to a Redis killed before it
    wrote it to disk: the chaos run's stuck game): the socket hears of nothing more, since
    the game waits for a move; at its next heartbeat it finds the stored match newer and
    sends the state."""
    monkeypatch.setattr(heartbeat, "HEARTBEAT_SECONDS", 0.3)
    monkeypatch.setattr(heartbeat, "IN_FLIGHT_SECONDS", 0.3)
    session, table, people = await sync_to_async(started_table)(school_class)
    sockets = {pk: play_socket(session, participant) for pk, participant in people.items()}
    states = {pk: (await connect(socket))[1] for pk, socket in sockets.items()}
    state = next(s for s in states.values() if s["legal_actions"])
    seat = state["seat"]
    # Stored as the write path stores it, but nobody at the table is told.
    await sync_to_async(apply_action)(
        table.match_id, seat, state["legal_actions"][0], state["version"]
    )
    for socket in sockets.values():
        caught_up = await receive(socket, "state")
        assert caught_up["version"] == state["version"] + 1
    for socket in sockets.values():
        await socket.disconnect()


@in_own_event_loop
async def test_a_state_on_its_way_at_the_heartbeat_is_not_read_again(school_class, monkeypatch):
    """Under load the write path's states arrive a second or more after the commit: a
    beat in between found every socket of the table behind and had each read the table
    again, adding work to a server that was already late."""
    monkeypatch.setattr(heartbeat, "HEARTBEAT_SECONDS", 0.3)
    monkeypatch.setattr(heartbeat, "IN_FLIGHT_SECONDS", 1.0)
    reads = []
    real_read = consumers.TableConsumer.build_state

    def counted_read(self, since=None):
        reads.append(self.seat)
        return real_read(self, since)

    monkeypatch.setattr(consumers.TableConsumer, "build_state", counted_read)
    real_send = write.send_groups

    def late_send(messages, loop=None):  # the states reach the table after a beat
        time.sleep(0.7)
        real_send(messages, loop=loop)

    monkeypatch.setattr(write, "send_groups", late_send)
    session, table, people = await sync_to_async(started_table)(school_class)
    sockets = {pk: play_socket(session, participant) for pk, participant in people.items()}
    states = {pk: (await connect(socket))[1] for pk, socket in sockets.items()}
    state = next(s for s in states.values() if s["legal_actions"])
    await sync_to_async(write.act)(
        table.match_id, state["seat"], state["legal_actions"][0], state["version"]
    )
    for socket in sockets.values():
        arrived = await receive(socket, "state")
        assert arrived["version"] == state["version"] + 1
    await asyncio.sleep(1.5)  # past the beats that found the sockets behind, and the check
    assert reads == []
    for socket in sockets.values():
        later = []
        while not await socket.receive_nothing(timeout=0.1):
            later.append(json.loads((await socket.receive_output())["text"])["type"])
        assert "state" not in later, later  # no second copy of the state either
        await socket.disconnect()


@in_own_event_loop
async def test_one_heartbeat_marks_every_seated_socket_of_the_process_seen(
    school_class, monkeypatch
):
    """Every seat of the process is marked seen by one trip to the database a beat, not
    two trips per socket; a socket that left is no longer marked."""
    monkeypatch.setattr(heartbeat, "HEARTBEAT_SECONDS", 0.3)
    beats = []
    real = heartbeat.stored_versions

    def counted(seat_pks, table_ids):
        beats.append(sorted(seat_pks))
        return real(seat_pks, table_ids)

    monkeypatch.setattr(heartbeat, "stored_versions", counted)
    session, table, people = await sync_to_async(started_table)(school_class)
    sockets = [play_socket(session, participant) for participant in people.values()]
    for socket in sockets:
        await connect(socket)
    long_ago = "2000-01-01T00:00:00Z"
    await sync_to_async(Seat.objects.filter(table=table).update)(last_seen_at=long_ago)
    # a beat may have come between the two connects (on a busy machine, with the seat
    # of the first socket only): the beats counted are those after both connected
    beats.clear()
    await asyncio.sleep(0.5)
    seats = await sync_to_async(lambda: {s.pk: s for s in Seat.objects.filter(table=table)})()
    assert len(seats) == 2
    assert beats and beats[0] == sorted(seats)  # both seats in one beat
    assert all(
        seat.last_seen_at is not None and seat.last_seen_at.year > 2000 for seat in seats.values()
    )
    await sockets[0].disconnect()
    beats.clear()
    await asyncio.sleep(0.7)
    assert beats and all(len(beat) == 1 for beat in beats)  # only the seat still held
    await sockets[1].disconnect()


class _ClosesThenSpeaks(PlatformConsumer):
    """Two paths noticing one failure: the first closes the socket, the second still has
    something to say."""

    async def connect(self):
        await self.accept()
        await self.close(code=CLOSE_TRY_AGAIN)
        await self.send(text_data=json.dumps({"type": "error", "code": "unavailable"}))


@in_own_event_loop
async def test_nothing_goes_out_after_the_socket_is_closed():
    """The ASGI server refuses a message after the close (uvicorn logs it as an error):
    the socket says nothing more once it has closed."""
    communicator = WebsocketCommunicator(_ClosesThenSpeaks.as_asgi(), "/ws/test/")
    connected_, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected_
    assert (await communicator.receive_output(TIMEOUT))["type"] == "websocket.close"
    assert await communicator.receive_nothing(timeout=0.5)
    await communicator.wait(TIMEOUT)


class _JoinsThree(PlatformConsumer):
    """A socket in three groups, as a seated student's is."""

    async def connect(self):
        for number in range(3):
            await self.join(f"test-leaving-{number}")
        await self.accept()


@in_own_event_loop
async def test_sockets_leaving_at_once_leave_their_groups_without_exhausting_the_pool(
    settings, caplog
):
    """A process's sockets all leaving at once must not take every channel-layer
    connection: each leave would fail with "Too many connections", and so would the
    moves' sends meanwhile. The process leaves a group's subscription with its last
    socket."""
    hosts = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]
    small = {**settings.CHANNEL_LAYERS["default"]}
    small["CONFIG"] = {**small["CONFIG"], "hosts": [{**hosts[0], "max_connections": 4}]}
    settings.CHANNEL_LAYERS = {"default": small}
    settings.CHANNEL_LAYER_MAX_CONNECTIONS = 4
    sockets = [WebsocketCommunicator(_JoinsThree.as_asgi(), "/ws/test/") for _ in range(12)]
    for socket in sockets:
        assert (await socket.connect(timeout=TIMEOUT))[0]
    layer = get_channel_layer()
    client = redis.Redis.from_url(hosts[0]["address"])
    groups = [layer._get_layer()._get_group_channel_name(f"test-leaving-{n}") for n in range(3)]
    # One subscription per group and process, however many of its sockets are in it.
    assert [count for _name, count in client.pubsub_numsub(*groups)] == [1, 1, 1]
    assert all(len(layer._get_layer().groups[group]) == 12 for group in groups)
    with caplog.at_level(logging.WARNING):
        await asyncio.gather(
            *(socket.disconnect() for socket in sockets),
            layer.group_send("test-leaving-0", {"type": "nothing"}),
        )
    assert not [record for record in caplog.records if "connections" in record.getMessage()]
    assert not any(group in layer._get_layer().groups for group in groups)
    deadline = time.monotonic() + TIMEOUT
    while any(count for _name, count in client.pubsub_numsub(*groups)):
        assert time.monotonic() < deadline, client.pubsub_numsub(*groups)
        await asyncio.sleep(0.05)


@in_own_event_loop
async def test_a_socket_answers_while_the_database_thread_is_busy(school_class):
    """A ping and a move's state need no database: neither waits behind a slow move (or a
    stalled database) in the process's one database thread."""
    session, table, people = await sync_to_async(started_table)(school_class)
    ana = next(p for p in people.values() if p.nickname == "Ana")
    socket = play_socket(session, ana)
    _hello, state = await connect(socket)
    busy = asyncio.create_task(database_sync_to_async(time.sleep)(3))
    await asyncio.sleep(0.1)  # the database thread is asleep now
    started = time.monotonic()
    await socket.send_to(text_data=json.dumps({"type": "ping"}))
    await receive(socket, "pong")
    newer = {**state, "version": state["version"] + 1}
    del newer["log"]
    await get_channel_layer().group_send(
        table_group(table.pk),
        {
            "type": "table.states",
            "version": newer["version"],
            "texts": {str(state["seat"]): messages.json_bytes(newer)},
            "logs": {"en": messages.json_bytes(["A move."])},
            "cards": False,
            "then": [],
        },
    )
    sent = await receive(socket, "state")
    waited = time.monotonic() - started
    assert not busy.done()
    assert sent["version"] == newer["version"] and sent["log"] == ["A move."]
    assert waited < 1.5, f"the socket waited {waited:.2f} s for the database thread"
    await busy
    await socket.disconnect()


@in_own_event_loop
async def test_a_message_sent_while_the_admission_fails_is_dropped_with_the_socket(
    school_class, monkeypatch, caplog
):
    """The database away while a socket is admitted: the client's next message, sent
    before it heard the socket close (a test in CI found it), reached a socket that had
    no student and raised; it is dropped, and the client comes back."""
    session, _table, people = await sync_to_async(started_table)(school_class)
    ana = next(p for p in people.values() if p.nickname == "Ana")
    fail_once(
        monkeypatch,
        consumers.PlayConsumer,
        "authenticate",
        OperationalError("connection timeout expired"),
    )
    socket = play_socket(session, ana)
    accepted, _ = await socket.connect(timeout=TIMEOUT)  # and its seat token
    assert accepted
    await socket.send_to(text_data=json.dumps({"type": "resync"}))
    error = await receive(socket, "error")
    assert error["code"] == "unavailable"
    closed = await socket.receive_output(timeout=TIMEOUT)
    assert closed == {"type": "websocket.close", "code": CLOSE_TRY_AGAIN}
    assert await socket.receive_nothing(timeout=0.5)  # the resync got no answer
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    await socket.disconnect()
    again = play_socket(session, ana)
    await connect(again)  # the database is back: the next attempt plays on
    await again.disconnect()
