"""The join screen for the projector: the page is its teacher's only and speaks the
session's language; its socket pushes the nicknames as students join, then every table
once the game starts, on the real Redis channel layer."""

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from classroom import actions
from classroom.broadcast import dashboard_group
from classroom.models import ClassSession, Table
from config.asgi import application
from live.session_sockets import CLOSE_ENDED, CLOSE_REFUSED
from live.views import code_groups
from tests.classroom.channels_testing import in_own_event_loop
from tests.live.conftest import open_session, seat_students
from tests.live.helpers import ORIGIN, TIMEOUT, cookie_header

pytestmark = pytest.mark.django_db(transaction=True)


def screen_socket(session: ClassSession, client: Client | None) -> WebsocketCommunicator:
    headers = [ORIGIN]
    if client is not None:
        headers.append((b"cookie", cookie_header(client)))
    path = f"/ws/teacher/sessions/{session.pk}/screen/"
    return WebsocketCommunicator(application, path, headers)


def test_code_groups_read_aloud_in_threes():
    assert code_groups("FADH7J") == ["FAD", "H7J"]


def test_the_join_screen_is_the_teachers_in_the_sessions_language(
    school_class, teacher_client, django_user_model
):
    session = open_session(school_class, language="fr")
    seat_students(session, "Ana")
    url = reverse("live:join_screen", args=[session.pk])
    page = teacher_client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert '<html lang="fr"' in html
    assert f'data-code="{session.join_code}"' in html
    assert f"/join/{session.join_code}/" in html  # the join address, as text
    assert 'viewBox="' in html  # a QR code that scales to the screen
    assert page.context["ws_path"] == f"/ws/teacher/sessions/{session.pk}/screen/"
    assert [p.nickname for p in page.context["participants"]] == ["Ana"]
    # linked from the session page and the live dashboard
    for page_name in ("classroom:session_detail", "live:session_live"):
        linking = teacher_client.get(reverse(page_name, args=[session.pk])).content.decode()
        assert f'href="{url}"' in linking, page_name
    other = Client()
    other.force_login(django_user_model.objects.create_user("other", password="x-Long-pass-99"))
    assert other.get(url).status_code == 404
    assert Client().get(url).status_code == 302


@in_own_event_loop
async def test_the_screen_socket_shows_joins_then_the_tables(school_class, teacher_client):
    session = await sync_to_async(open_session)(school_class, table_size=2)
    screen = screen_socket(session, teacher_client)
    assert (await screen.connect(timeout=TIMEOUT))[0]
    first = await screen.receive_from(timeout=TIMEOUT)
    assert 'id="screen-live"' in first and "0 students have joined" in first

    await sync_to_async(seat_students)(session, "Ana")
    joined = await screen.receive_from(timeout=TIMEOUT)
    assert "1 student has joined" in joined and "Ana" in joined
    assert "Remove" not in joined  # no control on the class's screen

    await sync_to_async(seat_students)(session, "Ben")
    await sync_to_async(actions.do_start_session)(session)
    table = await sync_to_async(Table.objects.get)(session=session)
    # renders close together are coalesced: read until the tables are there
    for _ in range(5):
        html = await screen.receive_from(timeout=TIMEOUT)
        if "screen-live--tables" in html:
            break
    assert "screen-live--tables" in html, html
    assert reverse("live:projector", args=[table.pk]) in html
    assert "Ana" in html and "Ben" in html
    await screen.disconnect()


@in_own_event_loop
async def test_the_screen_socket_refuses_anyone_but_the_teacher(school_class):
    session = await sync_to_async(open_session)(school_class)
    stranger = screen_socket(session, None)
    connected, code = await stranger.connect(timeout=TIMEOUT)
    assert not connected and code == CLOSE_REFUSED


@pytest.mark.parametrize("kind", ["live", "screen"])
@in_own_event_loop
async def test_the_teachers_sockets_end_when_the_session_is_deleted_meanwhile(
    school_class, teacher_client, kind
):
    """The teacher's "delete now" or the retention purge while the dashboard or the join
    screen is open ends the socket, instead of raising in the server."""
    session = await sync_to_async(open_session)(school_class)
    headers = [ORIGIN, (b"cookie", cookie_header(teacher_client))]
    path = f"/ws/teacher/sessions/{session.pk}/{kind}/"
    teacher = WebsocketCommunicator(application, path, headers)
    assert (await teacher.connect(timeout=TIMEOUT))[0]
    await teacher.receive_from(timeout=TIMEOUT)
    session_id = session.pk
    await sync_to_async(session.delete)()
    await get_channel_layer().group_send(dashboard_group(session_id), {"type": "dashboard.changed"})
    assert await teacher.receive_output(timeout=TIMEOUT) == {
        "type": "websocket.close",
        "code": CLOSE_ENDED,
    }
