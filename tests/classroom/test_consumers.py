"""The live lobby over the real Redis channel layer, through config.asgi.application."""

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.test import Client

from classroom import actions
from classroom.broadcast import session_group
from classroom.models import ClassSession
from config.asgi import application
from live import session_sockets
from live.session_sockets import CLOSE_ENDED, CLOSE_REFUSED, CLOSE_REMOVED
from tests.classroom.channels_testing import WebsocketCommunicator, in_own_event_loop
from tests.classroom.conftest import join_client, open_session

pytestmark = pytest.mark.django_db(transaction=True)
TIMEOUT = 10


def test_the_channel_layer_is_the_platforms_on_redis():
    assert type(get_channel_layer()).__name__ == "PlatformChannelLayer"


def cookie_header(client: Client) -> bytes:
    return "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items()).encode()


def socket(
    session: ClassSession, client: Client | None = None, origin: bytes = b"http://localhost"
) -> WebsocketCommunicator:
    headers = [(b"origin", origin)]
    if client is not None:
        headers.append((b"cookie", cookie_header(client)))
    return WebsocketCommunicator(application, f"/ws/session/{session.join_code}/", headers)


async def connect(communicator):
    connected, _subprotocol = await communicator.connect(timeout=TIMEOUT)
    assert connected
    return await communicator.receive_from(timeout=TIMEOUT)


@in_own_event_loop
async def test_teacher_sees_a_student_join_live(session, client_a):
    teacher = socket(session, client_a)
    first = await connect(teacher)
    assert 'id="roster"' in first and "Nobody has joined yet" in first
    await sync_to_async(join_client)(session, "Sam the Fox")
    update = await teacher.receive_from(timeout=TIMEOUT)
    assert 'id="roster"' in update
    assert "Sam the Fox" in update
    assert 'form="kick-form"' in update
    await teacher.disconnect()


@in_own_event_loop
async def test_students_see_each_other_join(session):
    first_student = await sync_to_async(join_client)(session, "Sam")
    student = socket(session, first_student)
    first = await connect(student)
    assert 'id="lobby-live"' in first and "Sam" in first
    await sync_to_async(join_client)(session, "Robin")
    update = await student.receive_from(timeout=TIMEOUT)
    assert "Robin" in update
    await student.disconnect()


@in_own_event_loop
async def test_kicked_student_is_told_and_disconnected(session):
    device = await sync_to_async(join_client)(session, "Sam")
    student = socket(session, device)
    await connect(student)
    participant = await sync_to_async(session.participants.get)()
    await sync_to_async(actions.do_kick_participant)(participant)
    notice = await student.receive_from(timeout=TIMEOUT)
    assert "You have been removed from this session" in notice
    closed = await student.receive_output(timeout=TIMEOUT)
    assert closed == {"type": "websocket.close", "code": CLOSE_REMOVED}
    # and the removed device cannot open the socket again
    again = socket(session, device)
    connected, code = await again.connect(timeout=TIMEOUT)
    assert not connected and code == CLOSE_REFUSED


@in_own_event_loop
async def test_a_student_whose_data_was_deleted_meanwhile_is_let_go(session):
    device = await sync_to_async(join_client)(session, "Sam")
    student = socket(session, device)
    await connect(student)
    await sync_to_async(lambda: session.participants.all().delete())()
    await sync_to_async(actions.do_set_lobby_lock)(session, True)  # any news of the lobby
    notice = await student.receive_from(timeout=TIMEOUT)
    assert "ended this session" in notice
    assert await student.receive_output(timeout=TIMEOUT) == {
        "type": "websocket.close",
        "code": CLOSE_ENDED,
    }


@in_own_event_loop
async def test_students_are_told_when_the_session_ends(session):
    device = await sync_to_async(join_client)(session, "Sam")
    student = socket(session, device)
    await connect(student)
    await sync_to_async(actions.do_end_session)(session)
    notice = await student.receive_from(timeout=TIMEOUT)
    assert "ended this session" in notice
    assert await student.receive_output(timeout=TIMEOUT) == {
        "type": "websocket.close",
        "code": CLOSE_ENDED,
    }


@in_own_event_loop
async def test_state_changes_reach_students_in_the_sessions_language(school_class):
    session = await sync_to_async(open_session)(school_class, language="fr")
    device = await sync_to_async(join_client)(session, "Sam")
    student = socket(session, device)
    await connect(student)
    await sync_to_async(actions.do_start_session)(session)
    update = await student.receive_from(timeout=TIMEOUT)
    assert "lobby-state--running" in update
    await student.disconnect()


@pytest.mark.parametrize("who", ["anonymous", "other_teacher", "forged_cookie", "bad_origin"])
@in_own_event_loop
async def test_strangers_are_refused(session, client_b, who):
    if who == "anonymous":
        communicator = socket(session)
    elif who == "other_teacher":
        communicator = socket(session, client_b)
    elif who == "forged_cookie":
        forged = Client()
        forged.cookies[settings.STUDENT_COOKIE_NAME] = "1"
        communicator = socket(session, forged)
    else:
        device = await sync_to_async(join_client)(session, "Sam")
        communicator = socket(session, device, origin=b"http://evil.example")
    connected, code = await refused(communicator)
    assert not connected
    if who != "bad_origin":
        assert code == CLOSE_REFUSED


async def refused(communicator: WebsocketCommunicator) -> tuple[bool, int | None]:
    """Connect; then end the socket as a server does after a refusal (a disconnect), so
    that the consumer ends rather than being cancelled with the test's event loop."""
    connected, code = await communicator.connect(timeout=TIMEOUT)
    await communicator.disconnect()
    return connected, code


@in_own_event_loop
async def test_a_student_of_another_session_is_refused(session, school_class):
    other = await sync_to_async(open_session)(school_class)
    device = await sync_to_async(join_client)(other, "Sam")
    connected, code = await refused(socket(session, device))
    assert not connected and code == CLOSE_REFUSED


@in_own_event_loop
async def test_lock_and_kick_update_the_teachers_roster(session, client_a):
    await sync_to_async(join_client)(session, "Sam")
    teacher = socket(session, client_a)
    assert "Sam" in await connect(teacher)
    await sync_to_async(actions.do_set_lobby_lock)(session, True)
    assert 'id="roster"' in await teacher.receive_from(timeout=TIMEOUT)
    participant = await sync_to_async(session.participants.get)()
    await sync_to_async(actions.do_kick_participant)(participant)
    update = await teacher.receive_from(timeout=TIMEOUT)
    assert "Sam" not in update and "Nobody has joined yet" in update
    await teacher.disconnect()


@in_own_event_loop
async def test_the_sockets_of_a_process_read_a_change_of_the_lobby_once(
    session, client_a, monkeypatch
):
    """A join read the whole lobby again for every socket of the class (a class of 30
    joining one by one: about 450 reads); now each change is read once in the process,
    and each socket still gets its own viewer's fragment."""
    names = ["Sam", "Robin", "Alex"]
    clients = [await sync_to_async(join_client)(session, name) for name in names]
    sockets = [socket(session, client) for client in clients] + [socket(session, client_a)]
    for communicator in sockets:
        await connect(communicator)
    reads, drawn = [], []
    original = ClassSession.active_participants
    original_render = session_sockets.render_to_string

    def counted(self):
        reads.append(self.pk)
        return original(self)

    def render(name, context):
        drawn.append(name)
        return original_render(name, context)

    monkeypatch.setattr(ClassSession, "active_participants", counted)
    monkeypatch.setattr(session_sockets, "render_to_string", render)
    await sync_to_async(join_client)(session, "Kim")
    updates = [await communicator.receive_from(timeout=TIMEOUT) for communicator in sockets]
    assert reads == [session.pk]
    # The students' lobby is drawn once for the three of them, the roster once.
    assert sorted(drawn) == [
        "classroom/fragments/student_lobby.html",
        "classroom/fragments/teacher_roster.html",
    ]
    participants = await sync_to_async(lambda: list(session.active_participants()))()
    for name, update in zip(names, updates[:3], strict=True):
        me = next(p for p in participants if p.nickname == name)
        assert "Kim" in update
        assert f'class="chip--me">{name} <span' in update and update.count("chip--me") == 1
        # The same as the template draws for that student alone (the lobby page's).
        context = {"session": session, "participants": participants, "participant": me}
        assert update == original_render("classroom/fragments/student_lobby.html", context)
    assert 'id="roster"' in updates[3] and "Kim" in updates[3] and "chip--me" not in updates[3]
    for communicator in sockets:
        await communicator.disconnect()


@in_own_event_loop
async def test_changes_heard_while_a_fragment_is_drawn_make_one_drawing_after_it(
    session, monkeypatch
):
    """A burst of changes costs a socket the drawing under way and one more, of the
    newest change: not one drawing each, queued one after another."""
    student = socket(session, await sync_to_async(join_client)(session, "Sam"))
    await connect(student)
    drawing, go_on = threading.Event(), threading.Event()
    changes = []
    original = session_sockets.render_for

    def held(viewer, change=None):
        changes.append(change)
        if len(changes) == 1:
            drawing.set()
            go_on.wait(TIMEOUT)
        return original(viewer, change)

    monkeypatch.setattr(session_sockets, "render_for", held)
    layer = get_channel_layer()
    group = session_group(session.pk)
    await layer.group_send(group, {"type": "lobby.changed", "reason": "test", "change": "a"})
    assert await asyncio.to_thread(drawing.wait, TIMEOUT)
    for change in "bcd":
        await layer.group_send(group, {"type": "lobby.changed", "reason": "test", "change": change})
    await asyncio.sleep(0.3)
    go_on.set()
    assert "Sam" in await student.receive_from(timeout=TIMEOUT)
    assert "Sam" in await student.receive_from(timeout=TIMEOUT)
    assert await student.receive_nothing(timeout=0.5)
    assert changes == ["a", "d"]
    await student.disconnect()
