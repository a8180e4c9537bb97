"""A fuzz of the table protocol on a live table: 100,000 random and malformed messages,
on the real services (uvicorn, Redis, Celery), sent over real sockets.

Every message is judged by an oracle that reads docs/protocol.md ("Malformed input"),
not the server's code: it gets its error (or its documented answer), or the documented
per-socket rate limit drops it (``live.throttle``), or the server closes the socket
with its documented code (1007 for a text frame that is not UTF-8, 1009 for a frame
over the server's frame limit, 4403/4429 for a refused seat token; 1011 when an
overloaded server read a socket's pong too late, tolerated a few times). Afterwards
every match has the version, snapshot and action log it had, a legal move still plays,
the services logged no unhandled exception (the harness fails the test otherwise) and
the server's memory is where it was.

Three kinds of socket share the load, so that 100,000 messages really go out and come
back in a short time although each socket may send only 10 a second after a burst of 40:

- paced sockets, seated students after their ``auth``: each sends only what its
  mirror of the server's token bucket allows, so that every message must be answered
  while the server keeps pace, and checks each answer in order;
- flood sockets: a seated socket that sends far past its budget; the server answers
  its burst, says ``too_fast`` once per flood and drops the rest;
- refused sockets: one malformed first message instead of the seat token.

The run is seeded: ``FUZZ_SEED=<seed>`` repeats one (the seed is printed), and
``FUZZ_MESSAGES`` changes the count.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field

import pytest
import websockets
from asgiref.sync import sync_to_async
from websockets.asyncio.client import ClientConnection

from classroom import actions, ratelimit
from classroom.identity import seat_token
from classroom.models import ClassSession, Participant, Seat, Table
from classroom.payloads import MAX_DEPTH, MAX_MESSAGE_BYTES
from config.services import WS_MAX_BYTES
from games.matches import load_state, same_json
from games.models import Match
from live.consumers import CLOSE_FORBIDDEN, CLOSE_TOO_MANY
from live.throttle import (
    MESSAGE_BURST,
    MESSAGES_PER_SECOND,
    RESYNC_BURST,
    RESYNCS_PER_SECOND,
    Bucket,
)
from tests.conftest import start_asgi
from tests.live.conftest import open_session, seat_students
from tests.live.protocol_driver import run
from tests.live.test_resilience import open_socket, rss_kib, ws_base

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]

SEED = int(os.environ.get("FUZZ_SEED") or random.SystemRandom().randrange(2**32))
TOTAL = int(os.environ.get("FUZZ_MESSAGES") or 100_000)
STUDENTS = 24  # twelve tables of two: the presence notices of a connect stay local
PACED_WORKERS = 24  # sockets open at once (a connect costs the server ~0.1 s)
# Shares of the messages: paced (each one answered), floods (mostly dropped by the rate
# limit), refused first messages (one socket each: the dearest to open).
PACED_SHARE, REFUSED_SHARE = 0.1, 0.01
FLOOD_SIZE = 300
FLOOD_SOCKETS = 6
# A flooding socket kept open longer was dropped by the server's keepalive (1011: its
# ping got no pong within 10 s), though each flood was answered within a second or two.
FLOOD_SOCKET_SECONDS = 8
REFUSED_WORKERS = 2
WAIT = 60  # seconds an answer may take on a loaded machine
# Codes the engine refuses an out-of-turn or made-up action with (docs/protocol.md, 5).
ENGINE_CODES = {"card_not_held", "illegal_action"}
# Closes the server itself makes: a text frame that is not UTF-8 (RFC 6455 1007), a
# frame over uvicorn's --ws-max-size (1009).
CLOSE_NOT_UTF8 = 1007
CLOSE_TOO_BIG = 1009
CLOSE_KEEPALIVE = 1011  # uvicorn: the peer's pong did not come within --ws-ping-timeout
MAX_KEEPALIVE_DROPS = 10
# The server collects its young objects at 5,000, not 700 (config/collector.py): the
# cycles each closed socket leaves wait longer for their collection, about 4 MiB more at
# the peak (measured: 8.6 MiB once over 100,000 messages). A socket kept after it closed
# (about 70 KiB, what test_resilience guards against) would be some 70 MiB for the
# thousand sockets, most of them refused, that this test opens and closes.
RSS_SLACK_KIB = 12 * 1024
SKIPPED = {"presence"}  # other sockets come and go at the table meanwhile


@dataclass(frozen=True)
class Seen:
    """What a seat's socket knows of its table: the oracle's facts."""

    version: int
    legal: list
    others: list  # the other seat's legal actions: acting for another seat
    cards: list


@dataclass
class Fuzz:
    """One message: its frame, and the answer the protocol promises for it.

    ``expect``: "bad_message", "stale", "engine", "not_your_turn", "pong", "resync",
    "none" (a dismiss of a moment nobody waits for), "close_utf8", "close_big".
    """

    data: str | bytes
    expect: str
    kind: str
    text_frame: bool = True  # bytes sent as a text frame: not UTF-8 on purpose
    # A resync the client's mirror of the resync budget allowed: the server must answer
    # it (its clock reads later, so its budget is never smaller).
    sure: bool = False


@dataclass
class Tally:
    sent: Counter = field(default_factory=Counter)
    answered: Counter = field(default_factory=Counter)
    # Each message ends one way: "answered" (as promised), "limited" (dropped by the
    # rate limit), "closed" (the server closed the socket with the documented code).
    outcomes: Counter = field(default_factory=Counter)
    closes: Counter = field(default_factory=Counter)
    codes: Counter = field(default_factory=Counter)
    connects: int = 0
    floods: int = 0

    @property
    def total(self) -> int:
        return sum(self.sent.values())


def oracle(data: str | bytes, seen: Seen, text_frame: bool) -> str:
    """Return what docs/protocol.md promises for this frame on a seated socket."""
    raw = data.encode() if isinstance(data, str) else data
    if len(raw) > WS_MAX_BYTES:
        return "close_big"
    if isinstance(data, bytes) and text_frame:
        try:
            data.decode()
        except UnicodeDecodeError:
            return "close_utf8"
    if len(raw) > MAX_MESSAGE_BYTES:
        return "bad_message"
    try:
        message = json.loads(raw)
    except (ValueError, RecursionError):
        return "bad_message"
    if nesting(message) > MAX_DEPTH or not isinstance(message, dict) or "type" not in message:
        return "bad_message"
    kind = message["type"]
    if kind == "ping":
        return "pong"
    if kind == "resync":
        return "resync"
    if kind == "dismiss":
        moment = message.get("moment")
        return "none" if type(moment) is int else "bad_message"
    if kind != "act":
        return "bad_message"
    version, action = message.get("version"), message.get("action")
    if type(version) is not int or not isinstance(action, dict):
        return "bad_message"
    if version != seen.version:
        return "stale"
    if any(same_json(action, legal) for legal in seen.legal):
        return "legal"  # a real move: the generator never sends one
    return "engine" if seen.legal else "not_your_turn"


def nesting(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max(map(nesting, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(nesting, value), default=0)
    return 0


def act_text(version: object, action: object) -> str:
    return json.dumps({"type": "act", "version": version, "action": action})


class Fuzzer:
    """Random messages of every malformed kind, and a few well-formed ones."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.alphabets = [
            'abcdefghijklmnopqrstuvwxyz{}[]":,',
            "é漢字😀\u202e\u200b\ufeff\x00\x1f",
            # any character of the basic plane but the surrogates (not UTF-8)
            "".join(chr(rng.randrange(0x20, 0xD7FF)) for _ in range(500)),
        ]

    def scalar(self):
        r = self.rng
        return r.choice(
            [
                None,
                True,
                False,
                r.randint(-(2**70), 2**70),
                r.random() * 1e6,
                -0.0,
                "",
                self.text(r.randint(1, 40)),
                "\ud800",
                "\x00",
                1.0,
                0,
                1,
            ]
        )

    def text(self, size: int) -> str:
        r = self.rng
        return "".join(r.choices(r.choice(self.alphabets), k=size))

    def value(self, depth: int = 0) -> object:
        r = self.rng
        if depth > 3 or r.random() < 0.5:
            return self.scalar()
        if r.random() < 0.5:
            return [self.value(depth + 1) for _ in range(r.randint(0, 4))]
        return {self.text(r.randint(0, 8)): self.value(depth + 1) for _ in range(r.randint(0, 4))}

    def nested(self, levels: int) -> str:
        inner = json.dumps({"type": "ping"})
        return (
            "[" * levels + inner + "]" * levels
            if self.rng.random() < 0.5
            else (
                '{"type": "act", "version": 0, "action": '
                + '{"a": ' * levels
                + "1"
                + "}" * levels
                + "}"
            )
        )

    def action(self, seen: Seen) -> dict:
        """A made-up action, another seat's, or one of ours mutated."""
        r = self.rng
        pool = seen.legal + seen.others
        if not pool or r.random() < 0.2:
            return {"type": self.text(5), "card": r.choice(seen.cards)}
        base = dict(r.choice(pool))
        choice = r.randrange(6)
        if choice == 0 and len(base) > 1:
            del base[r.choice([k for k in base if k != "type"])]
        elif choice == 1:
            base[r.choice(list(base))] = self.scalar()
        elif choice == 2:
            base[self.text(4)] = self.value()
        elif choice == 3:
            # the same numbers in other JSON types: 1.0, true
            base = {
                k: (float(v) if r.random() < 0.5 else bool(v)) if type(v) is int else v
                for k, v in base.items()
            }
        elif choice == 4 and "card" in base:
            base["card"] = r.choice([*seen.cards, "dt-999", "", "DT-001", 7])
        return base

    def message(self, seen: Seen) -> tuple[str, str | bytes, bool]:
        """Return (kind, frame data, sent as a text frame)."""
        r = self.rng
        roll = r.random()
        if roll < 0.10:
            return "random bytes", r.randbytes(r.randint(0, 300)), False
        if roll < 0.18:
            return "random text", self.text(r.randint(0, 300)), True
        if roll < 0.24:
            ping = json.dumps({"type": "ping", "x": self.text(8)}).encode()
            cut = r.randrange(len(ping))
            return "invalid utf-8 (binary)", ping[:cut] + b"\xff\xfe\xc3" + ping[cut:], False
        if roll < 0.34:
            good = act_text(seen.version, r.choice(seen.legal + seen.others + [{}]))
            cut = r.randrange(1, len(good))
            broken = r.choice(
                [
                    good[:cut],
                    good[:cut] + r.choice(["'", "}", ",", "\\", "NaN", "\x00"]) + good[cut:],
                    good.replace('"', "'"),
                    good + ",",
                    good[:-1] + ",}",
                ]
            )
            return "invalid json", broken, True
        if roll < 0.44:
            value = r.choice([[], [1, 2], 3, -1.5, None, True, "act", self.value()])
            return "wrong type", json.dumps(value), True
        if roll < 0.47:
            pad = "x" * r.randint(MAX_MESSAGE_BYTES - 50, MAX_MESSAGE_BYTES * 4)
            return (
                "huge string",
                json.dumps({"type": r.choice(["act", "ping", pad]), "pad": pad}),
                True,
            )
        if roll < 0.50:
            return "deep nesting", self.nested(r.choice([MAX_DEPTH, MAX_DEPTH + 1, 50, 5000])), True
        if roll < 0.60:
            kind = r.choice(
                ["Act", "act ", "auth", "ACT", "pong", "state", "", None, 1, ["act"], {"t": 1}]
            )
            body: dict[str, object] = {"type": kind, "version": seen.version}
            if kind == "auth":
                body["token"] = self.text(30)
            return "unknown type", json.dumps(body), r.random() < 0.8
        if roll < 0.70:
            body = {"type": "act"}
            if r.random() < 0.7:
                body["version"] = r.choice([None, "0", 0.0, True, False, [], {}, str(seen.version)])
            if r.random() < 0.7:
                body["action"] = r.choice([None, [], "play", 1, [self.action(seen)]])
            return "act with wrong fields", json.dumps(body), True
        if roll < 0.725:
            return (
                "action for another seat or made up",
                act_text(seen.version, self.action(seen)),
                True,
            )
        if roll < 0.735:
            version = r.choice([seen.version - 1, seen.version + 1, -1, 2**63, 10**40])
            return (
                "stale version",
                act_text(version, r.choice(seen.legal + seen.others + [{}])),
                True,
            )
        if roll < 0.738:
            return "resync", json.dumps({"type": "resync"}), r.random() < 0.8
        if roll < 0.76:
            moment: object = r.choice([None, "1", 1.5, True, [], r.randint(-5, 2**40)])
            body = (
                {"type": "dismiss", "moment": moment} if r.random() < 0.8 else {"type": "dismiss"}
            )
            return "dismiss", json.dumps(body), True
        if roll < 0.78:
            return "ping", json.dumps({"type": "ping"}), True
        if roll < 0.998:
            value = {"type": self.scalar(), **{self.text(3): self.value() for _ in range(3)}}
            return "random object", json.dumps(value), r.random() < 0.8
        if roll < 0.999:
            return "invalid utf-8 (text frame)", b'{"type": "ping\xc3\x28"}', True
        return "oversized frame", b"x" * (WS_MAX_BYTES + 1), False

    def fuzz(self, seen: Seen) -> Fuzz:
        """A message whose promised answer is never a real move."""
        while True:
            kind, data, text_frame = self.message(seen)
            expect = oracle(data, seen, text_frame)
            if expect != "legal":
                return Fuzz(data, expect, kind, text_frame)

    def first_message(self, tokens: list[str]) -> tuple[str, str | bytes, bool]:
        """A first message that is no valid seat token."""
        r = self.rng
        roll = r.random()
        if roll < 0.3:
            token = r.choice(tokens)
            at = r.randrange(len(token))
            forged = token[:at] + r.choice("AaZz09:_-") + token[at + 1 :]
            if forged == token:
                forged = token + "x"
            return "forged token", json.dumps({"type": "auth", "token": forged}), True
        if roll < 0.4:
            # another session's student: a real token, for the wrong code
            return (
                "another session's token",
                json.dumps({"type": "auth", "token": tokens[-1]}),
                True,
            )
        if roll < 0.5:
            wrong: object = r.choice([None, 1, [], {}, True, "", self.text(20)])
            return "token of a wrong type", json.dumps({"type": "auth", "token": wrong}), True
        if roll < 0.55:
            return "invalid utf-8 (text frame)", b'{"type": "auth\xff"}', True
        kind, data, text_frame = self.message(Seen(0, [], [], ["dt-001"]))
        if kind == "oversized frame":
            return self.first_message(tokens)
        return f"before auth: {kind}", data, text_frame


async def send(ws: ClientConnection, fuzz_data: str | bytes, text_frame: bool) -> None:
    if isinstance(fuzz_data, bytes) and text_frame:
        await ws.send(fuzz_data, text=True)
    else:
        await ws.send(fuzz_data)


async def receive(ws: ClientConnection, deadline: float) -> dict:
    while True:
        raw = await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()))
        message = json.loads(raw)
        if message["type"] not in SKIPPED:
            return message


async def open_seat(
    url: str, origin: str, token: str, tally: Tally
) -> tuple[ClientConnection, dict]:
    """Open a seat's socket; return it with its ``Seen`` (from its first state)."""
    ws = await open_socket(url, origin, token=token)
    deadline = time.monotonic() + WAIT
    hello = await receive(ws, deadline)
    assert hello["type"] == "hello", hello
    state = await receive(ws, deadline)
    assert state["type"] == "state", state
    tally.connects += 1
    return ws, state


def expect_closed(ws: ClientConnection, code: int, tally: Tally, kind: str) -> None:
    assert ws.close_code == code, (kind, ws.close_code, ws.close_reason)
    tally.closes[code] += 1


class Limited(Exception):
    """The rate limit dropped a paced message: the server's clock is the time it handles a
    message, and a server that lagged, then caught up, refilled less than the client's
    mirror counted."""


async def check_answer(ws: ClientConnection, fuzz: Fuzz, seen: Seen, tally: Tally) -> None:
    """Read and check the answer the protocol promises for one paced message."""
    deadline = time.monotonic() + WAIT
    where = (fuzz.kind, fuzz.data[:200])
    if fuzz.expect == "none":
        return
    if fuzz.expect == "resync" and not fuzz.sure:
        # the client's mirror has no resync left; the server may (its clock runs later)
        first = await receive(ws, deadline)
        if first["type"] == "error":
            assert first["code"] == "too_fast", (where, first)
            tally.codes["too_fast"] += 1
            return
        assert first["type"] == "hello", (where, first)
        second = await receive(ws, deadline)
        assert second["type"] == "state" and second["version"] == seen.version, (where, second)
        return
    answer = await receive(ws, deadline)
    assert answer["version"] == seen.version, (where, answer)
    if answer["type"] == "error" and answer["code"] == "too_fast":
        raise Limited()
    if fuzz.expect == "pong":
        assert answer["type"] == "pong", (where, answer)
    elif fuzz.expect == "resync":
        assert answer["type"] == "hello" and "catalogue" not in answer, (where, answer)
        state = await receive(ws, deadline)
        assert state["type"] == "state" and state["version"] == seen.version, (where, state)
        assert state["legal_actions"] == seen.legal, where
    else:
        assert answer["type"] == "error" and answer["message"], (where, answer)
        tally.codes[answer["code"]] += 1
        if fuzz.expect == "stale":
            assert answer["code"] == "stale_version", (where, answer)
            state = await receive(ws, deadline)
            assert state["type"] == "state" and state["version"] == seen.version, (where, state)
        elif fuzz.expect == "engine":
            assert answer["code"] in ENGINE_CODES, (where, answer)
        else:
            assert answer["code"] == fuzz.expect, (where, answer)


def spare(bucket: Bucket) -> float:
    """The tokens a bucket holds now (without taking one)."""
    elapsed = bucket.clock() - bucket.stamp
    return min(bucket.burst, bucket.tokens + elapsed * bucket.per_second)


def seen_in(state: dict, others: list) -> Seen:
    cards = sorted({a["card"] for a in state["legal_actions"] + others if "card" in a})
    return Seen(state["version"], state["legal_actions"], others, cards or ["dt-001"])


@dataclass
class Target:
    """Where the fuzz goes, and its tally."""

    url: str
    origin: str
    tally: Tally


async def exchange(ws: ClientConnection, window: list[Fuzz], seen: Seen, tally: Tally) -> bool:
    """Send a window of paced messages and check their answers in order; False when an
    overloaded server dropped the socket meanwhile (1011: it read the pong too late)."""
    checked = 0
    try:
        for fuzz in window:
            await send(ws, fuzz.data, fuzz.text_frame)
        for fuzz in window:
            await check_answer(ws, fuzz, seen, tally)
            tally.answered[fuzz.expect] += 1
            checked += 1
    except websockets.ConnectionClosed:
        expect_closed(ws, CLOSE_KEEPALIVE, tally, "paced")
        tally.outcomes["closed"] += len(window) - checked
    except Limited:
        # This one was dropped; the rest of the window was answered or dropped, which
        # the answers cannot tell apart: the socket starts again.
        tally.codes["too_fast"] += 1
        tally.outcomes["limited"] += 1
        tally.outcomes["unread"] += len(window) - checked - 1
        await ws.close()
    for fuzz in window:
        tally.sent[fuzz.kind] += 1
    tally.outcomes["answered"] += checked
    return checked == len(window)


async def kill(ws: ClientConnection, fuzz: Fuzz, tally: Tally) -> None:
    """Send a frame the server closes the socket for, and check the close code."""
    await send(ws, fuzz.data, fuzz.text_frame)
    with pytest.raises(websockets.ConnectionClosed):
        await receive(ws, time.monotonic() + WAIT)
    code = CLOSE_NOT_UTF8 if fuzz.expect == "close_utf8" else CLOSE_TOO_BIG
    expect_closed(ws, code, tally, fuzz.kind)
    tally.sent[fuzz.kind] += 1
    tally.outcomes["closed"] += 1


async def paced(
    target: Target,
    token: str,
    *,
    others: list,
    rng: random.Random,
    quota: int,
    start_after: float = 0.0,
) -> None:
    """Send ``quota`` messages within the socket's budget, each answer checked in order.

    The client keeps a mirror of the server's token bucket, taken when it sends. The
    server counts at the time it handles a message: while it keeps pace its bucket holds
    no less than the mirror; one that lagged, then caught up, may still drop a message
    (``Limited``: then the socket starts again). The socket also starts again after a
    frame the server closes it for."""
    fuzzer, tally = Fuzzer(rng), target.tally
    sent = 0
    await asyncio.sleep(start_after)  # the sockets open one after another
    while sent < quota:
        ws, state = await open_seat(target.url, target.origin, token, tally)
        seen = seen_in(state, others)
        budget = Bucket(MESSAGES_PER_SECOND, MESSAGE_BURST)
        resyncs = Bucket(RESYNCS_PER_SECOND, RESYNC_BURST)
        while sent < quota:
            window: list[Fuzz] = []
            killer: Fuzz | None = None
            while len(window) < 20 and sent + len(window) < quota and spare(budget) >= 1.05:
                fuzz = fuzzer.fuzz(seen)
                if fuzz.expect.startswith("close"):
                    # alone in its window: the answers before it must come first
                    killer = None if window else fuzz
                    break
                budget.take()
                fuzz.sure = fuzz.expect == "resync" and spare(resyncs) >= 1.05 and resyncs.take()
                window.append(fuzz)
            if killer is not None:
                await kill(ws, killer, tally)
                sent += 1
                break
            if not window:
                await asyncio.sleep(max(0.02, (1.05 - spare(budget)) / MESSAGES_PER_SECOND))
                continue
            sent += len(window)
            if not await exchange(ws, window, seen, tally):
                break
        else:
            await ws.close()


ACT_REFUSAL = "An action needs a version and an action."
# Two messages that mark the end of a flood, each recognised by its answer.
DELIMITERS = [
    ({"type": "ping"}, lambda message: message["type"] == "pong"),
    (
        {"type": "act"},
        lambda message: message["type"] == "error" and message["message"] == ACT_REFUSAL,
    ),
]


def acts(data: str | bytes) -> bool:
    """Tell whether a frame is an ``act`` or ``dismiss`` (refused with texts of their own)."""
    try:
        message = json.loads(data)
    except (ValueError, RecursionError):
        return False
    return isinstance(message, dict) and message.get("type") in ("act", "dismiss")


async def one_flood(
    ws: ClientConnection, batch: list[Fuzz], cycle: int, seen: Seen
) -> Counter[str] | None:
    """Send one flood and its delimiters; return the answers, None when an overloaded
    server dropped the socket (1011)."""
    for fuzz in batch:
        await send(ws, fuzz.data, fuzz.text_frame)
    answers: Counter[str] = Counter()
    # This flood's delimiter, and the previous one's, whose late answers (a delimiter
    # sent after the one answered) may still come first.
    mine, other = DELIMITERS[cycle % 2], DELIMITERS[(cycle + 1) % 2]

    async def delimit() -> None:
        while True:
            await ws.send(json.dumps(mine[0]))
            await asyncio.sleep(0.2)

    delimiting = asyncio.create_task(delimit())
    try:
        deadline = time.monotonic() + WAIT
        while True:
            message = await receive(ws, deadline)
            if mine[1](message):
                return answers
            if other[1](message):
                continue
            assert message["type"] == "error" and message["version"] == seen.version, message
            assert message["code"] in {"bad_message", "too_fast"}, message
            answers[message["code"]] += 1
    except websockets.ConnectionClosed:
        return None
    finally:
        delimiting.cancel()


async def flood(target: Target, token: str, *, rng: random.Random, count: int) -> None:
    """Send ``count`` messages in floods of FLOOD_SIZE, each far past the socket's budget:
    the budget is answered, the rest dropped, with one ``too_fast`` per flood (more only
    when a token came back in the middle).

    The server handles a socket's messages in order. After each flood the client sends a
    delimiter every fifth of a second (a ``ping``, or an ``act`` without fields, in
    turn): the first answer to one comes once the flood is behind it and a token came
    back, so it ends the flood's answers. The delimiters sent after it are handled
    before the next flood, and answered, dropped or told ``too_fast`` meanwhile: their
    answers are told apart from the next flood's by the other delimiter. The server reads
    a socket's next frames, its pongs among them, only once it handled the ones before,
    and drops a socket whose pong does not come within 10 s: on an overloaded machine a
    flooder is dropped so (1011), which the test tolerates a few times."""
    fuzzer, tally = Fuzzer(rng), target.tally
    ws = None
    while count > 0:
        if ws is None:
            ws, state = await open_seat(target.url, target.origin, token, tally)
            seen, cycle, opened = seen_in(state, []), 0, time.monotonic()
        size = min(FLOOD_SIZE, count)
        batch: list[Fuzz] = []
        while len(batch) < size:
            fuzz = fuzzer.fuzz(seen)
            if fuzz.expect == "bad_message" and len(fuzz.data) < 2000 and not acts(fuzz.data):
                batch.append(fuzz)  # one answer each, none like a delimiter's
        answers = await one_flood(ws, batch, cycle, seen)
        count -= size
        for fuzz in batch:
            tally.sent[fuzz.kind] += 1
        if answers is None:
            expect_closed(ws, CLOSE_KEEPALIVE, tally, "flood")
            tally.outcomes["closed"] += size
            ws = None
            continue
        # A dropped message says too_fast first (a server slower than the limit's rate
        # drops none).
        assert answers["bad_message"] == size or answers["too_fast"] >= 1, answers
        assert answers["bad_message"] <= size, answers
        if cycle == 0:  # a new socket's burst (the last flood may be smaller)
            assert answers["bad_message"] >= min(size, MESSAGE_BURST), answers
        cycle += 1
        tally.answered["bad_message"] += answers["bad_message"]
        tally.codes["too_fast"] += answers["too_fast"]
        tally.outcomes["answered"] += answers["bad_message"]
        tally.outcomes["limited"] += size - answers["bad_message"]
        tally.floods += 1
        if time.monotonic() - opened > FLOOD_SOCKET_SECONDS:
            await ws.close()
            ws = None
    if ws is not None:
        await ws.close()


async def refused(target: Target, tokens: list[str], *, rng: random.Random, count: int) -> None:
    """Open ``count`` sockets whose first message is no valid seat token: each is
    refused with one error and 4403 (4429 once the address used up its wrong codes), or
    closed with 1007 for a text frame that is not UTF-8."""
    fuzzer, tally = Fuzzer(rng), target.tally
    for _ in range(count):
        kind, data, text_frame = fuzzer.first_message(tokens)
        ws = await open_socket(target.url, target.origin)
        await send(ws, data, text_frame)
        got = []
        with pytest.raises(websockets.ConnectionClosed):
            while True:
                got.append(await receive(ws, time.monotonic() + WAIT))
        tally.sent[kind] += 1
        if ws.close_code == CLOSE_NOT_UTF8:
            assert not got, (kind, got)
            tally.closes[CLOSE_NOT_UTF8] += 1
            tally.outcomes["closed"] += 1
            continue
        assert ws.close_code in {CLOSE_FORBIDDEN, CLOSE_TOO_MANY}, (kind, data[:200], ws.close_code)
        tally.closes[ws.close_code] += 1
        code = "forbidden" if ws.close_code == CLOSE_FORBIDDEN else "rate_limited"
        assert [(m["type"], m["code"], m["version"]) for m in got] == [("error", code, None)], got
        tally.codes[code] += 1
        tally.answered[code] += 1
        tally.outcomes["answered"] += 1


def table_record(tables: list[Table]) -> dict:
    """The tables' matches: version, snapshot and action log."""
    return {
        match.pk: (
            match.version,
            match.snapshot,
            list(match.actions.values_list("version", "action")),
        )
        for match in Match.objects.filter(pk__in=[table.match_id for table in tables])
    }


@pytest.fixture
def own_server(service_env):
    """A fresh uvicorn, so that its memory tells of this test alone."""
    server, url = start_asgi(service_env)
    try:
        yield server, url
    finally:
        server.stop()


def quiet_tables(session: ClassSession) -> list[Table]:
    """The session's tables where nothing moves by itself: a call window open at the
    deal runs a timer, whose expiry the referee plays."""
    return [
        table
        for table in Table.objects.filter(session=session).order_by("number")
        if not load_state(Match.objects.get(pk=table.match_id)).timers()
    ]


async def fuzz_all(
    target: Target, people: list[Participant], tokens: list[str], rng: random.Random
) -> dict:
    """Run the paced, flood and refused sockets at once; return when each kind ended."""
    seats = {
        seat.participant_id: seat
        for seat in await sync_to_async(
            lambda: list(Seat.objects.filter(participant__in=people).select_related("table__match"))
        )()
    }
    paced_total, refused_total = int(TOTAL * PACED_SHARE), int(TOTAL * REFUSED_SHARE)
    flood_total = TOTAL - paced_total - refused_total
    started = time.monotonic()
    finished = {}

    def share(total: int, parts: int, k: int) -> int:
        return total // parts + (k < total % parts)

    def others(person: Participant) -> list:
        """The other seat's legal actions: acting for another seat."""
        seat = seats[person.pk]
        return load_state(seat.table.match).legal_actions(1 - seat.number)

    jobs = {
        "paced": [
            paced(
                target,
                seat_token(people[k % len(people)]),
                others=await sync_to_async(others)(people[k % len(people)]),
                rng=random.Random(rng.random()),
                quota=share(paced_total, PACED_WORKERS, k),
                start_after=k * 0.1,
            )
            for k in range(PACED_WORKERS)
        ],
        "floods": [
            flood(
                target,
                seat_token(people[k % len(people)]),
                rng=random.Random(rng.random()),
                count=share(flood_total, FLOOD_SOCKETS, k),
            )
            for k in range(FLOOD_SOCKETS)
        ],
        "refused": [
            refused(
                target,
                tokens,
                rng=random.Random(rng.random()),
                count=share(refused_total, REFUSED_WORKERS, k),
            )
            for k in range(REFUSED_WORKERS)
        ],
    }

    async def timed(name: str) -> None:
        await asyncio.gather(*jobs[name])
        finished[name] = round(time.monotonic() - started, 1)

    await asyncio.gather(*(timed(name) for name in jobs))
    return finished


async def one_legal_move(target: Target, token: str) -> tuple[dict, dict]:
    """Play a seat's first legal action; return the state before and the one after."""
    ws, first = await open_seat(target.url, target.origin, token, Tally())
    action = first["legal_actions"][0]
    await ws.send(json.dumps({"type": "act", "version": first["version"], "action": action}))
    after = await receive(ws, time.monotonic() + WAIT)
    await ws.close()
    return first, after


def test_a_hundred_thousand_malformed_messages_get_errors_and_change_nothing(
    school_class, own_server, celery_worker
):
    server, base = own_server
    print(f"fuzz seed {SEED} (FUZZ_SEED={SEED} repeats this run), {TOTAL} messages")
    session = open_session(school_class, table_size=2)
    seat_students(session, *[f"Fuzz{i:02d}" for i in range(STUDENTS)])
    actions.do_start_session(session)
    (stranger,) = seat_students(open_session(school_class, table_size=2), "Stranger")
    tables = quiet_tables(session)
    assert len(tables) >= STUDENTS // 4, "too few tables without a running timer"
    people: list[Participant] = []
    for seat in Seat.objects.filter(table__in=tables):
        assert seat.participant is not None  # no bots: every seat is a student's
        people.append(seat.participant)
    before = table_record(tables)
    # the seat tokens of the fuzzed tables and of another session's student
    tokens = [seat_token(person) for person in people] + [seat_token(stranger)]
    target = Target(f"{ws_base(base)}/ws/play/{session.join_code}/", base, Tally())
    tally = target.tally

    async def scenario():
        async def warm() -> int:
            await asyncio.sleep(10)  # the sockets opened, the first bursts answered
            return rss_kib(server.process.pid)

        started = time.monotonic()
        warm_rss, finished = await asyncio.gather(
            warm(), fuzz_all(target, people, tokens, random.Random(SEED))
        )
        return warm_rss, finished, time.monotonic() - started

    warm_rss, finished, elapsed = run(scenario)
    ratelimit.reset("127.0.0.1")
    deadline = time.monotonic() + WAIT
    while any(Seat.objects.filter(table__in=tables).values_list("connected", flat=True)):
        assert time.monotonic() < deadline, "a closed socket still counts on its seat"
        time.sleep(0.2)
    end_rss = rss_kib(server.process.pid)
    print(
        f"fuzz: {tally.total} messages in {elapsed:.1f} s (ended after {finished} s) over "
        f"{tally.connects} seat sockets, {tally.floods} floods: {dict(tally.outcomes)}; "
        f"closes {dict(tally.closes)}"
    )
    print(f"codes: {dict(tally.codes)}")
    print(f"kinds: {dict(tally.sent)}")
    print(f"uvicorn RSS: {warm_rss} KiB after warm-up, {end_rss} KiB at the end")

    assert tally.total >= TOTAL
    assert sum(tally.outcomes.values()) == tally.total
    assert tally.outcomes["unread"] <= tally.total // 50, tally.outcomes
    assert tally.outcomes["limited"] > 0 and tally.closes[CLOSE_NOT_UTF8] > 0
    assert tally.codes["stale_version"] and tally.codes["not_your_turn"], tally.codes
    assert "server_error" not in tally.codes and "unavailable" not in tally.codes
    # A socket dropped by the keepalive on an overloaded machine is tolerated, a few times
    # (none on an idle two-core machine; eleven of a hundred at a load average of 16).
    drops = max(MAX_KEEPALIVE_DROPS, tally.connects // 5)
    assert tally.closes[CLOSE_KEEPALIVE] <= drops, tally.closes
    assert table_record(tables) == before, "a malformed message changed a match"

    # a legal move still plays
    match = Match.objects.get(pk=tables[0].match_id)
    mover = load_state(match).to_move()[0]
    person = Seat.objects.get(table=tables[0], number=mover).participant
    assert person is not None
    first, after = run(one_legal_move, target, seat_token(person))
    assert after["type"] == "state" and after["version"] == first["version"] + 1
    match.refresh_from_db()
    assert match.version == first["version"] + 1
    # Memory: a leak of 100 bytes a message would be 10 MB; the slack covers the
    # allocator's arenas and caches that a busy minute leaves.
    assert end_rss - warm_rss < RSS_SLACK_KIB, (warm_rss, end_rss)


def test_a_text_frame_that_is_not_utf8_closes_the_socket_and_logs_no_error(
    school_class, live_server_url
):
    """uvicorn logged it as an exception with its traceback: one frame per connection let
    any client fill the server's error log (the harness fails a test on such a line)."""
    session = open_session(school_class)
    url = f"{ws_base(live_server_url)}/ws/play/{session.join_code}/"

    async def scenario():
        ws = await open_socket(url, live_server_url)
        await ws.send(b'{"type": "auth\xff"}', text=True)
        with pytest.raises(websockets.ConnectionClosed):
            await ws.recv()
        return ws.close_code

    assert run(scenario) == CLOSE_NOT_UTF8


JOIN_ANSWERS = {
    201: None,
    202: None,
    400: {"bad_request", "bad_nickname", "nickname_taken"},
    403: {"locked", "removed", "full"},
    404: {"unknown_session"},
    413: {"too_large"},
    429: {"rate_limited", "busy"},
}


def post_join(base: str, body: bytes, content_type: str) -> tuple[int, bytes]:
    request = urllib.request.Request(
        f"{base}/join/", data=body, headers={"Content-Type": content_type}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_the_join_api_answers_random_bodies_with_a_documented_error(school_class, live_server_url):
    """300 random JSON bodies (wrong types, huge and odd nicknames, other codes) on the
    real server: each gets a documented status and error code, never a server error."""
    session = open_session(school_class)
    rng = random.Random(SEED)
    fuzzer = Fuzzer(rng)
    print(f"join fuzz seed {SEED}")
    statuses: Counter[int] = Counter()
    for _ in range(300):
        roll = rng.random()
        if roll < 0.4:
            body: object = {
                "code": rng.choice([session.join_code, session.join_code.lower(), "ZZZZZZ"]),
                "nickname": fuzzer.text(rng.choice([0, 1, 3, 12, 40, 20_000])),
            }
        elif roll < 0.7:
            body = {"code": fuzzer.value(), "nickname": fuzzer.value(), fuzzer.text(3): 1}
        else:
            body = fuzzer.value()
        data = json.dumps(body).encode()
        if rng.random() < 0.1:
            data = data[: rng.randrange(len(data) + 1)] + rng.randbytes(3)
        status, answer = post_join(live_server_url, data, "application/json")
        assert status in JOIN_ANSWERS, (status, data[:200], answer[:300])
        codes = JOIN_ANSWERS[status]
        if codes is not None:
            assert json.loads(answer)["error"]["code"] in codes, answer[:300]
        statuses[status] += 1
    print(f"join answers: {dict(statuses)}")
    assert statuses[400] > 0
