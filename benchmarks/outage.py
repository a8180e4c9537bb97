"""Measure what a class sees when Redis goes away and comes back, on the real services.

    .venv/bin/python -m benchmarks.outage [--seed 3] [--keep] [--no-answer-timeout]

Starts its own Redis (append-only file), a Celery worker, beat and uvicorn on free
loopback ports, with a temporary SQLite database and VAR_DIR; opens a two-seat
Data-Tycoon session without bots, joins two students through ``POST /join/``, starts
it, and connects both play sockets with a client that behaves like the game page
(static/js/play/client.js): it reconnects after a close with backoff (500 ms * 2^attempt,
at most 5 s, the attempt count reset when the server greets the socket with ``hello``),
sends ``ping`` on open and ``resync`` after a reconnect, and drops the socket when a
move gets no answer in 8 s.

Scenario A, "stall": Redis is stopped (SIGSTOP) for 20 s; 3 s in, the student whose
turn it is acts; after SIGCONT, once Redis answers, a student acts again.
Scenario B, "restart": Redis is killed (SIGKILL), and after 10 s a new one starts on the
same port and data folder; both sockets should come back with the same match version.

Prints the timeline of every socket event, the errors in each service's log, and a
summary per scenario. Every process it starts is stopped, also on error or Ctrl-C.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import secrets
import signal
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import websockets
from websockets.asyncio.client import ClientConnection
from websockets.typing import Origin

from benchmarks.live import join
from benchmarks.stack import use_database
from config.services import (
    Service,
    asgi_service,
    celery_beat_service,
    celery_worker_service,
    free_port,
    port_open,
    redis_answers,
    redis_service,
    wait_for_celery,
    wait_until,
)

HOST = "127.0.0.1"
STALL_SECONDS = 20.0
ACT_INTO_STALL = 3.0
DOWN_SECONDS = 10.0
# A pause between the scenarios, so that the restart starts from quiet sockets.
SETTLE_SECONDS = 2.0
# How long a socket may take to come back before it counts as "never recovered".
RECOVERY_TIMEOUT = 35.0
# The scenarios' own bound; setup and teardown add about half a minute.
SCENARIOS_TIMEOUT = 140.0
# The browser client's constants (static/js/play/client.js).
MAX_BACKOFF = 5.0
ANSWER_TIMEOUT = 8.0
FINAL_CLOSE_CODES = {4000, 4001, 4403, 4429}
# No timer may fire and no bot may move during the measurement: a referee's move would
# change the match version that tells whether a student's move was lost.
MATCH_OPTIONS = {
    "time_mode": "turns",
    "call_seconds": 900,
    "counter_seconds": 900,
    "choice_seconds": 900,
}
# Seed 3 deals a game whose first turn opens a DATA! call window: its timer's Celery task
# waits in the worker (an ETA task, unacknowledged), as some timer does in most live games.
DEFAULT_SEED = 3
# What a service's log should not hold; ERROR and CRITICAL as the log level's word, not
# inside a name such as SERVER_CLOSED_CONNECTION_ERROR.
LOG_PATTERNS = (
    ("Traceback", re.compile(r"^Traceback")),
    ("Exception in ASGI application", re.compile(r"Exception in ASGI application")),
    ("ERROR", re.compile(r"(?<![\w_])ERROR(?![\w_])")),
    ("CRITICAL", re.compile(r"(?<![\w_])CRITICAL(?![\w_])")),
)

T0 = time.monotonic()


def now() -> float:
    """Seconds since the script started."""
    return time.monotonic() - T0


@dataclass
class Timeline:
    """Every event of the run, in order: (seconds, who, what)."""

    events: list[tuple[float, str, str]] = field(default_factory=list)

    def add(self, who: str, what: str) -> float:
        at = now()
        self.events.append((at, who, what))
        return at

    def print(self) -> None:
        print("\n=== Timeline (seconds since start) ===")
        for at, who, what in self.events:
            print(f"{at:8.2f}  {who:<8} {what}")


# Services


@dataclass
class Platform:
    """The services this run started, stopped in reverse order of starting."""

    folder: Path
    env: dict[str, str]
    redis_port: int
    web_port: int
    match_id: int = 0
    redis: Service | None = None
    others: list[Service] = field(default_factory=list)  # worker, beat, uvicorn
    dead: list[Service] = field(default_factory=list)  # killed Redis servers

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.web_port}"

    def log(self, name: str) -> Path:
        return self.folder / "logs" / f"{name}.log"

    def start_redis(self) -> Service:
        redis = redis_service(self.redis_port, self.folder / "redis", persist=True)
        redis.log_path = self.log("redis")
        self.redis = redis.start()
        return redis

    def start(self) -> None:
        """Start Redis, the worker, beat and uvicorn; wait until each answers."""
        redis = self.start_redis()
        wait_until(lambda: redis_answers(self.env["REDIS_URL"]), 15, "Redis", [redis])
        for service in (
            celery_worker_service(self.env),
            celery_beat_service(self.env, self.folder / "celerybeat-schedule"),
            asgi_service(self.env, HOST, self.web_port),
        ):
            service.log_path = self.log(service.name)
            self.others.append(service.start())
        everything = [redis, *self.others]
        wait_until(lambda: port_open(HOST, self.web_port), 30, "uvicorn", everything)
        wait_for_celery(self.env, 40, everything)

    def stop(self, timeline: Timeline) -> None:
        """Stop uvicorn, beat, the worker, then Redis (resumed first if stopped); put
        on the timeline how long each took (10 s means SIGTERM was not enough)."""
        for service in [*reversed(self.others), self.redis, *self.dead]:
            if service is None:
                continue
            service.signal(signal.SIGCONT)  # a stopped Redis would not see SIGTERM
            started = time.monotonic()
            was_alive = service.alive()
            with contextlib.suppress(Exception):
                service.stop()
            if was_alive:
                took = time.monotonic() - started
                timeline.add("bench", f"stopped {service.name} in {took:.1f} s")


def open_class(platform: Platform, seed: int) -> tuple[str, int, list[dict]]:
    """Create a teacher, a class and a started two-seat session dealt from seed; return
    its join code, the match id and the two students' join answers."""
    from django.contrib.auth import get_user_model

    import games.matches
    from classroom.actions import do_create_class, do_create_session, do_start_session
    from classroom.models import Table

    # The match is dealt in this process: a fixed seed makes every run play the same game.
    games.matches.new_seed = lambda: seed

    teacher = get_user_model().objects.create_user(
        "outage-teacher", password=secrets.token_urlsafe(16)
    )
    session = do_create_session(
        do_create_class(teacher, "Outage"),
        game="data_tycoon",
        variant="standard",
        language="en",
        table_size=2,
        bots_fill=False,
        options=MATCH_OPTIONS,
    )
    students = [join(platform.base, session.join_code, name) for name in ("Ana", "Ben")]
    do_start_session(session)
    return session.join_code, Table.objects.get(session=session).match_id, students


def match_version(match_id: int) -> int:
    """Read the match's stored version from the database."""
    from games.models import Match

    return Match.objects.values_list("version", flat=True).get(pk=match_id)


# The student's client


@dataclass
class Received:
    """A state a socket got: when, which version, on which connection."""

    at: float
    version: int
    connection: int


@dataclass
class Move:
    """An act a student sent, and what came back to it."""

    sent: float
    version: int
    answers: list[tuple[float, str]] = field(default_factory=list)
    done: bool = False

    def answer(self, at: float, what: str, final: bool = True) -> None:
        if not self.done:
            self.answers.append((at, what))
            self.done = final

    @property
    def played(self) -> bool:
        return any(what.startswith("state") for _, what in self.answers)

    def describe(self) -> str:
        shown = [f"{what} after {at - self.sent:.2f} s" for at, what in self.answers]
        return "; ".join(shown) or "no answer"


class Student:
    """One play socket that behaves like the game page's TableConnection."""

    def __init__(
        self, name: str, url: str, origin: str, timeline: Timeline, drop: bool, *, token: str
    ) -> None:
        self.name, self.url, self.origin, self.timeline = name, url, origin, timeline
        self.token = token  # sent as the first message, never in the URL
        self.drop_on_silence = drop
        self.ws: ClientConnection | None = None
        self.connection = 0  # connections opened so far
        self.closes: list[tuple[float, int | None]] = []
        self.reconnects = 0  # connection attempts after the first
        self.attempt = 0
        self.state: dict | None = None
        self.states: list[Received] = []
        self.errors: list[tuple[float, str | None]] = []  # None: an error with no code
        self.moves: list[Move] = []
        self.busy_since: float | None = None  # the page's "busy": a move awaits an answer
        self.dropped = False
        self.stopped = False

    def note(self, what: str) -> float:
        return self.timeline.add(self.name, what)

    @property
    def open(self) -> bool:
        return self.ws is not None

    async def run(self) -> None:
        """Connect, read, and reconnect with backoff until stopped or finally closed."""
        while not self.stopped:
            if self.connection or self.closes:
                self.reconnects += 1
            code = await self.session()
            if self.stopped or code in FINAL_CLOSE_CODES:
                return
            # The page reconnects at once after dropping a silent socket.
            delay = 0.0 if self.dropped else min(MAX_BACKOFF, 0.5 * 2**self.attempt)
            self.dropped = False
            self.attempt += 1
            self.note(f"reconnect attempt {self.attempt} in {delay:.1f} s")
            await asyncio.sleep(delay)

    async def session(self) -> int | None:
        """One connection, from connecting to its close; return the close code."""
        try:
            ws = await websockets.connect(
                self.url,
                origin=Origin(self.origin),
                max_size=2**23,
                open_timeout=10,
                close_timeout=2,
                ping_interval=None,  # a browser sends no pings of its own
            )
        except (OSError, TimeoutError, websockets.InvalidHandshake) as error:
            self.closes.append((self.note(f"connect failed: {error!r}"), None))
            return None
        self.ws = ws
        self.connection += 1
        self.note(f"open (connection {self.connection})")
        watchdog = asyncio.create_task(self.watch(ws))
        try:
            # The server may close at once ("try again": Redis is away): as any close.
            await ws.send(json.dumps({"type": "auth", "token": self.token}))
            await ws.send(json.dumps({"type": "ping"}))
            if self.connection > 1:
                await ws.send(json.dumps({"type": "resync"}))
                self.note("sent resync")
            async for raw in ws:
                self.receive(json.loads(raw))
        except websockets.ConnectionClosed:
            pass
        finally:
            watchdog.cancel()
            self.ws = None
        code = ws.close_code
        at = self.note(f"closed {code} {ws.close_reason or ''}".rstrip())
        self.closes.append((at, code))
        if self.moves:
            self.moves[-1].answer(at, f"socket closed ({code})")
        self.busy_since = None
        return code

    async def watch(self, ws: ClientConnection) -> None:
        """Drop the socket when a move gets no answer in time, as the page does."""
        while True:
            await asyncio.sleep(0.1)
            busy = self.busy_since
            if self.drop_on_silence and busy is not None and now() - busy > ANSWER_TIMEOUT:
                self.busy_since = None
                self.dropped = True
                at = self.note(f"no answer in {ANSWER_TIMEOUT:.0f} s: dropping the socket")
                self.moves[-1].answer(at, f"no answer in {ANSWER_TIMEOUT:.0f} s, dropped")
                await ws.close()
                return

    def receive(self, message: dict) -> None:
        kind = message.get("type")
        if kind == "hello":
            self.attempt = 0  # as the page does: the server greeted the socket
        move = self.moves[-1] if self.moves else None
        if kind == "state":
            version = message["version"]
            legal = len(message.get("legal_actions") or [])
            at = self.note(f"state v{version} ({legal} legal actions)")
            self.states.append(Received(at, version, self.connection))
            if self.state is None or version >= self.state["version"]:
                self.state = message
            if move is not None and version > move.version:
                move.answer(at, f"state v{version}")
                self.busy_since = None
        elif kind == "error":
            code = message.get("code")
            at = self.note(f"error {code} (version {message.get('version')})")
            self.errors.append((at, code))
            if move is not None:
                # "unavailable" may answer another message handled meanwhile (a
                # presence notice); the move's own answer follows.
                move.answer(at, f"error {code}", final=code != "unavailable")
            self.busy_since = None
        else:
            self.note(str(kind))

    async def act(self) -> Move:
        """Send the first legal action of the last state, with its version."""
        assert self.ws is not None and self.state is not None
        version = self.state["version"]
        action = self.state["legal_actions"][0]
        # Recorded before sending, so that no answer can come before its move.
        move = Move(self.note(f"act on v{version}: {action}"), version)
        self.moves.append(move)
        self.busy_since = move.sent
        try:
            await self.ws.send(json.dumps({"type": "act", "version": version, "action": action}))
        except websockets.ConnectionClosed:
            # The server closed the socket as the move left (Redis back: "try again"): the
            # page's move fails the same way, and the student plays it on the new socket.
            self.busy_since = None
            move.answer(self.note("socket closed as the move was sent"), "socket closed")
        return move

    def first_state_after(self, moment: float, version: int = -1) -> Received | None:
        """The first state received at or after moment with a version above version."""
        return next((s for s in self.states if s.at >= moment and s.version > version), None)

    async def stop(self) -> None:
        self.stopped = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()


async def until(predicate: Callable[[], object], timeout: float) -> bool:
    """Poll predicate every 50 ms; tell whether it held before timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        await asyncio.sleep(0.05)
    return bool(predicate())


async def redis_back(platform: Platform, timeout: float) -> float | None:
    """Wait until Redis answers PING; return when, or None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await asyncio.to_thread(redis_answers, platform.env["REDIS_URL"]):
            return now()
        await asyncio.sleep(0.1)
    return None


def mover(students: list[Student]) -> Student | None:
    """The open student whose last state offers actions."""
    return next((s for s in students if s.open and s.state and s.state.get("legal_actions")), None)


async def play_after(students: list[Student], timeout: float) -> dict:
    """Once some student may act, act (again after a refusal, as a student would);
    return the moves sent, the version the played one created, and when each socket
    got a state of that version."""
    deadline = time.monotonic() + timeout
    moves: list[Move] = []
    created = None
    while created is None and time.monotonic() < deadline:
        if not await until(lambda: mover(students) is not None, deadline - time.monotonic()):
            break
        student = mover(students)
        assert student is not None  # until() just found one, and nothing ran since
        move = await student.act()
        moves.append(move)

        def answered(m: Move = move) -> bool:  # this move's, bound now
            return m.done

        await until(answered, min(ANSWER_TIMEOUT + 1, deadline - time.monotonic()))
        if move.played:
            created = move.version + 1
        else:
            await asyncio.sleep(0.5)
    arrived: dict[str, float | None] = {s.name: None for s in students}
    if created is not None:
        sent = moves[-1].sent
        await until(
            lambda: all(s.first_state_after(sent, created - 1) for s in students),
            max(0.1, deadline - time.monotonic()),
        )
        for s in students:
            got = s.first_state_after(sent, created - 1)
            arrived[s.name] = got.at if got else None
    return {"moves": moves, "created": created, "arrived": arrived}


# The scenarios


async def stall(platform: Platform, students: list[Student], timeline: Timeline) -> dict:
    """Scenario A: Redis stops answering for STALL_SECONDS; a move is sent during it."""
    redis = platform.redis
    student = mover(students)
    assert redis is not None and student is not None, "no student may act before the stall"
    reconnects = {s.name: s.reconnects for s in students}
    stopped_at = timeline.add("bench", f"A: SIGSTOP Redis for {STALL_SECONDS:.0f} s")
    redis.signal(signal.SIGSTOP)
    try:
        await asyncio.sleep(ACT_INTO_STALL)
        move = await student.act()
        await asyncio.sleep(max(0.0, stopped_at + STALL_SECONDS - now()))
    finally:
        redis.signal(signal.SIGCONT)
    timeline.add("bench", "A: SIGCONT Redis")
    back = await redis_back(platform, 15)
    timeline.add("bench", f"A: Redis answers: {back is not None}")
    # A late answer to the mid-stall move still counts as its answer.
    await until(lambda: move.done, 5)
    stored = await asyncio.to_thread(match_version, platform.match_id)
    played = await play_after(students, RECOVERY_TIMEOUT)
    final = await asyncio.to_thread(match_version, platform.match_id)
    expected = move.version + (1 if move.played else 0) + (1 if played["created"] else 0)
    return {
        "name": "A stall",
        "back": back,
        "fresh": {s.name: s.first_state_after(back or now()) for s in students},
        "mid_move": move,
        "mover": student.name,
        "stored_after_stall": stored,
        "played": played,
        "reconnects": {s.name: s.reconnects - reconnects[s.name] for s in students},
        "final": final,
        "lost": final != expected,
        "expected": expected,
    }


async def restart(platform: Platform, students: list[Student], timeline: Timeline) -> dict:
    """Scenario B: Redis is killed, and a new one starts on the same port and data."""
    assert platform.redis is not None
    await until(lambda: all(s.open and s.state for s in students), RECOVERY_TIMEOUT)
    before = await asyncio.to_thread(match_version, platform.match_id)
    reconnects = {s.name: s.reconnects for s in students}
    worker_log = platform.log("celery-worker").read_text(errors="replace").splitlines()
    timers = sum("fire_timer[" in line and line.endswith("received") for line in worker_log)
    timeline.add("bench", f"B: SIGKILL Redis (match v{before} stored)")
    platform.redis.kill()
    platform.dead.append(platform.redis)
    platform.redis = None
    await asyncio.sleep(DOWN_SECONDS)
    platform.start_redis()
    timeline.add("bench", "B: new Redis started")
    back = await redis_back(platform, 15)
    timeline.add("bench", f"B: Redis answers: {back is not None}")
    since = back or now()
    await until(
        lambda: all(s.open and s.first_state_after(since) for s in students), RECOVERY_TIMEOUT
    )
    fresh = {s.name: s.first_state_after(since) for s in students}
    after = await asyncio.to_thread(match_version, platform.match_id)
    reconnected = {s.name: s.reconnects - reconnects[s.name] for s in students}
    # A move after the restart shows whether the sockets still hear their table.
    played = await play_after(students, RECOVERY_TIMEOUT)
    worker = await asyncio.to_thread(celery_answers, platform.env, 20)
    timeline.add("bench", f"B: Celery worker answers a ping: {worker}")
    lost = after != before or any(got is None or got.version != before for got in fresh.values())
    return {
        "name": "B restart",
        "back": back,
        "before": before,
        "after": after,
        "fresh": fresh,
        "reconnects": reconnected,
        "played": played,
        "worker": worker,
        "timers": timers,
        "lost": lost,
    }


def celery_answers(env: dict[str, str], timeout: float) -> str:
    """Ping the Celery workers until one answers; say when, or why none did."""
    from celery import Celery

    started = time.monotonic()
    problem = "no answer"
    app = Celery(broker=env["REDIS_URL"])
    try:
        while time.monotonic() - started < timeout:
            try:
                if app.control.ping(timeout=0.5):
                    return f"yes, after {time.monotonic() - started:.1f} s of pinging"
            except Exception as error:  # a broken broker connection: ask again
                problem = f"{error.__class__.__name__}: {error}"
            time.sleep(0.5)
    finally:
        app.close()
    return f"NO within {timeout:.0f} s ({problem})"


async def watch_services(platform: Platform, timeline: Timeline) -> None:
    """Put a service that exits on its own on the timeline."""
    told: set[int] = set()
    while True:
        for service in [*platform.others, platform.redis]:
            if service is None or service.process is None or service.alive():
                continue
            if service.process.pid not in told:
                told.add(service.process.pid)
                code = service.process.returncode
                timeline.add("bench", f"{service.name} EXITED on its own (code {code})")
        await asyncio.sleep(0.25)


async def scenarios(platform: Platform, students: list[Student], timeline: Timeline) -> list:
    """Connect the sockets, run both scenarios, close the sockets."""
    tasks = [asyncio.create_task(s.run()) for s in students]
    tasks.append(asyncio.create_task(watch_services(platform, timeline)))
    try:
        ready = await until(lambda: all(s.state for s in students), 20)
        if not ready or mover(students) is None:
            raise RuntimeError("the sockets got no playable state")
        results = [await stall(platform, students, timeline)]
        await asyncio.sleep(SETTLE_SECONDS)
        results.append(await restart(platform, students, timeline))
        return results
    finally:
        for s in students:
            await s.stop()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


# The report


def traceback_ends(lines: list[str]) -> list[str]:
    """The exception line that ends each traceback (the first line after its frames)."""
    ends, inside = [], False
    for line in lines:
        if line.startswith("Traceback (most recent call last)"):
            inside = True
        elif inside and line and not line[0].isspace():
            ends.append(line)
            inside = False
    return ends


def scan_logs(platform: Platform) -> None:
    """Count the lines of each service's log that would be defects; show the first,
    and which exceptions ended the tracebacks."""
    print("\n=== Service logs (lines that would be defects) ===")
    for path in sorted((platform.folder / "logs").glob("*.log")):
        lines = path.read_text(errors="replace").splitlines()
        hits = {
            name: [i for i, line in enumerate(lines) if rx.search(line)]
            for name, rx in LOG_PATTERNS
        }
        shown = ", ".join(f"{name}: {len(found)}" for name, found in hits.items())
        print(f"{path.stem:<14} {len(lines):5d} lines; {shown}")
        for name, found in hits.items():
            if found:
                print(f"    first {name} (line {found[0] + 1}): {lines[found[0]][:220]}")
        ends: dict[str, int] = {}
        for line in traceback_ends(lines):
            ends[line[:220]] = ends.get(line[:220], 0) + 1
        for line, count in ends.items():
            print(f"    traceback ends x{count}: {line}")


def seconds(value: float | None) -> str:
    return "never" if value is None else f"{value:.2f} s"


def since(moment: float | None, at: float | None) -> str:
    return seconds(None if moment is None or at is None else at - moment)


def summary(results: list[dict], students: list[Student]) -> None:
    """Print the details of each scenario, then one table."""
    print("\n=== Summary ===")
    rows = []
    for r in results:
        back, played = r["back"], r["played"]
        print(f"\n{r['name']}: Redis answered again at {seconds(back)} after the start")
        answer = "-"
        if "mid_move" in r:
            move = r["mid_move"]
            answer = move.describe()
            print(f"  mid-stall move by {r['mover']} on v{move.version}: {answer}")
            print(f"  stored version right after the stall: v{r['stored_after_stall']}")
            print(f"  stored version at the end: v{r['final']} (expected v{r['expected']})")
        else:
            print(f"  stored match version before the kill v{r['before']}, after v{r['after']}")
            print(f"  timer tasks the worker had received before the kill: {r['timers']}")
            print(f"  Celery worker answers a ping after the restart: {r['worker']}")
        for name, got in r["fresh"].items():
            shown = "none" if got is None else f"v{got.version}, {since(back, got.at)}"
            print(f"  {name}: first state after Redis was back: {shown}")
        tries = "; ".join(m.describe() for m in played["moves"]) or "no move sent"
        print(f"  move after recovery: created v{played['created']}; answers: {tries}")
        for s in students:
            rows.append(
                [
                    r["name"],
                    s.name,
                    since(back, r["fresh"][s.name] and r["fresh"][s.name].at),
                    since(back, played["arrived"][s.name]),
                    str(r["reconnects"][s.name]),
                    "",
                    "",
                ]
            )
        rows[-len(students)][5:] = [answer, "YES" if r["lost"] else "no"]
    header = [
        "scenario",
        "socket",
        "1st state after back",
        "next move's state",
        "reconnects",
        "mid-stall move answer",
        "move lost",
    ]
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    print()
    for row in [header, *rows]:
        print("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths, strict=True)))
    print("(times from the moment Redis answered PING again)")
    print("\nPer socket over the run:")
    for s in students:
        codes = dict(Counter(code for _, code in s.closes))
        errors = dict(Counter(code for _, code in s.errors))
        print(
            f"  {s.name}: {s.connection} opens, {s.reconnects} reconnect attempts, "
            f"close codes {codes}, {len(s.states)} states, errors {errors}"
        )


# Main


def environment(folder: Path, redis_port: int) -> dict[str, str]:
    """The services' environment: everything in the temporary folder, loopback only."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        VAR_DIR=str(folder / "var"),
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        REDIS_URL=f"redis://{HOST}:{redis_port}/0",
        HOST=HOST,
        PYTHONUNBUFFERED="1",
    )
    return env


def run(folder: Path, drop: bool, seed: int) -> None:
    """Start the platform, open the class, run the scenarios, stop, report."""
    redis_port, web_port = free_port(), free_port()
    env = environment(folder, redis_port)
    platform = Platform(folder, env, redis_port, web_port)
    timeline = Timeline()
    results: list[dict] = []
    students: list[Student] = []
    try:
        use_database(env)
        timeline.add("bench", "starting services")
        platform.start()
        timeline.add("bench", f"services up: uvicorn {platform.base}, Redis :{redis_port}")
        code, platform.match_id, joined = open_class(platform, seed)
        timeline.add("bench", f"session {code} started, match {platform.match_id}")
        ws_base = platform.base.replace("http://", "ws://")
        students = [
            Student(
                j["nickname"],
                f"{ws_base}{j['ws']}",
                platform.base,
                timeline,
                drop,
                token=j["token"],
            )
            for j in joined
        ]
        results = asyncio.run(
            asyncio.wait_for(scenarios(platform, students, timeline), SCENARIOS_TIMEOUT)
        )
    finally:
        timeline.add("bench", "stopping services")
        platform.stop(timeline)
        timeline.add("bench", "stopped")
        services = [*platform.others, platform.redis, *platform.dead]
        alive = [s.name for s in services if s is not None and s.alive()]
        timeline.print()
        scan_logs(platform)
        if alive:
            print(f"\nStill running after stop: {alive}")
    summary(results, students)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument(
        "--no-answer-timeout",
        action="store_true",
        help="do not drop a socket whose move got no answer in 8 s",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=DEFAULT_SEED,
        help=f"the deal (default {DEFAULT_SEED}: a DATA! call window opens at once)",
    )
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="dp-outage-"))
    try:
        run(folder, drop=not args.no_answer_timeout, seed=args.seed)
    finally:
        if args.keep:
            print(f"\nLogs and data kept in {folder}")
        else:
            import shutil

            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
