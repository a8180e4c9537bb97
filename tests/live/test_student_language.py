"""The play socket speaks the student's language: their choice on the device (Django's
language cookie, set by the language switch), else the session's.

Two students of one French session: Ana chose Spanish, Ben kept the session's. The
``hello``, the log lines, the lesson cards, the lesson pause of a ``state`` and the
error messages each come in the socket's own language; the session stays French.
"""

import html
import json
from collections.abc import Mapping

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.http import HttpResponse
from django.utils import translation
from django.utils.translation import gettext

from classroom.identity import seat_token, set_student_cookie
from classroom.models import ClassSession, Participant
from config.asgi import application
from lessons.actions import lesson_card
from lessons.models import Lesson
from tests.classroom.channels_testing import in_own_event_loop
from tests.live.conftest import open_session, seat_students
from tests.live.helpers import ORIGIN, TIMEOUT, SeatCommunicator, connect
from tests.live.test_lessons_live import collect, next_of, sanction_table, send

pytestmark = pytest.mark.django_db(transaction=True)


def chosen_socket(
    session: ClassSession,
    participant: Participant | None = None,
    language: str | None = None,
    token: str | None = None,
) -> SeatCommunicator:
    """A play socket by seat token, from a device whose language cookie says ``language``."""
    headers = [ORIGIN]
    if language is not None:
        headers.append((b"cookie", f"{settings.LANGUAGE_COOKIE_NAME}={language}".encode()))
    if not token:
        assert participant is not None, "a seat socket needs a token or a participant"
        token = seat_token(participant)
    return SeatCommunicator(f"/ws/play/{session.join_code}/", headers, token)


def card_titles(session: ClassSession) -> dict[str, str]:
    lesson = Lesson.objects.get(slug="sanctions")
    return {code: lesson_card(lesson, session, code)["title"] for code in ("es", "fr")}


async def attack(sockets: Mapping[int, WebsocketCommunicator], card: str) -> None:
    action = {"type": "attack", "card": card, "target": 1}
    await send(sockets[0], {"type": "act", "version": 0, "action": action})


@in_own_event_loop
async def test_each_socket_speaks_its_student_language(school_class):
    session, _table, card, people = await sync_to_async(sanction_table)(school_class, "show", "fr")
    sockets = {0: chosen_socket(session, people[0], "es"), 1: chosen_socket(session, people[1])}
    hellos = {n: (await connect(c))[0] for n, c in sockets.items()}
    assert hellos[0]["language"] == "es" and hellos[1]["language"] == "fr"

    await attack(sockets, card)
    got = {n: await collect(c, "lesson", "state") for n, c in sockets.items()}
    titles = await sync_to_async(card_titles)(session)
    assert titles["es"] != titles["fr"]
    assert got[0]["lesson"]["lesson"]["title"] == titles["es"]
    assert got[1]["lesson"]["lesson"]["title"] == titles["fr"]
    assert "languages" not in got[0]["lesson"]["lesson"]
    logs = {n: got[n]["state"]["log"] for n in got}
    assert logs[0] and logs[1] and logs[0] != logs[1]
    assert "Ana" in logs[0][0] and "Ana" in logs[1][0]

    # an error message, too
    await send(sockets[0], {"type": "act", "version": 1})
    error = await next_of(sockets[0], "error")
    with translation.override("es"):
        assert error["message"] == gettext("An action needs a version and an action.")
    assert error["message"] != "An action needs a version and an action."

    session = await sync_to_async(ClassSession.objects.get)(pk=session.pk)
    assert session.language == "fr"  # the students' choices are theirs only
    for communicator in sockets.values():
        await communicator.disconnect()


@in_own_event_loop
async def test_a_lesson_pause_comes_in_each_socket_language(school_class):
    session, _table, card, people = await sync_to_async(sanction_table)(school_class, "pause", "fr")
    sockets = {0: chosen_socket(session, people[0], "es"), 1: chosen_socket(session, people[1])}
    for communicator in sockets.values():
        await connect(communicator)
    await attack(sockets, card)
    for communicator in sockets.values():
        await next_of(communicator, "lesson")
    # a socket that comes (back) during the pause reads it from the match's hold
    late = {0: chosen_socket(session, people[0], "es"), 1: chosen_socket(session, people[1])}
    states = {n: (await connect(c))[1] for n, c in late.items()}
    titles = await sync_to_async(card_titles)(session)
    for number, language in ((0, "es"), (1, "fr")):
        moments = states[number]["lesson_pause"]["moments"]
        assert moments, states[number]
        assert [m["lesson"]["title"] for m in moments] == [titles[language]]
        assert all("languages" not in m["lesson"] for m in moments)
    for communicator in (*sockets.values(), *late.values()):
        await communicator.disconnect()


@pytest.mark.parametrize("language", ["es", "ru"])
@in_own_event_loop
async def test_a_refused_socket_is_told_why_in_the_chosen_language(school_class, language):
    session, _table, _card, _people = await sync_to_async(sanction_table)(
        school_class, "show", "fr"
    )
    communicator = chosen_socket(session, language=language, token="not-a-seat-token")
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected  # accepted, told why, then closed
    error = json.loads(await communicator.receive_from(timeout=TIMEOUT))
    assert error["code"] == "forbidden"
    with translation.override(language):
        expected = gettext("You may not connect to this table.")
    assert error["message"] == expected != "You may not connect to this table."
    await communicator.disconnect()


def lobby_socket(
    session: ClassSession, participant: Participant, language: str | None
) -> WebsocketCommunicator:
    """The live lobby's socket of a student's device (the seat cookie, maybe a language)."""
    response = HttpResponse()
    set_student_cookie(response, participant)
    cookies = {name: morsel.value for name, morsel in response.cookies.items()}
    if language is not None:
        cookies[settings.LANGUAGE_COOKIE_NAME] = language
    header = "; ".join(f"{name}={value}" for name, value in cookies.items()).encode()
    path = f"/ws/session/{session.join_code}/"
    return WebsocketCommunicator(application, path, [ORIGIN, (b"cookie", header)])


@in_own_event_loop
async def test_the_live_lobby_speaks_its_student_language(school_class):
    session = await sync_to_async(open_session)(school_class, language="fr")
    ana, ben = await sync_to_async(seat_students)(session, "Ana", "Ben")
    waiting = "Waiting for the teacher to start the game…"
    with translation.override("es"):
        spanish = gettext(waiting)
    with translation.override("fr"):
        french = gettext(waiting)
    assert spanish != french
    for participant, language, expected in ((ana, "es", spanish), (ben, None, french)):
        communicator = lobby_socket(session, participant, language)
        connected, _ = await communicator.connect(timeout=TIMEOUT)
        assert connected
        fragment = await communicator.receive_from(timeout=TIMEOUT)
        assert html.escape(expected) in fragment or expected in fragment
        await communicator.disconnect()


@in_own_event_loop
async def test_an_unknown_language_cookie_falls_back_to_the_session_language(school_class):
    session, _table, _card, people = await sync_to_async(sanction_table)(school_class, "show", "ru")
    communicator = chosen_socket(session, people[0], "xx")
    hello, _state = await connect(communicator)
    assert hello["language"] == "ru"
    await communicator.disconnect()


@in_own_event_loop
async def test_the_projector_speaks_its_teacher_page_language(school_class, teacher_client):
    _session, table, _card, _people = await sync_to_async(sanction_table)(
        school_class, "show", "fr"
    )
    cookies = "; ".join(f"{n}={m.value}" for n, m in teacher_client.cookies.items()).encode()
    path = f"/ws/table/{table.pk}/watch/"
    cases: tuple[tuple[list[tuple[bytes, bytes]], str], ...] = (
        ([(b"accept-language", b"ru,en;q=0.5")], "ru"),  # the browser's, as the page
        ([(b"accept-language", b"ru")], "es"),  # the switch's cookie wins
        ([], "en"),
    )
    for extra, expected in cases:
        cookie = cookies + (
            f"; {settings.LANGUAGE_COOKIE_NAME}=es".encode() if expected == "es" else b""
        )
        communicator = WebsocketCommunicator(
            application, path, [ORIGIN, (b"cookie", cookie), *extra]
        )
        hello, _state = await connect(communicator)
        assert hello["language"] == expected
        await communicator.disconnect()
