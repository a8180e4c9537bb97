"""The authorization matrix, as one table: who gets what from every URL and every socket.

Five visitors: teacher A (owns the class, the session, its table and debrief), teacher B
(a class and session of her own), a student seated in A's session (its device's
cookies), another student seated in B's session, and an anonymous visitor. Each row
names a route and what each visitor gets: the HTTP status of a GET (and of a POST for a
route that takes only POST), or whether a socket is accepted. The routes come from the
URL resolver and the socket router: a new route without a row fails the test.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from pytest_django import Settings

from classroom import actions
from classroom.catalogue import deck_games
from classroom.models import ClassSession, Deck, JoinRequest, SeatMove, Table
from config.asgi import application
from debrief.models import DebriefExport
from lessons.models import Lesson
from live import consumers
from live.routing import websocket_urlpatterns
from tests.classroom.channels_testing import in_own_event_loop
from tests.classroom.conftest import join_client
from tests.live.helpers import ORIGIN, TIMEOUT, cookie_header

ROLES = ("A", "B", "seat", "other", "anon")


def row(a: int, b: int, seat: int, other: int, anon: int) -> dict[str, int]:
    return dict(zip(ROLES, (a, b, seat, other, anon), strict=True))


# What a teacher's page answers: its owner 200, the other teacher 404, the rest are sent
# to the login page.
TEACHERS = row(200, 404, 302, 302, 302)
# A teacher-only page with no object: any teacher 200, the rest to the login page.
ANY_TEACHER = row(200, 200, 302, 302, 302)
# A teacher's control (it acts on POST only): a GET only goes back to the owner's page;
# a POST: its owner done (302, back to the page), the other teacher 404, the rest to log in.
ACTION = row(302, 404, 302, 302, 302)
EVERYONE = row(200, 200, 200, 200, 200)
# Not a matter of who asks: every visitor gets the same answer (the health check's
# depends on the services, not on the visitor).
SAME = "the same for everyone"

# route name: (what a GET answers, what a POST answers or None for a route with GET)
HTTP = {
    "healthz": (SAME, None),
    "favicon.ico": (row(301, 301, 301, 301, 301), None),
    "set_language": (row(302, 302, 302, 302, 302), None),
    "javascript-catalog": (EVERYONE, None),
    "javascript-catalog-in": (EVERYONE, None),
    "home": (EVERYONE, None),
    "signup": (row(302, 302, 200, 200, 200), None),
    "login": (EVERYONE, None),
    "logout": (row(405, 405, 405, 405, 405), row(302, 302, 302, 302, 302)),
    "account": (ANY_TEACHER, None),
    "password_change": (row(301, 301, 301, 301, 301), None),  # the account page's old address
    "password_change_done": (ANY_TEACHER, None),
    # a teacher's own account: a POST without the password deletes nothing (the form again)
    "account_delete": (ANY_TEACHER, row(200, 200, 302, 302, 302)),
    "account_download": (ANY_TEACHER, None),  # each teacher's own file
    # live play
    "live:play": (row(302, 302, 200, 302, 302), None),
    "live:projector": (TEACHERS, None),
    "live:session_live": (TEACHERS, None),
    "live:join_screen": (TEACHERS, None),
    # lessons and the debrief
    "lessons:index": (EVERYONE, None),
    "lessons:by_article": (EVERYONE, None),
    "lessons:quiz": (row(404, 404, 200, 200, 404), None),  # a student's, once seated
    "lessons:session_results": (row(200, 404, 404, 404, 404), None),
    "lessons:session_mode": (row(405, 405, 405, 405, 405), row(302, 404, 404, 404, 404)),
    "lessons:detail": (EVERYONE, None),
    "lessons:adapt": (ANY_TEACHER, None),
    "debrief:session": (TEACHERS, None),
    "debrief:replay": (TEACHERS, None),
    "debrief:delete_session_data": (row(405, 405, 302, 302, 302), ACTION),
    "debrief:status": (TEACHERS, None),
    "debrief:progress": (TEACHERS, None),
    "debrief:file": (TEACHERS, None),
    "debrief:privacy": (EVERYONE, None),
    # the teacher's classes and sessions
    "classroom:dashboard": (ANY_TEACHER, None),
    "classroom:class_create": (ANY_TEACHER, None),
    "classroom:class_detail": (TEACHERS, None),
    "classroom:class_edit": (TEACHERS, None),
    "classroom:class_archive": (ACTION, ACTION),
    "classroom:class_unarchive": (ACTION, ACTION),
    "classroom:class_delete": (TEACHERS, None),
    "classroom:session_create": (TEACHERS, None),
    "classroom:session_detail": (TEACHERS, None),
    "classroom:session_lock": (ACTION, ACTION),
    "classroom:session_unlock": (ACTION, ACTION),
    "classroom:session_start": (ACTION, ACTION),
    "classroom:session_pause": (ACTION, ACTION),
    "classroom:session_resume": (ACTION, ACTION),
    "classroom:session_end": (ACTION, ACTION),
    # no participant named: nothing to do, even for the owner
    "classroom:session_kick": (ACTION, row(404, 404, 302, 302, 302)),
    "classroom:table_pause": (ACTION, ACTION),
    "classroom:table_resume": (ACTION, ACTION),
    "classroom:seat_to_bot": (ACTION, ACTION),
    "classroom:seat_to_student": (ACTION, ACTION),
    "classroom:move_approve": (ACTION, ACTION),
    "classroom:move_refuse": (ACTION, ACTION),
    "classroom:join_approve": (ACTION, ACTION),
    "classroom:join_refuse": (ACTION, ACTION),
    "classroom:rename": (ACTION, ACTION),
    "classroom:join_rules": (ACTION, ACTION),
    # the deck builder: a deck is its teacher's alone; an empty form comes back (200)
    "classroom:deck_list": (ANY_TEACHER, None),
    "classroom:deck_create": (ANY_TEACHER, row(200, 200, 302, 302, 302)),
    "classroom:deck_check": (row(405, 405, 302, 302, 302), row(200, 200, 302, 302, 302)),
    "classroom:deck_edit": (TEACHERS, TEACHERS),
    "classroom:deck_delete": (TEACHERS, ACTION),
    # the student's side: the join form, a device's own requests, its lobby
    "classroom:join": (EVERYONE, None),
    "classroom:join_code": (row(200, 200, 302, 200, 200), None),  # the seat: to its lobby
    "classroom:join_wait": (row(302, 302, 200, 302, 302), None),
    "classroom:seat_move": (row(302, 302, 200, 302, 302), None),
    # the session has started: the seat goes on to its table, the rest to the join form
    "classroom:lobby": (row(302, 302, 302, 302, 302), None),
}

# socket route name: who is let in (True) or refused (False)
SOCKETS = {
    "ws_session": row(True, False, True, False, False),
    "ws_dashboard": row(True, False, False, False, False),
    "ws_screen": row(True, False, False, False, False),
    "ws_play": row(False, False, True, False, False),
    "ws_watch": row(True, False, False, False, False),
}


def route_names(
    patterns: Iterable[URLPattern | URLResolver], namespace: str | None = None
) -> Iterator[str]:
    """Yield every route's name (its pattern where it has none), admin's left out."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if str(pattern.pattern).startswith("admin/"):
                continue
            yield from route_names(pattern.url_patterns, pattern.namespace or namespace)
        elif isinstance(pattern, URLPattern):
            name = pattern.name or str(pattern.pattern)
            yield f"{namespace}:{name}" if namespace else name


def test_every_route_has_a_row():
    http = list(route_names(get_resolver().url_patterns))
    assert http and len(http) == len(set(http))
    assert set(http) == set(HTTP)
    sockets = [pattern.name for pattern in websocket_urlpatterns]
    assert sockets and set(sockets) == set(SOCKETS)


@dataclass
class World:
    clients: dict[str, Client]
    session: ClassSession
    table: Table
    export: DebriefExport
    join_request: JoinRequest
    seat_move: SeatMove
    lesson: Lesson
    deck: Deck

    def kwargs(self, name: str) -> dict:
        """The route's arguments, naming teacher A's objects."""
        session, code = self.session.pk, self.session.join_code
        by_name: dict[str, dict[str, object]] = {
            "javascript-catalog-in": {"language": "es"},
            "live:play": {"code": code},
            "live:projector": {"pk": self.table.pk},
            "lessons:detail": {"slug": self.lesson.slug},
            "lessons:adapt": {"slug": self.lesson.slug},
            "debrief:replay": {"pk": session, "table": self.table.number},
            "debrief:status": {"pk": self.export.pk},
            "debrief:progress": {"pk": self.export.pk},
            "debrief:file": {"pk": self.export.pk, "fmt": "html"},
            "classroom:class_detail": {"pk": self.session.school_class_id},
            "classroom:class_edit": {"pk": self.session.school_class_id},
            "classroom:class_archive": {"pk": self.session.school_class_id},
            "classroom:class_unarchive": {"pk": self.session.school_class_id},
            "classroom:class_delete": {"pk": self.session.school_class_id},
            "classroom:session_create": {"pk": self.session.school_class_id},
            "classroom:join_code": {"code": code},
            "classroom:join_wait": {"pk": self.join_request.pk},
            "classroom:seat_move": {"pk": self.seat_move.pk},
            "classroom:lobby": {"code": code},
            "classroom:deck_list": {},
            "classroom:deck_create": {"game": self.deck.game},
            "classroom:deck_check": {"game": self.deck.game},
            "classroom:deck_edit": {"pk": self.deck.pk},
            "classroom:deck_delete": {"pk": self.deck.pk},
        }
        if name in by_name:
            return by_name[name]
        needs_pk = name.startswith(("classroom:session_", "classroom:", "lessons:session_"))
        needs_pk = needs_pk or name in {"live:session_live", "live:join_screen"}
        needs_pk = needs_pk or name in {"debrief:session", "debrief:delete_session_data"}
        static = {"classroom:dashboard", "classroom:class_create", "classroom:join"}
        return {"pk": session} if needs_pk and name not in static else {}

    def url(self, name: str) -> str:
        if name == "favicon.ico":
            return "/favicon.ico"
        return reverse(name, kwargs=self.kwargs(name))


def build_world(settings: Settings, tmp_path: Path) -> World:
    settings.MEDIA_ROOT = tmp_path
    users = get_user_model().objects
    teacher_a = users.create_user(username="teacher-a", password="a-Long-passw0rd")
    teacher_b = users.create_user(username="teacher-b", password="a-Long-passw0rd")
    sessions = {}
    for teacher in (teacher_a, teacher_b):
        school_class = actions.do_create_class(teacher, f"Class of {teacher.username}")
        sessions[teacher.username] = actions.do_create_session(
            school_class,
            game="data_tycoon",
            variant="standard",
            language="en",
            table_size=2,
            bots_fill=True,
        )
    session = sessions["teacher-a"]
    seat = join_client(session, "Ana")
    other = join_client(sessions["teacher-b"], "Cleo")
    actions.do_start_session(session)
    actions.do_start_session(sessions["teacher-b"])
    ana = session.participants.get(nickname="Ana")
    export = DebriefExport.objects.create(
        session=session,
        requested_by=teacher_a,
        status=DebriefExport.Status.DONE,
        files={"html": "debrief.html"},
    )
    export.folder().mkdir(parents=True, exist_ok=True)
    (export.folder() / "debrief.html").write_text("<p>The debrief</p>")
    join_request = JoinRequest.objects.create(
        session=session,
        nickname="Anabel",
        device_id=ana.device_id,
        reason=JoinRequest.Reason.choices[0][0],
    )
    move = SeatMove.objects.create(participant=ana, device_id=ana.device_id)
    clients = {"A": Client(), "B": Client(), "seat": seat, "other": other, "anon": Client()}
    clients["A"].force_login(teacher_a)
    clients["B"].force_login(teacher_b)
    lesson = Lesson.objects.first()
    assert lesson is not None
    deck_game = deck_games()[0]
    starter = next(iter(deck_game.starter_decks().values()))
    deck = Deck.objects.create(
        teacher=teacher_a, game=deck_game.slug, name="Ours", cards=starter["cards"]
    )
    return World(
        clients=clients,
        session=session,
        table=Table.objects.get(session=session),
        export=export,
        join_request=join_request,
        seat_move=move,
        lesson=lesson,
        deck=deck,
    )


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(HTTP))
def test_who_gets_what_from_every_url(name, settings, tmp_path):
    world = build_world(settings, tmp_path)
    url = world.url(name)
    expected_get, expected_post = HTTP[name]
    got = {role: world.clients[role].get(url).status_code for role in ROLES}
    if expected_get == SAME:
        assert len(set(got.values())) == 1, f"GET {url}: {got}"
    else:
        assert got == expected_get, f"GET {url}"
    if expected_post is not None:
        # The owner last: a POST of hers may change what the others would get.
        posted = {role: world.clients[role].post(url).status_code for role in ROLES[::-1]}
        assert posted == expected_post, f"POST {url}"


async def socket_outcome(path: str, client: Client) -> bool:
    """Connect with the client's cookies; True when the socket is let in."""
    headers = [ORIGIN, (b"cookie", cookie_header(client))]
    communicator = WebsocketCommunicator(application, path, headers)
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    if not connected:
        return False
    first = await communicator.receive_output(timeout=TIMEOUT)
    let_in = first["type"] == "websocket.send"
    if let_in and first.get("text", "").startswith("{"):
        let_in = json.loads(first["text"]).get("type") != "error"
    await communicator.disconnect()
    return let_in


@pytest.mark.django_db(transaction=True)
@in_own_event_loop
async def test_who_is_let_in_on_every_socket(settings, tmp_path, monkeypatch):
    monkeypatch.setattr(consumers, "TOKEN_SECONDS", 0.2)
    world = await sync_to_async(build_world)(settings, tmp_path)
    paths = {
        "ws_session": f"/ws/session/{world.session.join_code}/",
        "ws_dashboard": f"/ws/teacher/sessions/{world.session.pk}/live/",
        "ws_screen": f"/ws/teacher/sessions/{world.session.pk}/screen/",
        "ws_play": f"/ws/play/{world.session.join_code}/",
        "ws_watch": f"/ws/table/{world.table.pk}/watch/",
    }
    assert set(paths) == set(SOCKETS)
    got = {
        name: {role: await socket_outcome(path, world.clients[role]) for role in ROLES}
        for name, path in paths.items()
    }
    assert got == SOCKETS
