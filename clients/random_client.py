#!/usr/bin/env python3
"""A complete client of the table protocol in one file: join, then play random legal moves.

    python clients/random_client.py http://127.0.0.1:8000 K7XQ2M Robo [--seed 7]

It joins the session with ``POST /join/`` (a JSON body; the answer holds a seat
token), opens ``/ws/play/<code>/``, sends the token as its first message (never in the
URL, which servers log), and whenever a ``state`` lists legal
actions for its seat it sends one of them, chosen uniformly at random, with the
version it saw. A ``stale_version`` error is followed by the current state, so it
simply waits for the next ``state``; after ``too_fast`` (the server dropped a message:
more than its rate) it waits a second and asks for the state again. A lesson card shown
in "pause" mode is dismissed at once, so that the table goes on, and so is one a
``state`` says the table still waits for this seat to read (a dismissal dropped). At
game over it prints the result as JSON and exits 0; it exits 2 if the teacher ends the
session or removes it, 1 on an error.
Needs only the standard library and ``websockets``. The protocol: docs/protocol.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import websockets

IDLE_SECONDS = 30  # with no message for this long, ask for the state again
BACK_OFF_SECONDS = 1.0  # after too_fast: the server drops messages over its rate


def join(base_url: str, code: str, nickname: str) -> dict:
    """POST /join/ and return the JSON answer (with the seat token); exit on a refusal."""
    body = json.dumps({"code": code, "nickname": nickname}).encode()
    request = urllib.request.Request(
        base_url.rstrip("/") + "/join/",
        data=body,
        headers={"Content-Type": "application/json", "Accept-Language": "en"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        detail = json.load(error).get("error", {})
        sys.exit(f"join refused ({error.code}): {detail.get('code')}: {detail.get('message')}")


def socket_url(base_url: str, joined: dict) -> str:
    """Return the play socket's URL for the joined seat."""
    parts = urlsplit(base_url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}{joined['ws']}"


async def play(base_url: str, joined: dict, rng: random.Random, think: float) -> int:
    """Play until the game is over; return the exit status."""
    origin = base_url.rstrip("/")
    async with websockets.connect(
        socket_url(base_url, joined), max_size=2**23, origin=origin
    ) as ws:
        await ws.send(json.dumps({"type": "auth", "token": joined["token"]}))
        acted_on = None  # the version we last acted on
        dismissed: set[int] = set()  # the lesson moments we dismissed
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), IDLE_SECONDS)
            except TimeoutError:
                await ws.send(json.dumps({"type": "resync"}))
                continue
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "state":
                if message.get("over"):
                    print(
                        json.dumps(
                            {
                                "nickname": joined["nickname"],
                                "seat": message["seat"],
                                "version": message["version"],
                                "result": message.get("result"),
                            }
                        )
                    )
                    return 0
                pause = message.get("lesson_pause") or {}
                for moment in pause.get("moments", ()):
                    if message["seat"] in moment["waiting"] and moment["moment"] not in dismissed:
                        dismissed.add(moment["moment"])
                        await ws.send(json.dumps({"type": "dismiss", "moment": moment["moment"]}))
                legal = message.get("legal_actions") or []
                if legal and not message.get("paused") and acted_on != message["version"]:
                    acted_on = message["version"]
                    if think:
                        await asyncio.sleep(rng.uniform(0, think))
                    action = legal[rng.randrange(len(legal))]
                    await ws.send(
                        json.dumps({"type": "act", "version": message["version"], "action": action})
                    )
            elif kind == "error":
                if message.get("code") in {"forbidden", "rate_limited"}:
                    print(f"refused: {message.get('message')}", file=sys.stderr)
                    return 1
                if message.get("code") != "stale_version":  # stale: the new state follows
                    acted_on = None
                if message.get("code") == "too_fast":  # what was dropped is not known
                    await asyncio.sleep(BACK_OFF_SECONDS)
                    dismissed.clear()
                    await ws.send(json.dumps({"type": "resync"}))
            elif kind == "lesson" and message.get("pause"):
                # A lesson pause waits for every player to read the card: read it.
                dismissed.add(message["moment"])
                await ws.send(json.dumps({"type": "dismiss", "moment": message["moment"]}))
            elif kind in {"ended", "removed"}:
                print(f"{kind}: {message.get('message')}", file=sys.stderr)
                return 2


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, join and play."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base_url", help="the server, e.g. http://127.0.0.1:8000")
    parser.add_argument("code", help="the session's join code")
    parser.add_argument("nickname")
    parser.add_argument("--seed", type=int, default=None, help="seed of the random choices")
    parser.add_argument("--think", type=float, default=0.0, help="at most this many s per move")
    args = parser.parse_args(argv)
    joined = join(args.base_url, args.code, args.nickname)
    print(f"joined {joined['session']} as {joined['nickname']}", file=sys.stderr)
    return asyncio.run(play(args.base_url, joined, random.Random(args.seed), args.think))


if __name__ == "__main__":
    sys.exit(main())
