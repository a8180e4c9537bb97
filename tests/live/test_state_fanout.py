"""After an accepted action the write path builds each seat's state once and sends them
to the table in one message, each socket sending on its seat's (live.write,
live.messages.action_states): no socket reads the match
again, a socket that missed a version reads the table itself, and each socket gets the
log in its own language."""

import json
import random
from collections.abc import Mapping

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings

from classroom.broadcast import dashboard_group, seat_group, table_group
from config.channel_layer import PlatformLoopLayer
from games.matches import apply_action, load_state
from games.models import Match
from live import messages, write
from tests.classroom.channels_testing import in_own_event_loop
from tests.live.helpers import TIMEOUT, connect, play_socket, receive, watch_socket
from tests.live.test_consumers import started_table
from tests.live.test_lessons_live import open_table, sanction_table

pytestmark = pytest.mark.django_db(transaction=True)


class Calls:
    """Count the calls of a function and call it."""

    def __init__(self, function):
        self.function = function
        self.count = 0

    def __call__(self, *args, **kwargs):
        self.count += 1
        return self.function(*args, **kwargs)


async def sockets_at(table, session, teacher_client):
    seats = await sync_to_async(lambda: {s.number: s.participant for s in table.seats.all()})()
    sockets = {n: play_socket(session, p) for n, p in seats.items()}
    first = {n: (await connect(c))[1] for n, c in sockets.items()}
    sockets[None] = watch_socket(table, teacher_client)
    first[None] = (await connect(sockets[None]))[1]
    return sockets, first


async def first_move(
    sockets: Mapping[int | None, WebsocketCommunicator], first: Mapping[int | None, dict]
) -> tuple[int, dict]:
    """Play the first legal action of the seat that may move; return that seat and the
    state each socket then got."""
    mover = next(n for n, s in first.items() if s["legal_actions"])
    assert mover is not None  # the projector has no legal action
    await sockets[mover].send_to(
        text_data=json.dumps(
            {"type": "act", "version": 0, "action": first[mover]["legal_actions"][0]}
        )
    )
    return mover, {n: await receive(c, "state") for n, c in sockets.items()}


@in_own_event_loop
async def test_after_an_action_no_socket_reads_the_match_again(
    school_class, teacher_client, monkeypatch
):
    session, table, _people = await sync_to_async(started_table)(school_class)
    sockets, first = await sockets_at(table, session, teacher_client)
    reads = Calls(messages.load_table)
    parses = Calls(messages.load_state)
    monkeypatch.setattr(messages, "load_table", reads)
    monkeypatch.setattr(messages, "load_state", parses)

    mover, got = await first_move(sockets, first)
    assert {m["version"] for m in got.values()} == {1}
    assert {n: m["seat"] for n, m in got.items()} == {n: n for n in sockets}
    assert all(m["log"] for m in got.values())
    assert got[mover]["legal_actions"] != [] or got[1 - mover]["legal_actions"] != []
    # Three sockets, one write: the table was read once by the write path, the engine
    # state was not parsed at all (the applied one was used).
    assert (reads.count, parses.count) == (0, 0)

    # A resync still reads the table: the spies see the read they count.
    await sockets[mover].send_to(text_data=json.dumps({"type": "resync"}))
    assert (await receive(sockets[mover], "state"))["version"] == 1
    assert reads.count >= 1
    for communicator in sockets.values():
        await communicator.disconnect()


def play_unannounced(match_id: int, count: int, seed: int = 3) -> None:
    """Store actions without the write path (so without telling any socket)."""
    rng = random.Random(seed)
    for _ in range(count):
        match = Match.objects.get(pk=match_id)
        state = load_state(match)
        movers = state.to_move()
        seat = movers[0] if movers else None
        apply_action(match_id, seat, rng.choice(state.legal_actions(seat)), match.version)


@in_own_event_loop
async def test_a_socket_that_missed_a_version_reads_the_table_and_the_whole_log(
    school_class, teacher_client
):
    session, table, _people = await sync_to_async(started_table)(school_class)
    sockets, _first = await sockets_at(table, session, teacher_client)
    await sync_to_async(play_unannounced)(table.match_id, 2)

    def act_and_expect():
        match = Match.objects.get(pk=table.match_id)
        state = load_state(match)
        movers = state.to_move()
        seat = movers[0] if movers else None
        write.act(match.pk, seat, state.legal_actions(seat)[0], match.version)
        snap = messages.load_table(table.pk)
        return (
            snap.match.version,
            messages.log_lines(snap, "en", since=0),
            messages.log_lines(snap, "en"),
        )

    version, whole_log, last_log = await sync_to_async(act_and_expect)()
    assert version == 3 and len(whole_log) > len(last_log) > 0
    for communicator in sockets.values():
        state = await receive(communicator, "state")
        # The pushed state of version 3 came after version 0: a gap, so the socket read
        # the table, and its log covers the two actions nobody announced.
        assert state["version"] == 3 and state["log"] == whole_log
    for communicator in sockets.values():
        await communicator.disconnect()


@in_own_event_loop
async def test_one_built_state_reaches_each_socket_in_its_own_language(
    school_class, teacher_client
):
    session, table, _people = await sync_to_async(started_table)(school_class, language="fr")
    teacher_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    sockets, first = await sockets_at(table, session, teacher_client)
    _mover, got = await first_move(sockets, first)

    def expected(language):
        return messages.log_lines(messages.load_table(table.pk), language)

    french, russian = await sync_to_async(expected)("fr"), await sync_to_async(expected)("ru")
    assert french and russian and french != russian
    assert got[0]["log"] == got[1]["log"] == french
    assert got[None]["log"] == russian  # the teacher's projector, in the teacher's language
    for communicator in sockets.values():
        await communicator.disconnect()


@in_own_event_loop
async def test_a_move_is_one_group_message_to_the_table_and_one_to_the_dashboard(
    school_class, teacher_client, monkeypatch
):
    """Every seat's state goes in one message to the table's group: the channel layer
    writes it once per server process with sockets there. One message per seat's group
    cost a group send each (three Redis commands) and a delivery to each process."""
    session, table, _people = await sync_to_async(started_table)(school_class)
    sockets, first = await sockets_at(table, session, teacher_client)
    sent = []
    real_group_send = PlatformLoopLayer.group_send

    async def group_send(layer, group, message):
        # The sockets' connections may still be reaching the dashboard (their presence,
        # sent from the database thread): only what the move sent is counted.
        if message["type"] != "table.presence" and message.get("reason") != "presence":
            sent.append((group, message["type"]))
        return await real_group_send(layer, group, message)

    monkeypatch.setattr(PlatformLoopLayer, "group_send", group_send)
    _mover, got = await first_move(sockets, first)
    # Each socket still sent on its own seat's view only (the projector: the public one).
    assert {n: m["seat"] for n, m in got.items()} == {n: n for n in sockets}
    assert len(sockets) == 3
    assert sorted(sent) == [
        (dashboard_group(session.pk), "dashboard.changed"),
        (table_group(table.pk), "table.states"),
    ]
    for communicator in sockets.values():
        await communicator.disconnect()


@in_own_event_loop
async def test_a_lesson_card_rides_in_the_states_message_and_follows_the_state(
    school_class, teacher_client, monkeypatch
):
    """A move that opens a lesson (a Sanction) costs no third group send: the card goes
    in the table's ``table.states`` message, and every socket shown it sends it after
    the state of the move it is about."""
    session, table, card, people = await sync_to_async(sanction_table)(school_class, "show")
    sockets, _states, projector = await open_table(session, table, people, teacher_client)
    sent = []
    real_group_send = PlatformLoopLayer.group_send

    async def group_send(layer, group, message):
        if message["type"] != "table.presence" and message.get("reason") != "presence":
            sent.append((group, message["type"], len(message.get("then", ()))))
        return await real_group_send(layer, group, message)

    monkeypatch.setattr(PlatformLoopLayer, "group_send", group_send)
    attack = {"type": "attack", "card": card, "target": 1}
    await sockets[0].send_to(text_data=json.dumps({"type": "act", "version": 0, "action": attack}))
    for communicator in (sockets[0], sockets[1], projector):
        kinds = []
        while "lesson" not in kinds:
            message = json.loads(await communicator.receive_from(timeout=TIMEOUT))
            kinds.append(message["type"])
        assert kinds.index("state") < kinds.index("lesson")
        assert message["lesson"]["slug"] == "sanctions" and message["seats"] == [0, 1]
    assert sorted(sent) == [
        (dashboard_group(session.pk), "dashboard.changed", 0),
        (table_group(table.pk), "table.states", 1),
    ]
    for communicator in (*sockets.values(), projector):
        await communicator.disconnect()


@in_own_event_loop
async def test_a_state_the_previous_release_sent_to_the_seat_s_group_still_arrives(
    school_class, teacher_client
):
    """A rolling upgrade: a server of the previous release sends each seat's state to
    that seat's group."""
    session, table, _people = await sync_to_async(started_table)(school_class)
    sockets, _first = await sockets_at(table, session, teacher_client)
    await sync_to_async(play_unannounced)(table.match_id, 1)

    def previous_release_states() -> list[tuple[str, dict]]:
        snap = messages.load_table(table.pk)
        logs = {code: messages.log_lines(snap, code) for code, _name in settings.LANGUAGES}
        return [
            (seat_group(table.pk, seat), {"type": "table.state", "state": state, "log": logs})
            for seat, state in ((s, messages.seat_state(snap, s)) for s in messages.audience(snap))
        ]

    layer = get_channel_layer()
    for group, event in await sync_to_async(previous_release_states)():
        await layer.group_send(group, event)
    for seat, communicator in sockets.items():
        state = await receive(communicator, "state")
        assert (state["version"], state["seat"]) == (1, seat) and state["log"]
    for communicator in sockets.values():
        await communicator.disconnect()


@in_own_event_loop
async def test_states_the_previous_release_sent_as_objects_in_one_message_still_arrive(
    school_class, teacher_client
):
    """A rolling upgrade: a server of the previous release sends the table one
    ``table.states`` with each seat's state as an object and the log in every language."""
    session, table, _people = await sync_to_async(started_table)(school_class)
    sockets, _first = await sockets_at(table, session, teacher_client)
    await sync_to_async(play_unannounced)(table.match_id, 1)

    def previous_release_states() -> dict:
        snap = messages.load_table(table.pk)
        logs = {code: messages.log_lines(snap, code) for code, _name in settings.LANGUAGES}
        states = {
            messages.audience_key(s): messages.seat_state(snap, s) for s in messages.audience(snap)
        }
        return {"type": "table.states", "states": states, "log": logs, "then": []}

    await get_channel_layer().group_send(
        table_group(table.pk), await sync_to_async(previous_release_states)()
    )
    for seat, communicator in sockets.items():
        state = await receive(communicator, "state")
        assert (state["version"], state["seat"]) == (1, seat) and state["log"]
    for communicator in sockets.values():
        await communicator.disconnect()
