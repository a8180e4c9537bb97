"""Who may open a seat's socket, and what a refused one learns: nothing about which codes
exist, a wrong attempt counted as the join form counts it, and no seat token in a URL."""

import asyncio
import json
import threading
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
import websockets
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.urls import reverse
from websockets.typing import Origin

from classroom import ratelimit
from classroom.identity import seat_token
from config.asgi import application
from live import consumers
from live.consumers import CLOSE_FORBIDDEN, CLOSE_TOO_MANY
from tests.classroom.channels_testing import in_own_event_loop
from tests.conftest import start_asgi
from tests.live.conftest import open_session
from tests.live.helpers import ORIGIN, TIMEOUT, SeatCommunicator, auth_message
from tests.live.protocol_driver import run
from tests.live.test_resilience import next_message, started_session, ws_base

pytestmark = pytest.mark.django_db(transaction=True)

UNKNOWN = "ZZZZZZ"


async def refusal_of(communicator: WebsocketCommunicator) -> tuple[dict, int]:
    """Connect; return the error message the socket got and the code it closed with."""
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected  # accepted, told why, then closed
    message = json.loads(await communicator.receive_from(timeout=TIMEOUT))
    closed = await communicator.receive_output(timeout=TIMEOUT)
    assert closed["type"] == "websocket.close"
    return message, closed["code"]


@in_own_event_loop
async def test_an_unknown_code_and_a_refused_seat_look_the_same(school_class, monkeypatch):
    monkeypatch.setattr(consumers, "TOKEN_SECONDS", 0.3)
    ours, _table, people = await sync_to_async(started_session)(school_class, "Ana", "Ben")
    theirs, _table, others = await sync_to_async(started_session)(school_class, "Cleo", "Dan")
    assert UNKNOWN not in {ours.join_code, theirs.join_code}
    ana, cleo = people[0], others[0]
    here, nowhere = f"/ws/play/{ours.join_code}/", f"/ws/play/{UNKNOWN}/"
    attempts = {
        "an unknown code, a real seat token": SeatCommunicator(nowhere, [ORIGIN], seat_token(ana)),
        "an unknown code, a forged token": SeatCommunicator(nowhere, [ORIGIN], "not-a-token"),
        "a real code, a forged token": SeatCommunicator(here, [ORIGIN], "not-a-token"),
        "a real code, another session's seat": SeatCommunicator(here, [ORIGIN], seat_token(cleo)),
        # A token in the URL is not read (access logs keep URLs): the socket waits for
        # its first message, then gives up.
        "a real code, the token in the URL only": WebsocketCommunicator(
            application, f"{here}?token={seat_token(ana)}", [ORIGIN]
        ),
    }
    answers = {name: await refusal_of(socket) for name, socket in attempts.items()}
    expected = (
        {
            "type": "error",
            "code": "forbidden",
            "message": "You may not connect to this table.",
            "version": None,
        },
        CLOSE_FORBIDDEN,
    )
    assert answers == dict.fromkeys(attempts, expected)
    # The same seat token on its own session's code is let in.
    welcome = SeatCommunicator(here, [ORIGIN], seat_token(ana))
    assert (await welcome.connect(timeout=TIMEOUT))[0]
    assert json.loads(await welcome.receive_from(timeout=TIMEOUT))["type"] == "hello"
    await welcome.disconnect()


def device_cookie() -> str:
    """A device's signed cookie, as the join form gives it."""
    client = Client()
    client.get(reverse("classroom:join"))
    name = settings.DEVICE_COOKIE_NAME
    return f"{name}={client.cookies[name].value}"


def join_api(base: str, code: str, nickname: str, cookie: str | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(
        base + "/join/",
        data=json.dumps({"code": code, "nickname": nickname}).encode(),
        headers={"Content-Type": "application/json", **({"Cookie": cookie} if cookie else {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


@pytest.mark.services
def test_refused_sockets_count_against_the_join_forms_limit(school_class, live_server_url):
    """Wrong codes on the play socket and on the join form are one count, per device:
    a device that used them up on sockets is refused by the join API, not its neighbour."""
    session = open_session(school_class)
    guesser = device_cookie()
    url = f"{ws_base(live_server_url)}/ws/play/{UNKNOWN}/"

    async def guess() -> tuple[str, int | None]:
        async with websockets.connect(
            url, origin=live_server_url, additional_headers={"Cookie": guesser}
        ) as ws:
            await ws.send(auth_message("a-guess"))
            message = await next_message(ws, {"error"})
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), TIMEOUT)
            return message["code"], ws.close_code

    async def guesses():
        return [await guess() for _ in range(settings.JOIN_RATE_LIMIT + 1)]

    answers = run(guesses)
    assert answers[:-1] == [("forbidden", CLOSE_FORBIDDEN)] * settings.JOIN_RATE_LIMIT
    assert answers[-1] == ("rate_limited", CLOSE_TOO_MANY)
    status, body = join_api(live_server_url, session.join_code, "Sam", guesser)
    assert status == 429 and body["error"]["code"] == "rate_limited"
    status, body = join_api(live_server_url, session.join_code, "Ana", device_cookie())
    assert status == 201, body
    ratelimit.reset("127.0.0.1", guesser.split("=", 1)[1])


@pytest.mark.services
def test_no_seat_token_reaches_the_access_log(school_class, service_env):
    """A program joins and opens its seat's socket: the server's log (uvicorn writes every
    request's path and query string) never holds the seat token."""
    session = open_session(school_class)
    server, base = start_asgi(service_env)
    try:
        status, joined = join_api(base, session.join_code, "Ana")
        assert status == 201, joined
        assert joined["token"] not in json.dumps([joined["ws"], joined["play_url"]])

        async def play():
            async with websockets.connect(ws_base(base) + joined["ws"], origin=Origin(base)) as ws:
                await ws.send(auth_message(joined["token"]))
                return await next_message(ws, {"waiting"})

        assert run(play)["session_state"] == "lobby"
    finally:
        server.stop()
    assert server.log_path is not None
    log = server.log_path.read_text()
    assert f"/ws/play/{session.join_code}/" in log and "/join/" in log  # the access log
    assert joined["token"] not in log
    assert "token=" not in log


@pytest.mark.services
def test_a_hundred_wrong_codes_at_once_let_through_no_more_than_the_limit(live_server_url):
    """One hundred wrong codes sent together to the real server, from one device (no
    cookie: one count for the address's cookieless devices): at most the limit is looked
    up, every other one is refused with 429."""
    start = threading.Barrier(100)

    def attempt(_number: int) -> int:
        start.wait()
        return join_api(live_server_url, UNKNOWN, "Sam")[0]

    with ThreadPoolExecutor(max_workers=100) as pool:
        answers = list(pool.map(attempt, range(100)))
    assert set(answers) == {404, 429}
    assert answers.count(404) == settings.JOIN_RATE_LIMIT
