"""Drive seats through the table protocol over real sockets (``websockets``), for live tests."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import urllib.request
from collections.abc import Callable
from http.cookiejar import CookieJar
from typing import Any

import websockets

CALLS = {"call_data", "call_databreach"}


def join(base_url: str, code: str, nickname: str) -> dict:
    """POST /join/ as a program; return the answer (with the seat token)."""
    request = urllib.request.Request(
        f"{base_url}/join/",
        data=json.dumps({"code": code, "nickname": nickname}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 201
        return json.load(response)


def teacher_post(base_url: str, session_cookie: str, page: str, url: str) -> int:
    """POST a teacher's control over HTTP (CSRF cookie from a GET of page first)."""
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    headers = {"Cookie": f"sessionid={session_cookie}"}
    opener.open(urllib.request.Request(base_url + page, headers=headers), timeout=30).read()
    token = next(cookie.value for cookie in jar if cookie.name == "csrftoken")
    assert token is not None, "an empty CSRF cookie"
    request = urllib.request.Request(
        base_url + url,
        data=b"",
        method="POST",
        headers={"Cookie": f"sessionid={session_cookie}; csrftoken={token}", "X-CSRFToken": token},
    )
    with opener.open(request, timeout=30) as response:
        return response.status


async def drive(
    base_url: str,
    seats: list[dict],
    rng: random.Random,
    stop: Callable[[dict], bool] = lambda state: False,
    timeout: float = 120,
) -> dict:
    """Play every joined seat with random legal actions until the game ends or ``stop``.

    ``stop(state)`` is asked before acting on a state; when it says so, every seat
    stops at once. Return ``{"over": bool, "version": last version seen, "stopped_on":
    the state that stopped the game or None, "results": [...]}``.
    """
    done = asyncio.Event()
    outcome: dict[str, Any] = {"over": False, "version": 0, "stopped_on": None, "results": []}

    async def play(joined: dict) -> None:
        base = joined.get("base", base_url)  # a seat may use another server
        ws_url = base.replace("http://", "ws://") + joined["ws"]
        async with websockets.connect(ws_url, max_size=2**23, origin=base) as ws:
            await ws.send(json.dumps({"type": "auth", "token": joined["token"]}))
            acted_on = None
            sent = None
            while not done.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), 0.5)
                except TimeoutError:
                    continue
                message = json.loads(raw)
                if message["type"] == "error" and message.get("code") == "too_fast" and sent:
                    # A seat playing flat out outruns the socket's rate limit; the
                    # refused act was ignored, so send it again once the rate drops.
                    await asyncio.sleep(1.0)
                    await ws.send(sent)
                    continue
                if message["type"] != "state":
                    continue
                outcome["version"] = max(outcome["version"], message["version"])
                if message["over"]:
                    outcome["over"] = True
                    outcome["results"].append(message["result"])
                    return
                if stop(message):
                    outcome["stopped_on"] = message
                    done.set()
                    return
                legal = message["legal_actions"]
                if legal and acted_on != message["version"]:
                    acted_on = message["version"]
                    action = rng.choice(legal)
                    sent = json.dumps(
                        {"type": "act", "version": message["version"], "action": action}
                    )
                    await ws.send(sent)

    await asyncio.wait_for(asyncio.gather(*(play(joined) for joined in seats)), timeout)
    return outcome


def run(coroutine_function, *args, **kwargs):
    """Run a coroutine in a thread with its own event loop (a Playwright browser earlier
    in the session may keep a loop running in the main thread)."""
    outcome = {}

    def target():
        try:
            outcome["value"] = asyncio.run(coroutine_function(*args, **kwargs))
        except BaseException as error:  # re-raised in the caller's thread
            outcome["error"] = error

    thread = threading.Thread(target=target, name="protocol-driver")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
