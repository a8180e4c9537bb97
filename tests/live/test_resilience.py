"""Live play that holds in a real classroom, on the real services: sockets left idle,
sockets that vanish, hostile messages, a Redis that stalls.

These run a real uvicorn (``live_server_url`` or one of their own) on the test Redis,
and talk to it with the ``websockets`` client, as a phone would. The test harness
fails any of them during which the server logged an unhandled exception.
"""

from __future__ import annotations

import asyncio
import json
import signal
import time
from pathlib import Path
from typing import Any

import pytest
import websockets
from asgiref.sync import sync_to_async
from django.test import Client
from websockets.asyncio.client import ClientConnection
from websockets.typing import Origin

from classroom import actions, broadcast
from classroom.identity import seat_token
from classroom.models import ClassSession, Participant, SchoolClass, Seat, Table
from config.services import (
    WS_PING_SECONDS,
    free_port,
    redis_answers,
    redis_service,
    wait_until,
)
from games.matches import load_state
from games.models import Match
from live import write
from tests.conftest import start_asgi
from tests.live.conftest import open_session, seat_students
from tests.live.helpers import auth_message
from tests.live.protocol_driver import run

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]

# Longer than every read timeout a Redis client used to have (redis-py 8: 5 s) and
# than the channel layer's ping and its wait (3 + 5 s), several times over.
IDLE_SECONDS = 30
WAIT = 10


def ws_base(http_url: str) -> str:
    return http_url.replace("http://", "ws://")


def teacher_cookie(teacher_client: Client) -> str:
    return f"sessionid={teacher_client.cookies['sessionid'].value}"


def started_session(
    school_class: SchoolClass, *nicknames: str
) -> tuple[ClassSession, Table, list[Participant]]:
    """Open a session, seat the students, start it; return session, table, participants."""
    session = open_session(school_class, table_size=len(nicknames))
    people = seat_students(session, *nicknames)
    actions.do_start_session(session)
    return session, Table.objects.get(session=session), people


async def open_socket(
    url: str, origin: str, cookie: str | None = None, token: str | None = None
) -> ClientConnection:
    """Open a socket; a seat token is sent as the first message (never in the URL)."""
    headers = {"Cookie": cookie} if cookie else None
    # No client keepalive: what these tests check is the server's side (its own pings
    # drop dead sockets); a client ping timing out on a loaded machine would end the
    # socket a test still reads. No receive queue limit: a browser reads every message
    # at once, while a test may leave a socket unread for a while (hundreds of presence
    # notices); a full queue would stop the client reading, so answering the server's
    # pings, and the server would rightly drop it.
    ws = await websockets.connect(
        url,
        origin=Origin(origin),
        additional_headers=headers,
        max_size=2**23,
        max_queue=None,
        open_timeout=WAIT,
        ping_interval=None,
    )
    if token is not None:
        await ws.send(auth_message(token))
    return ws


async def next_message(
    ws: ClientConnection, kinds: set[str] | None = None, timeout: float = WAIT
) -> Any:
    """Return the next message (a parsed JSON object, or the HTML text) of one of kinds."""
    deadline = time.monotonic() + timeout
    while True:
        raw = await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()))
        assert isinstance(raw, str), raw  # the server sends text frames only
        if not raw.startswith("{"):
            return raw  # an htmx fragment (lobby, dashboard)
        message = json.loads(raw)
        if kinds is None or message["type"] in kinds:
            return message


async def drain(ws: ClientConnection, quiet: float = 0.5) -> list:
    """Read until nothing comes for ``quiet`` seconds; return what came."""
    seen = []
    while True:
        try:
            seen.append(await asyncio.wait_for(ws.recv(), quiet))
        except TimeoutError:
            return seen


def connected_counts(table: Table) -> dict[int, int]:
    return dict(Seat.objects.filter(table=table).values_list("number", "connected"))


def rss_kib(pid: int) -> int:
    """Return a process's resident memory in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmRSS for {pid}")


def one_move(table: Table) -> int:
    """Play the first legal action of a seat to move, through the write path; return
    the new version."""
    match = Match.objects.get(pk=table.match_id)
    state = load_state(match)
    seat = state.to_move()[0]
    applied = write.act(match.pk, seat, state.legal_actions(seat)[0], match.version)
    return applied.match.version


def test_idle_sockets_of_every_kind_stay_open_and_get_the_next_message(
    school_class, teacher_client, live_server_url
):
    session, table, (ana, _ben) = started_session(school_class, "Ana", "Ben")
    base, cookie = ws_base(live_server_url), teacher_cookie(teacher_client)
    urls = {
        "play": (f"{base}/ws/play/{session.join_code}/", None),
        "projector": (f"{base}/ws/table/{table.pk}/watch/", cookie),
        "dashboard": (f"{base}/ws/teacher/sessions/{session.pk}/live/", cookie),
        "lobby": (f"{base}/ws/session/{session.join_code}/", cookie),
    }

    async def scenario():
        sockets = {
            name: await open_socket(
                url, live_server_url, cookie, seat_token(ana) if name == "play" else None
            )
            for name, (url, cookie) in urls.items()
        }
        for ws in sockets.values():
            await drain(ws)
        await asyncio.sleep(IDLE_SECONDS)
        for name, ws in sockets.items():
            # The server neither closed nor dropped the socket while it was idle.
            assert ws.close_code is None, (name, ws.close_code, ws.close_reason)
        version = await sync_to_async(one_move)(table)
        await sync_to_async(broadcast.send_now)(
            session.pk, {"type": "lobby.changed", "reason": "roster"}
        )
        got = {
            "play": await next_message(sockets["play"], {"state"}),
            "projector": await next_message(sockets["projector"], {"state"}),
            "dashboard": await next_message(sockets["dashboard"]),
            "lobby": await next_message(sockets["lobby"]),
        }
        for ws in sockets.values():
            await ws.close()
        return version, got

    version, got = run(scenario)
    assert got["play"]["version"] == version and got["play"]["seat"] == 0
    assert got["projector"]["version"] == version and got["projector"]["seat"] is None
    # the move's table alone, swapped in by its id (live.session_sockets)
    assert got["dashboard"].startswith(f'<section id="live-table-{table.pk}"')
    assert f"move {version}" in got["dashboard"]
    assert 'id="roster"' in got["lobby"] and "Ana" in got["lobby"] and "Ben" in got["lobby"]


def test_sockets_that_vanish_leave_the_seat_count_right_and_the_memory_flat(
    school_class, service_env
):
    """Clients that close right after their first state, or drop the connection
    without a close frame, are taken off the seat at once; hundreds of them leave
    the server's memory where it was."""
    session, table, (ana, ben) = started_session(school_class, "Ana", "Ben")
    server, url = start_asgi(service_env)
    assert server.process is not None
    pid = server.process.pid
    base = ws_base(url)
    play_url = f"{base}/ws/play/{session.join_code}/"

    async def vanish(how: str) -> None:
        ws = await open_socket(play_url, url, token=seat_token(ben))
        await next_message(ws, {"state"})
        if how == "close":
            await ws.close()
        else:
            ws.transport.abort()  # the Wi-Fi went: no close frame

    async def scenario(aborted: int) -> tuple[dict[int, int], dict[int, int], int, int, Any]:
        stay = await open_socket(play_url, url, token=seat_token(ana))
        await next_message(stay, {"state"})
        for _ in range(5):
            await vanish("close")
        after_closes = await settled_counts()
        for _ in range(30):
            await vanish("abort")
        warm = rss_kib(pid)
        for _ in range(aborted):
            await vanish("abort")
        counts = await settled_counts()
        grown = rss_kib(pid) - warm
        # The one socket that stayed still hears the table.
        await drain(stay)
        version = await sync_to_async(one_move)(table)
        state = await next_message(stay, {"state"})
        await stay.close()
        return after_closes, counts, grown, version, state

    async def settled_counts() -> dict[int, int]:
        deadline = time.monotonic() + WAIT
        while True:
            counts = await sync_to_async(connected_counts)(table)
            if counts == {0: 1, 1: 0} or time.monotonic() > deadline:
                return counts
            await asyncio.sleep(0.2)

    try:
        after_closes, counts, grown, version, state = run(scenario, 300)
    finally:
        server.stop()
    print(f"server memory after 300 dropped sockets: {grown:+d} KiB")
    assert after_closes == {0: 1, 1: 0}
    assert counts == {0: 1, 1: 0}
    assert state["version"] == version
    # Each ghost used to keep its consumer and heartbeat (about 70 KiB): 300 kept 22 MB.
    assert grown < 6 * 1024, f"the server grew by {grown} KiB over 300 dropped sockets"
    seat = Seat.objects.get(table=table, number=1)
    assert not seat.is_connected


def test_hostile_messages_get_a_reason_and_the_socket_stays(school_class, live_server_url):
    session, _table, (ana, _ben) = started_session(school_class, "Ana", "Ben")
    url = f"{ws_base(live_server_url)}/ws/play/{session.join_code}/"
    nested_act: dict[str, Any] = {"type": "act", "version": 0, "action": {}}
    node: dict[str, Any] = nested_act["action"]
    for _ in range(900):
        node["x"] = {}
        node = node["x"]
    hostile = {
        "nested 900 deep": json.dumps(nested_act),
        "nested 100000 deep": "[" * 100_000 + "]" * 100_000,
        "100 KiB": json.dumps({"type": "act", "version": 0, "action": {"x": "y" * 100_000}}),
        "not JSON": "{oops",
        "a list": "[1, 2]",
        "a type that is a list": json.dumps({"type": ["act"]}),
    }

    async def scenario():
        ws = await open_socket(url, live_server_url, token=seat_token(ana))
        await next_message(ws, {"state"})
        answers = {}
        for name, text in hostile.items():
            await ws.send(text)
            answers[name] = await next_message(ws, {"error"})
        await ws.send(json.dumps({"type": "ping"}))
        pong = await next_message(ws, {"pong"})
        # Past the ASGI server's frame limit the server itself closes (1009, too big).
        await ws.send(json.dumps({"type": "ping", "pad": "z" * 2 * 2**20}))
        before_close = []
        with pytest.raises(websockets.ConnectionClosed):
            while True:  # a notice sent before the frame arrived (presence) comes first
                before_close.append(await next_message(ws))
        assert not [m for m in before_close if m.get("type") == "error"], before_close
        return answers, pong, ws.close_code

    answers, pong, close_code = run(scenario)
    for name, answer in answers.items():
        assert answer["code"] == "bad_message", name
        assert answer["message"], name
    assert "too long" in answers["100 KiB"]["message"]
    assert "nested too deeply" in answers["nested 900 deep"]["message"]
    assert pong["type"] == "pong"
    assert close_code == 1009


def test_a_device_that_vanishes_without_a_word_leaves_its_seat_within_seconds(
    school_class, live_server_url
):
    """A phone whose Wi-Fi went sends no close and answers no ping: the server's
    WebSocket ping drops it, and the seat shows the student as gone."""
    session, table, (ana, _ben) = started_session(school_class, "Ana", "Ben")
    url = f"{ws_base(live_server_url)}/ws/play/{session.join_code}/"
    seat = Seat.objects.get(table=table, participant=ana).number

    async def scenario():
        ws = await open_socket(url, live_server_url, token=seat_token(ana))
        await next_message(ws, {"state"})
        assert (await sync_to_async(connected_counts)(table))[seat] == 1
        ws.transport.pause_reading()  # deaf and mute: pings go unanswered
        started = time.monotonic()
        while (await sync_to_async(connected_counts)(table))[seat] != 0:
            assert time.monotonic() - started < 3 * WS_PING_SECONDS + WAIT, "still counted"
            await asyncio.sleep(0.5)
        gone_after = time.monotonic() - started
        ws.transport.abort()
        return gone_after

    gone_after = run(scenario)
    assert gone_after <= 2 * WS_PING_SECONDS + 5
    assert not Seat.objects.get(table=table, number=seat).is_connected


def test_the_join_api_refuses_hostile_bodies_with_a_clear_error(school_class, client):
    session = open_session(school_class)
    bodies = {
        "nested": ("[" * 8000 + "]" * 8000, 400, "bad_request"),
        "nested object": (
            json.dumps({"code": {"a": {"b": [1]}}, "nickname": "Zed"}),
            400,
            "bad_request",
        ),
        "numbers": (json.dumps({"code": 12, "nickname": 3}), 400, "bad_request"),
        "huge": (
            json.dumps({"code": session.join_code, "nickname": "x" * 100_000}),
            413,
            "too_large",
        ),
    }
    for name, (body, status, code) in bodies.items():
        response = client.post("/join/", data=body, content_type="application/json")
        assert response.status_code == status, name
        assert response.json()["error"]["code"] == code, name
    joined = client.post(
        "/join/",
        data=json.dumps({"code": session.join_code, "nickname": "Zed"}),
        content_type="application/json",
    )
    assert joined.status_code == 201


@pytest.fixture
def own_redis(tmp_path):
    """A Redis server of this test's own, which it may stall (SIGSTOP) and resume."""
    port = free_port()
    server = redis_service(port, tmp_path / "redis", persist=False).start()
    url = f"redis://127.0.0.1:{port}/0"
    wait_until(lambda: redis_answers(url), 15, "Redis", [server])
    yield server, url
    server.signal(signal.SIGCONT)
    server.stop()


def test_a_move_during_a_redis_stall_is_refused_with_a_reason_and_not_lost(
    school_class, service_env, own_redis
):
    """Redis stops answering for a few seconds (a stalled machine, a full disk): the
    student's move is refused with a reason instead of crashing the socket, nothing is
    half-stored, and once Redis is back the same socket plays the move."""
    redis_server, redis_url = own_redis
    session, table, _people = started_session(school_class, "Ana", "Ben")
    first = load_state(Match.objects.get(pk=table.match_id)).to_move()[0]
    mover = Seat.objects.get(table=table, number=first).participant
    assert mover is not None
    server, url = start_asgi({**service_env, "REDIS_URL": redis_url})
    socket_url = f"{ws_base(url)}/ws/play/{session.join_code}/"

    async def scenario():
        ws = await open_socket(socket_url, url, token=seat_token(mover))
        state = await next_message(ws, {"state"})
        assert state["legal_actions"], state
        act = {"type": "act", "version": state["version"], "action": state["legal_actions"][0]}
        redis_server.signal(signal.SIGSTOP)
        try:
            started = time.monotonic()
            await ws.send(json.dumps(act))
            # A presence notice handled during the stall may be answered "unavailable"
            # first; the move's own answer follows.
            refusal = await next_message(ws, {"error", "state"}, timeout=20)
            while refusal["type"] == "error" and refusal["code"] == "unavailable":
                refusal = await next_message(ws, {"error", "state"}, timeout=20)
            waited = time.monotonic() - started
            stored = await sync_to_async(lambda: Match.objects.get(pk=table.match_id).version)()
        finally:
            redis_server.signal(signal.SIGCONT)
        await ws.send(json.dumps(act))
        played = await next_message(ws, {"state"}, timeout=20)
        await ws.close()
        return state, refusal, waited, stored, played

    try:
        state, refusal, waited, stored, played = run(scenario)
    finally:
        server.stop()
    assert refusal["type"] == "error" and refusal["code"] == "not_stored", refusal
    assert "not stored" in refusal["message"]
    assert waited < 10
    assert stored == state["version"]  # nothing half-stored
    assert played["version"] == state["version"] + 1
