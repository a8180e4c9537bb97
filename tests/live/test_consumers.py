"""The table protocol's sockets on the real Redis channel layer (docs/protocol.md)."""

import json
from collections.abc import Iterable

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from classroom import actions
from classroom.identity import seat_token
from classroom.models import Seat, SeatMove, Table
from games.engine import IllegalAction
from games.matches import load_state
from games.models import Match
from live.consumers import CLOSE_FORBIDDEN, CLOSE_REMOVED, message_in
from tests.classroom.channels_testing import in_own_event_loop
from tests.classroom.conftest import join_client
from tests.live.conftest import open_session, seat_students
from tests.live.helpers import (
    ORIGIN,
    SKIPPED,
    TIMEOUT,
    SeatCommunicator,
    connect,
    dashboard_socket,
    play_socket,
    receive,
    watch_socket,
)

pytestmark = pytest.mark.django_db(transaction=True)


def started_table(school_class, language="en"):
    """Open a two-seat session with Ana and Ben, start it; return session, table, participants."""
    session = open_session(school_class, table_size=2, language=language)
    ana, ben = seat_students(session, "Ana", "Ben")
    actions.do_start_session(session)
    table = Table.objects.get(session=session)
    return session, table, {p.pk: p for p in (ana, ben)}


def in_french(template: str, params: dict | None = None) -> str:
    return message_in("fr", template, params)


def engine_refusal(match_id: int, seat: int, action: dict) -> IllegalAction:
    """Return the engine's refusal of ``action`` at the match's current state."""
    try:
        load_state(Match.objects.get(pk=match_id)).apply(seat, action)
    except IllegalAction as refusal:
        return refusal
    raise AssertionError(f"the engine accepted {action}")


def quoted(card_ids: Iterable[str]) -> set[str]:
    return {f'"{card}"' for card in card_ids}


@in_own_event_loop
async def test_an_action_reaches_every_socket_and_no_seat_sees_anothers_cards(
    school_class, teacher_client
):
    session, table, _people = await sync_to_async(started_table)(school_class)
    seats = await sync_to_async(lambda: {s.number: s.participant for s in table.seats.all()})()
    sockets = {n: play_socket(session, p) for n, p in seats.items()}
    first = {}
    for number, communicator in sockets.items():
        hello, state = await connect(communicator)
        assert hello["seat"] == number and hello["game"] == "data_tycoon"
        assert len(hello["catalogue"]) > 50 and [p["name"] for p in hello["players"]] == [
            seats[0].nickname,
            seats[1].nickname,
        ]
        assert state["version"] == 0 and state["seat"] == number
        first[number] = state
    spectator = watch_socket(table, teacher_client)
    hello, public = await connect(spectator)
    assert hello["seat"] is None and public["seat"] is None and public["legal_actions"] == []
    dashboard = dashboard_socket(session, teacher_client)
    connected, _ = await dashboard.connect(timeout=TIMEOUT)
    assert connected
    assert 'id="live-tables"' in await dashboard.receive_from(timeout=TIMEOUT)

    mover = next(n for n, s in first.items() if s["legal_actions"])
    other = 1 - mover
    action = first[mover]["legal_actions"][0]
    await sockets[mover].send_to(
        text_data=json.dumps({"type": "act", "version": 0, "action": action})
    )

    got = {n: await receive(c, "state") for n, c in sockets.items()}
    got["public"] = await receive(spectator, "state")
    assert {m["version"] for m in got.values()} == {1}
    assert got[mover]["seat"] == mover and got[other]["seat"] == other
    assert got["public"]["view"]["seat"] is None
    assert any(line for line in got[other]["log"])  # the move in plain language
    html = ""
    while "move 1" not in html:
        html = await dashboard.receive_from(timeout=TIMEOUT)
    assert "Ana" in html and "Ben" in html

    match_state = await sync_to_async(lambda: load_state(Match.objects.get(pk=table.match_id)))()
    secret = quoted(match_state.private_cards(mover))
    assert secret and any(card in json.dumps(got[mover]) for card in secret)
    for seen in (json.dumps(got[other]), json.dumps(got["public"]), json.dumps(first[other])):
        assert not any(card in seen for card in secret)
    others = quoted(match_state.private_cards(other))
    assert not any(card in json.dumps(got[mover]) for card in others)

    for communicator in (*sockets.values(), spectator, dashboard):
        await communicator.disconnect()


@in_own_event_loop
async def test_stale_and_illegal_actions_get_an_error_and_change_nothing(school_class):
    session, table, _people = await sync_to_async(started_table)(school_class, language="fr")
    seats = await sync_to_async(lambda: {s.number: s.participant for s in table.seats.all()})()
    sockets = {n: play_socket(session, p) for n, p in seats.items()}
    states = {n: (await connect(c))[1] for n, c in sockets.items()}
    mover = next(n for n, s in states.items() if s["legal_actions"])
    idle = 1 - mover
    action = states[mover]["legal_actions"][0]
    await sockets[mover].send_to(
        text_data=json.dumps({"type": "act", "version": 0, "action": action})
    )
    for communicator in sockets.values():
        assert (await receive(communicator, "state"))["version"] == 1
    before = await sync_to_async(lambda: Match.objects.get(pk=table.match_id).snapshot)()

    # a stale version: an error, then the current state
    await sockets[mover].send_to(
        text_data=json.dumps({"type": "act", "version": 0, "action": action})
    )
    error = await receive(sockets[mover], "error")
    assert error["code"] == "stale_version" and error["version"] == 1
    english = "Something changed at the table before your move: here is the new state."
    assert error["message"] == in_french(english) != english  # the seat's language
    fresh = await receive(sockets[mover], "state")
    assert fresh["version"] == 1

    # an illegal action (the idle seat plays out of turn): an error in French
    out_of_turn = {"type": "keep", "card": "dt-001"}
    await sockets[idle].send_to(
        text_data=json.dumps({"type": "act", "version": 1, "action": out_of_turn})
    )
    error = await receive(sockets[idle], "error")
    assert error["code"] in {"not_your_turn", "card_not_held", "illegal_action"}
    refusal = await sync_to_async(engine_refusal)(table.match_id, idle, out_of_turn)
    assert error["code"] == refusal.code and error["version"] == 1
    assert error["message"] == in_french(refusal.message, refusal.params)
    assert error["message"] != refusal.message % (refusal.params or {})

    # not JSON, and an unknown type
    await sockets[idle].send_to(text_data="{nope")
    bad = await receive(sockets[idle], "error")
    assert bad["code"] == "bad_message" and bad["version"] == 1  # the last one it was sent
    await sockets[idle].send_to(text_data=json.dumps({"type": "dance"}))
    assert (await receive(sockets[idle], "error"))["code"] == "bad_message"

    match = await sync_to_async(Match.objects.get)(pk=table.match_id)
    assert match.version == 1 and match.snapshot == before
    assert await sync_to_async(match.actions.count)() == 1
    for communicator in sockets.values():
        await communicator.disconnect()


@in_own_event_loop
async def test_resync_ping_and_a_spectator_cannot_act(school_class, teacher_client):
    session, table, people = await sync_to_async(started_table)(school_class)
    participant = next(iter(people.values()))
    student = play_socket(session, participant)
    hello, state = await connect(student)
    await student.send_to(text_data=json.dumps({"type": "resync"}))
    again = await receive(student, "hello")
    assert again["seat"] == hello["seat"] and again["table"] == table.pk
    full = await receive(student, "state")
    assert full["view"] == state["view"] and full["version"] == state["version"]
    await student.send_to(text_data=json.dumps({"type": "ping"}))
    pong = await receive(student, "pong")
    assert pong["server_time"].endswith("Z")

    spectator = watch_socket(table, teacher_client)
    await connect(spectator)
    legal = state["legal_actions"] or [{"type": "keep"}]
    await spectator.send_to(text_data=json.dumps({"type": "act", "version": 0, "action": legal[0]}))
    assert (await receive(spectator, "error"))["code"] == "not_seated"
    for communicator in (student, spectator):
        await communicator.disconnect()


@in_own_event_loop
async def test_a_paused_table_refuses_actions_until_resumed(school_class):
    session, table, _people = await sync_to_async(started_table)(school_class)
    seats = await sync_to_async(lambda: {s.number: s.participant for s in table.seats.all()})()
    sockets = {n: play_socket(session, p) for n, p in seats.items()}
    states = {n: (await connect(c))[1] for n, c in sockets.items()}
    mover = next(n for n, s in states.items() if s["legal_actions"])
    action = states[mover]["legal_actions"][0]

    await sync_to_async(actions.do_set_table_paused)(table, True)
    assert (await receive(sockets[mover], "paused"))["type"] == "paused"
    paused_state = await receive(sockets[mover], "state")
    assert paused_state["paused"] is True and paused_state["legal_actions"] == []
    await sockets[mover].send_to(
        text_data=json.dumps({"type": "act", "version": 0, "action": action})
    )
    refused = await receive(sockets[mover], "error")
    assert refused["code"] == "paused" and refused["version"] == 0 and refused["message"]
    assert (await sync_to_async(Match.objects.get)(pk=table.match_id)).version == 0

    await sync_to_async(actions.do_set_table_paused)(table, False)
    assert (await receive(sockets[mover], "resumed"))["type"] == "resumed"
    resumed = await receive(sockets[mover], "state")
    assert resumed["paused"] is False and resumed["legal_actions"]
    await sockets[mover].send_to(
        text_data=json.dumps({"type": "act", "version": 0, "action": action})
    )
    assert (await receive(sockets[mover], "state"))["version"] == 1
    for communicator in sockets.values():
        await communicator.disconnect()


@in_own_event_loop
async def test_refused_sockets_and_a_removed_student(school_class):
    session, _table, people = await sync_to_async(started_table)(school_class)
    forged = play_socket(session, token="not-a-token")
    assert (await forged.connect(timeout=TIMEOUT))[0]
    refusal = await receive(forged)
    assert refusal == {
        "type": "error",
        "code": "forbidden",
        "message": "You may not connect to this table.",
        "version": None,
    }
    assert (await forged.receive_output(timeout=TIMEOUT))["code"] == CLOSE_FORBIDDEN

    participant = next(iter(people.values()))
    # An unknown code is refused as a forged token is: nobody learns which codes exist.
    unknown = SeatCommunicator("/ws/play/ZZZZZZ/", [ORIGIN], seat_token(participant))
    await unknown.connect(timeout=TIMEOUT)
    assert await receive(unknown) == refusal
    assert (await unknown.receive_output(timeout=TIMEOUT))["code"] == CLOSE_FORBIDDEN

    student = play_socket(session, participant)
    await connect(student)
    await sync_to_async(actions.do_kick_participant)(participant)
    # the seat goes to a bot first (a state without controls), then the socket closes
    removed = await receive(student, "removed", skip=(*SKIPPED, "state"))
    assert removed["message"]
    assert (await student.receive_output(timeout=TIMEOUT))["code"] == CLOSE_REMOVED
    seat = await sync_to_async(Seat.objects.get)(participant=participant)
    assert seat.bot_takeover  # the table plays on with a bot


@in_own_event_loop
async def test_a_student_waits_in_the_lobby_then_gets_the_table(school_class):
    session = await sync_to_async(open_session)(school_class, table_size=2)
    ana, _ben = await sync_to_async(seat_students)(session, "Ana", "Ben")
    student = play_socket(session, ana)
    assert (await student.connect(timeout=TIMEOUT))[0]
    waiting = await receive(student)
    assert waiting == {"type": "waiting", "session_state": "lobby", "version": None}
    await sync_to_async(actions.do_start_session)(session)
    hello = await receive(student, "hello", skip=("presence", "waiting"))
    assert hello["players"][0]["name"] in {"Ana", "Ben"}
    state = await receive(student, "state")
    assert state["version"] == 0
    await sync_to_async(actions.do_end_session)(session)
    assert (await receive(student, "ended"))["message"]
    await student.disconnect()


async def presence_until(communicator, condition):
    """Return the players of the first presence message that meets the condition."""
    for _ in range(10):
        message = await receive(communicator, "presence", skip=("state", "hello"))
        if message["type"] == "presence" and condition(message["players"]):
            return message["players"]
    raise AssertionError("no such presence message")


@in_own_event_loop
async def test_presence_follows_sockets_and_a_reload_gets_the_same_seat(school_class):
    session, table, _people = await sync_to_async(started_table)(school_class)
    seats = await sync_to_async(lambda: {s.number: s.participant for s in table.seats.all()})()
    first = play_socket(session, seats[0])
    hello, _state = await connect(first)
    assert [p["connected"] for p in hello["players"]] == [True, False]
    second = play_socket(session, seats[1])
    await connect(second)
    presence = await presence_until(first, lambda players: players[1]["connected"])
    assert [p["connected"] for p in presence] == [True, True]
    assert [p["bot"] for p in presence] == [None, None]
    await second.disconnect()
    presence = await presence_until(first, lambda players: not players[1]["connected"])
    assert [p["connected"] for p in presence] == [True, False]

    # a reload (a new socket for the same student) gets the same seat and version
    again = play_socket(session, seats[1])
    hello, state = await connect(again)
    assert hello["seat"] == 1 and state["seat"] == 1 and state["version"] == 0
    seat = await sync_to_async(Seat.objects.get)(table=table, number=1)
    await sync_to_async(actions.do_hand_seat_to_bot)(seat, True)
    presence = await presence_until(first, lambda players: players[1]["bot"])
    assert presence[1]["bot"] == "heuristic" and presence[1]["connected"]
    for communicator in (first, again):
        await communicator.disconnect()


@in_own_event_loop
async def test_presence_names_a_removed_student_in_the_sockets_language(school_class):
    """The players of a presence message are read once for the table, in every language,
    and each socket shows them in its own."""
    session, table, _people = await sync_to_async(started_table)(school_class, "fr")
    seats = await sync_to_async(lambda: {s.number: s.participant for s in table.seats.all()})()
    ana = play_socket(session, seats[0])
    await connect(ana)
    await sync_to_async(actions.do_kick_participant)(seats[1])
    presence = await presence_until(ana, lambda players: players[1]["bot"])
    assert presence[1]["name"] == "Élève retiré"
    assert presence[0]["name"] == seats[0].nickname
    await ana.disconnect()
    again = play_socket(session, seats[0])
    hello, _state = await connect(again)  # and so does the hello of the next socket
    assert [p["name"] for p in hello["players"]] == [seats[0].nickname, "Élève retiré"]
    await again.disconnect()


@in_own_event_loop
async def test_an_approved_move_closes_the_old_devices_socket(school_class):
    session = await sync_to_async(open_session)(school_class, table_size=2)
    old_device = await sync_to_async(join_client)(session, "Ana")
    await sync_to_async(join_client)(session, "Ben")
    await sync_to_async(actions.do_start_session)(session)
    old = play_socket(session, client=old_device)
    hello, _state = await connect(old)

    new_device = Client()
    await sync_to_async(new_device.post)("/join/", {"code": session.join_code, "nickname": "Ana"})
    move = await sync_to_async(SeatMove.objects.get)()
    await sync_to_async(actions.do_answer_seat_move)(move, True)
    removed = await receive(old, "removed")
    assert "another device" in removed["message"]
    assert (await old.receive_output(timeout=TIMEOUT))["code"] == CLOSE_REMOVED

    await sync_to_async(new_device.get)(f"/join/move/{move.pk}/")  # sets the seat cookie
    new = play_socket(session, client=new_device)
    again, _state = await connect(new)
    assert again["seat"] == hello["seat"]
    refused = play_socket(session, client=old_device)
    await refused.connect(timeout=TIMEOUT)
    assert (await receive(refused))["code"] == "forbidden"
    await new.disconnect()


@in_own_event_loop
async def test_another_teacher_gets_neither_the_projector_nor_the_dashboard(
    school_class, django_user_model
):
    session, table, _people = await sync_to_async(started_table)(school_class)
    other = Client()
    user = await sync_to_async(django_user_model.objects.create_user)(
        "other-teacher", password="x-Long-pass-99"
    )
    await sync_to_async(other.force_login)(user)
    spectator = watch_socket(table, other)
    await spectator.connect(timeout=TIMEOUT)
    assert (await receive(spectator))["code"] == "forbidden"
    assert (await spectator.receive_output(timeout=TIMEOUT))["code"] == CLOSE_FORBIDDEN
    dashboard = dashboard_socket(session, other)
    connected, code = await dashboard.connect(timeout=TIMEOUT)
    assert not connected and code == 4403


@in_own_event_loop
async def test_a_seat_handed_to_a_bot_gets_no_controls_and_may_not_act(school_class, settings):
    """While a bot plays a student's seat the student's socket may not race it."""
    settings.BOT_DELAY_SECONDS = 60  # the bot would move long after this test
    session, table, _people = await sync_to_async(started_table)(school_class)
    seats = await sync_to_async(lambda: {s.number: s.participant for s in table.seats.all()})()
    sockets = {n: play_socket(session, p) for n, p in seats.items()}
    states = {n: (await connect(c))[1] for n, c in sockets.items()}
    mover = next(n for n, s in states.items() if s["legal_actions"])
    action = states[mover]["legal_actions"][0]
    seat = await sync_to_async(Seat.objects.get)(table=table, number=mover)

    await sync_to_async(actions.do_hand_seat_to_bot)(seat, True)
    handed = await receive(sockets[mover], "state")
    assert handed["version"] == 0 and handed["legal_actions"] == []
    await sockets[mover].send_to(
        text_data=json.dumps({"type": "act", "version": 0, "action": action})
    )
    error = await receive(sockets[mover], "error")
    assert error["code"] == "bot_playing" and error["version"] == 0
    assert error["message"] == "A bot plays this seat now."
    assert (await sync_to_async(Match.objects.get)(pk=table.match_id)).version == 0

    await sync_to_async(actions.do_hand_seat_to_bot)(seat, False)
    back = await receive(sockets[mover], "state")
    assert back["legal_actions"] == states[mover]["legal_actions"]
    await sockets[mover].send_to(
        text_data=json.dumps({"type": "act", "version": 0, "action": action})
    )
    assert (await receive(sockets[mover], "state"))["version"] == 1
    for communicator in sockets.values():
        await communicator.disconnect()


@in_own_event_loop
async def test_a_version_or_moment_sent_as_true_or_false_is_no_integer(school_class):
    """``"version": false`` passed for version 0 (Python counts false as 0): a legal
    action sent with it was played. JSON's booleans are not integers."""
    session, table, _people = await sync_to_async(started_table)(school_class)
    seats = await sync_to_async(lambda: {s.number: s.participant for s in table.seats.all()})()
    sockets = {n: play_socket(session, p) for n, p in seats.items()}
    states = {n: (await connect(c))[1] for n, c in sockets.items()}
    mover = next(n for n, s in states.items() if s["legal_actions"])
    action = states[mover]["legal_actions"][0]
    for message in (
        {"type": "act", "version": False, "action": action},
        {"type": "act", "version": True, "action": action},
        {"type": "dismiss", "moment": True},
    ):
        await sockets[mover].send_to(text_data=json.dumps(message))
        error = await receive(sockets[mover], "error")
        assert error["code"] == "bad_message", message
        assert error["version"] == 0
    match = await sync_to_async(Match.objects.get)(pk=table.match_id)
    assert match.version == 0
    assert await sync_to_async(match.actions.count)() == 0
    for communicator in sockets.values():
        await communicator.disconnect()
