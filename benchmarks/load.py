"""A district's morning on one machine: K classes of 30 students at a human pace.

    .venv/bin/python -m benchmarks.load [--students 300|1000|2000] [--seconds 60]
        [--think 1.0 4.0] [--asgi 1] [--variant expert] [--postgres] [--dashboards]
        [--hidden-dashboards] [--database-latency MS]

Starts its own Redis, Celery worker, beat and uvicorn (``--asgi`` processes, each on its
own loopback port) with a temporary SQLite database (``--postgres``: a throwaway
PostgreSQL server, the tests' one; ``--database-latency``: reached through a relay that
adds that round trip to each query, as a database on another machine), opens one
Data-Tycoon session per 30 students (tables of 4, bots in the empty seats), joins every
student through ``POST /join/``, starts the sessions, and connects every student's play
socket (the students are spread over the uvicorn processes). Each student is a client
of the table protocol (docs/protocol.md): when its state offers legal actions it thinks for a time
drawn per action (``--think``, uniform, in seconds), then sends ``act`` with the
version it saw last and a random legal action of that state. With ``--dashboards``
each session's teacher (logged in) keeps the live dashboard's socket open, as in a
class, and its updates are counted (``--hidden-dashboards``: the same, each tab hidden,
as when the teacher shows the projector view).

After ``--seconds`` of play (counted once every socket has its first state) the
students stop and it prints:

- act-to-every-view latency: from a student's ``act`` to the moment every student
  socket at that table has a ``state`` of that version or newer (p50, p95, p99, max);
- the accepted actions per second (students, bots and timers, from the matches' stored
  versions) and the messages the students received per second; the bytes of a state;
- how long the students' sockets took to connect, at most CONNECTING_AT_ONCE at once;
- the errors: refusals by code, sockets closed by the server, failed connections;
- with ``--database-latency``, the round trips to the database per accepted action;
- the CPU time and peak memory of every server process, and the CPU time per action;
- a check of every match's action log: one entry per version, none missing or doubled.

Loopback only, bounded in time, stops every process it started, also on error or Ctrl-C.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import os
import random
import secrets
import shutil
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TypeVar

import orjson
import psycopg
import redis
import websockets
from tqdm import tqdm
from websockets.asyncio.client import ClientConnection
from websockets.typing import Origin

from benchmarks.latency_proxy import COUNT_EVERY
from benchmarks.stack import use_database
from config.services import (
    Service,
    asgi_service,
    celery_beat_service,
    celery_worker_service,
    free_port,
    port_open,
    postgres_answers,
    postgres_service,
    redis_answers,
    redis_service,
    wait_for_celery,
    wait_until,
)

HOST = "127.0.0.1"
CLASS_SIZE = 30
TABLE_SIZE = 4
LANGUAGES = ("en", "es", "fr", "ru")
# No Time card on a real-time clock: every timer of the game is then a short window.
MATCH_OPTIONS = {"time_mode": "turns"}
# How long a socket's first state may take, and a whole run's setup, before giving up.
CONNECT_TIMEOUT = 120.0
# a class's devices connect a few at a time, not all at once
CONNECTING_AT_ONCE = 50
# An action sent this close to the end may see its views after the measurement stops.
TAIL_SECONDS = 3.0
CLK_TCK = os.sysconf("SC_CLK_TCK")
# Redis's warnings at its start about the machine's kernel settings (sysctl), which a
# benchmark does not change: not counted as the platform's warnings.
REDIS_HOST_ADVICE = ("overcommit_memory", "Transparent Huge Pages", "TCP backlog setting")

T = TypeVar("T")


# The server's processes


def environment(folder: Path, redis_port: int) -> dict[str, str]:
    """The services' environment: everything in the temporary folder, loopback only; the
    per-address join limits lifted, since every student here joins from 127.0.0.1."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        VAR_DIR=str(folder / "var"),
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        REDIS_URL=f"redis://{HOST}:{redis_port}/0",
        HOST=HOST,
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
        JOINS_PER_BURST="1000000",
        JOINS_PER_MINUTE="1000000",
        MAX_STUDENTS_PER_ADDRESS=str(CLASS_SIZE + 10),
        JOIN_RATE_LIMIT="1000000",
        JOIN_ADDRESS_RATE_LIMIT="1000000",
    )
    return env


@dataclass
class Platform:
    """Redis, a worker, beat and the uvicorn processes, stopped in reverse order."""

    folder: Path
    env: dict[str, str]
    redis_port: int
    web_ports: list[int]
    services: list[Service] = field(default_factory=list)
    postgres_folder: Path | None = None  # --postgres: a throwaway server's folder
    database_latency: float = 0.0  # --database-latency: ms added to each round trip

    @classmethod
    def for_run(cls, args: argparse.Namespace, prefix: str) -> Platform:
        """Return the platform of a run of ``args`` (``platform_arguments``), in temporary
        folders named with ``prefix``, its ASGI ports chosen."""
        folder = Path(tempfile.mkdtemp(prefix=f"{prefix}-"))
        redis_port = free_port()
        # PostgreSQL, run as its own user when this runs as root, gets a folder it may enter.
        postgres = Path(tempfile.mkdtemp(prefix=f"{prefix}-pg-")) if args.postgres else None
        return cls(
            folder,
            environment(folder, redis_port),
            redis_port,
            [free_port() for _ in range(args.asgi)],
            postgres_folder=postgres,
            database_latency=args.database_latency,
        )

    def remove_folders(self, logs_to: str | None = None) -> None:
        """Remove the run's folders, once its services stopped (``logs_to``: copy the
        services' logs there first)."""
        if logs_to:
            shutil.copytree(self.folder / "logs", logs_to, dirs_exist_ok=True)
        shutil.rmtree(self.folder, ignore_errors=True)
        if self.postgres_folder is not None:
            shutil.rmtree(self.postgres_folder, ignore_errors=True)

    def start_database(self) -> None:
        """With ``--postgres``, start a throwaway PostgreSQL server (the tests' settings:
        durability off) and create the benchmark's database; else SQLite needs nothing."""
        if self.postgres_folder is None:
            return
        port = free_port()
        self.add(postgres_service(self.postgres_folder, port))
        wait_until(lambda: postgres_answers(port), 30, "PostgreSQL", self.services)
        with psycopg.connect(
            host=HOST, port=port, user="postgres", dbname="postgres", autocommit=True
        ) as connection:
            connection.execute("CREATE DATABASE dataprotect")
        if self.database_latency:
            port = self.start_latency_proxy(port)
        self.env["DATABASE_URL"] = f"postgres://postgres@{HOST}:{port}/dataprotect"

    @property
    def round_trips_file(self) -> Path:
        return self.folder / "database-round-trips"

    def database_traffic(self) -> tuple[int, int] | None:
        """Return the round trips to the database and the connections opened to it so
        far (``--database-latency`` only: the relay counts what its clients send, and
        each query waits for its answer)."""
        if not self.database_latency:
            return None
        time.sleep(2 * COUNT_EVERY)  # the relay rewrites its count this often
        trips, connections = self.round_trips_file.read_text().split()
        return int(trips), int(connections)

    def start_latency_proxy(self, database_port: int) -> int:
        """Put ``benchmarks.latency_proxy`` between every process and PostgreSQL, as a
        database on another machine; print the round trip it adds; return its port."""
        port = free_port()
        argv = [sys.executable, "-m", "benchmarks.latency_proxy", "--listen", str(port)]
        argv += ["--to", str(database_port), "--ms", str(self.database_latency)]
        argv += ["--count", str(self.round_trips_file)]
        self.add(Service("latency-proxy", argv, env=self.env))
        wait_until(lambda: port_open(HOST, port), 15, "the latency proxy", self.services)
        direct, relayed = round_trip_ms(database_port), round_trip_ms(port)
        print(
            f"database round trip (SELECT 1): {direct:.2f} ms direct, {relayed:.2f} ms "
            f"through the latency proxy (--database-latency {self.database_latency:g})"
        )
        return port

    def start(self) -> None:
        redis = redis_service(self.redis_port, self.folder / "redis", persist=False)
        self.add(redis)
        wait_until(lambda: redis_answers(self.env["REDIS_URL"]), 15, "Redis", self.services)
        self.add(celery_worker_service(self.env))
        self.add(celery_beat_service(self.env, self.folder / "celerybeat-schedule"))
        for n, port in enumerate(self.web_ports):
            service = asgi_service(self.env, HOST, port)
            service.name = f"asgi-{n + 1}"
            self.add(service)
        for port in self.web_ports:
            wait_until(partial(port_open, HOST, port), 30, "uvicorn", self.services)
        wait_for_celery(self.env, 60, self.services)

    def add(self, service: Service) -> None:
        service.log_path = self.folder / "logs" / f"{service.name}.log"
        self.services.append(service.start())

    def stop(self, but: tuple[str, ...] = ()) -> None:
        """Stop every service (``but`` those of these names) in reverse order."""
        for service in reversed(self.services):
            if service.name not in but:
                with contextlib.suppress(Exception):
                    service.stop()

    def bases(self) -> list[str]:
        return [f"http://{HOST}:{port}" for port in self.web_ports]

    def error_lines(self) -> dict[str, int]:
        """Count each service log's error lines (tracebacks, ERROR, CRITICAL)."""
        return self._lines(
            lambda line: "Traceback" in line or " ERROR" in line or "CRITICAL" in line
        )

    def warning_lines(self) -> dict[str, int]:
        """Count each service log's warnings (a message the channel layer could not send),
        less Redis's advice on the machine's kernel settings at its start (the host's
        business, not the platform's)."""
        return self._lines(
            lambda line: " WARNING" in line and not any(a in line for a in REDIS_HOST_ADVICE)
        )

    def _lines(self, wanted: Callable[[str], bool]) -> dict[str, int]:
        counts: dict[str, int] = {}
        for service in self.services:
            if service.log_path is None or not service.log_path.exists():
                continue
            text = service.log_path.read_text(errors="replace")
            found = sum(1 for line in text.splitlines() if wanted(line))
            if found:
                counts[service.name] = found
        return counts


def round_trip_ms(port: int, queries: int = 200) -> float:
    """Return the median time of a ``SELECT 1`` on PostgreSQL at ``port``, in ms."""
    with psycopg.connect(host=HOST, port=port, user="postgres", dbname="postgres") as db:
        times = []
        for _ in range(queries):
            start = time.perf_counter()
            db.execute("SELECT 1").fetchone()
            times.append(time.perf_counter() - start)
    return 1000 * sorted(times)[queries // 2]


@dataclass
class Usage:
    """CPU ticks and resident memory of every process of every service (pool children
    included: a service runs in its own process group)."""

    ticks: dict[str, int] = field(default_factory=dict)
    peak_kib: dict[str, int] = field(default_factory=dict)
    redis: dict[str, int] = field(default_factory=dict)  # Redis' own counters
    # --database-latency: the round trips to the database and the connections opened
    # to it so far (the relay's counts)
    database_traffic: tuple[int, int] | None = None


def group_processes(pgid: int) -> list[int]:
    """Return the processes of a service: its process group, and its leader's children
    that left it (PostgreSQL's backends each start a session of their own)."""
    pids = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry.name}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if pgid in (int(fields[2]), int(fields[1])):  # after the name: state, ppid, pgrp
            pids.append(int(entry.name))
    return pids


def _ticks(stat: Path) -> int:
    """Return the CPU ticks (user + system) in a process's or thread's ``stat`` file."""
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def process_usage(pid: int) -> tuple[int, int]:
    """Return a process's CPU ticks (user + system) and resident KiB (0, 0 when gone)."""
    try:
        ticks = _ticks(Path(f"/proc/{pid}/stat"))
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0, 0
    rss = next(
        (int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0
    )
    return ticks, rss


def main_thread_ticks(pid: int) -> int:
    """Return the CPU ticks (user + system) of a process's main thread, where uvicorn runs
    its event loop (its other threads run the synchronous work handed to them); 0 when
    gone."""
    try:
        return _ticks(Path(f"/proc/{pid}/task/{pid}/stat"))
    except OSError:
        return 0


def sample(services: list[Service], usage: Usage) -> None:
    """Add the services' current ticks and memory to ``usage`` (per process name)."""
    for service in services:
        if service.process is None:
            continue
        for pid in group_processes(service.process.pid):
            name = service.name if pid == service.process.pid else f"{service.name} child {pid}"
            ticks, rss = process_usage(pid)
            usage.ticks[name] = ticks
            usage.peak_kib[name] = max(usage.peak_kib.get(name, 0), rss)


def redis_counters(url: str) -> dict[str, int]:
    """Return the connections Redis accepted and the commands it ran so far, in all and
    by command (``cmdstat_<name>``)."""
    with redis.Redis.from_url(url) as client:
        stats = client.info("stats")
        by_command = client.info("commandstats")
    counters = {
        key: stats[key] for key in ("total_connections_received", "total_commands_processed")
    }
    # redis-py names them cmdstat_<name> (the server's own names), each with its calls.
    counters.update({name: row["calls"] for name, row in by_command.items()})
    return counters


def busiest_commands(
    start: dict[str, int], end: dict[str, int], top: int = 8
) -> list[tuple[str, int]]:
    """Return the ``top`` commands Redis ran most between two ``redis_counters``, with
    their counts."""
    calls = {
        key.removeprefix("cmdstat_"): end[key] - start.get(key, 0)
        for key in end
        if key.startswith("cmdstat_")
    }
    return sorted(calls.items(), key=lambda item: -item[1])[:top]


# Setting up the classes (in this process, on the same database)


def post_join(base: str, code: str, nickname: str) -> dict:
    request = urllib.request.Request(
        base + "/join/",
        data=json.dumps({"code": code, "nickname": nickname}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.load(response)
    except urllib.error.HTTPError as refused:
        raise RuntimeError(f"could not join {code}: {refused.read()[:300]!r}") from refused


def open_classes(
    bases: list[str],
    students: int,
    variant: str,
    *,
    class_size: int = CLASS_SIZE,
    table_size: int = TABLE_SIZE,
    options: dict | None = None,
) -> list[tuple[dict, str]]:
    """Open one session per ``class_size`` students, join them over HTTP, start every
    session; return each student's join answer with the base URL of the uvicorn it
    talks to. ``options``: the game's (default MATCH_OPTIONS)."""
    from classroom.actions import do_start_session

    sessions, plan = create_sessions(
        students, variant, class_size=class_size, table_size=table_size, options=options
    )
    joined = []
    with (
        ThreadPoolExecutor(8) as pool,
        tqdm(total=len(plan), desc="joining", unit="student") as bar,
    ):
        futures = [
            (bases[n % len(bases)], pool.submit(post_join, bases[n % len(bases)], code, name))
            for n, (code, name) in enumerate(plan)
        ]
        for base, future in futures:
            joined.append((future.result(), base))
            bar.update()
    for session in sessions:
        do_start_session(session)
    return joined


def create_sessions(
    students: int,
    variant: str,
    *,
    class_size: int = CLASS_SIZE,
    table_size: int = TABLE_SIZE,
    options: dict | None = None,
) -> tuple[list, list[tuple[str, str]]]:
    """Create the teacher ``load-teacher`` and one session of theirs per ``class_size``
    students; return the sessions and each student's ``(join code, nickname)`` (an empty
    nickname: the server names the student)."""
    from django.contrib.auth import get_user_model

    from classroom.actions import do_create_class, do_create_session

    teacher = get_user_model().objects.create_user(
        "load-teacher", password=secrets.token_urlsafe(16)
    )
    sessions, plan = [], []
    for k in range(-(-students // class_size)):
        session = do_create_session(
            do_create_class(teacher, f"Class {k + 1}"),
            game="data_tycoon",
            variant=variant,
            language=LANGUAGES[k % len(LANGUAGES)],
            table_size=table_size,
            bots_fill=True,
            options=MATCH_OPTIONS if options is None else options,
            # The server names each student (a digit can spell a refused word in leetspeak).
            generated_nicknames=True,
        )
        sessions.append(session)
        size = min(class_size, students - k * class_size)
        plan += [(session.join_code, "") for _n in range(size)]
    return sessions, plan


def teacher_dashboards(bases: list[str]) -> list[tuple[str, str, str]]:
    """Return ``(url, cookie header, origin)`` of each session's live dashboard, the
    teacher logged in, each on the uvicorn of its session's number (``--dashboards``)."""
    from classroom.models import ClassSession

    cookie = teacher_cookie()
    pks = ClassSession.objects.order_by("pk").values_list("pk", flat=True)
    dashboards = []
    for k, pk in enumerate(pks):
        base = bases[k % len(bases)]
        url = f"{base.replace('http://', 'ws://')}/ws/teacher/sessions/{pk}/live/"
        dashboards.append((url, cookie, base))
    return dashboards


def teacher_cookie() -> str:
    """Return the Cookie header of ``load-teacher``, logged in."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username="load-teacher"))
    return "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())


async def open_page_socket(url: str, origin: str, cookie: str) -> ClientConnection | None:
    """Open a page's socket with the page's cookies, as its browser does; return it, or
    None when it could not be opened."""
    try:
        return await websockets.connect(
            url,
            origin=Origin(origin),
            additional_headers={"Cookie": cookie},
            max_size=2**23,
            open_timeout=CONNECT_TIMEOUT,
            ping_interval=None,
        )
    except (TimeoutError, OSError, websockets.WebSocketException):
        return None


async def listen_until(
    ws: ClientConnection, stop: asyncio.Event, take: Callable[[str], None]
) -> bool:
    """Hand each message of ``ws`` to ``take`` until ``stop``, then close it; tell
    whether the server closed it before."""
    closed_early = False

    async def receive() -> None:
        nonlocal closed_early
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in ws:
                assert isinstance(raw, str)  # a page's socket sends text frames only
                take(raw)
        closed_early = not stop.is_set()

    receiving = asyncio.create_task(receive())
    await stop.wait()
    receiving.cancel()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(ws.close(), 5)
    return closed_early


async def watch_dashboard(
    url: str, cookie: str, origin: str, stats: Stats, stop: asyncio.Event, *, hidden: bool = False
) -> None:
    """Keep a teacher's dashboard open until ``stop``, counting its updates (``hidden``:
    its tab is hidden, as the page says when the teacher shows another one)."""
    ws = await open_page_socket(url, origin, cookie)
    if ws is None:
        stats.failed_connects += 1
        return
    if hidden:  # what static/js/dashboard_visibility.js sends
        await ws.send(json.dumps({"type": "visibility", "hidden": True}))

    def take(raw: str) -> None:
        stats.dashboard_updates += 1
        stats.dashboard_bytes += utf8_size(raw)
        if 'id="live-tables"' in raw[:200]:
            stats.dashboard_wholes += 1

    await listen_until(ws, stop, take)


def stored_versions() -> dict[int, int]:
    from games.models import Match

    return dict(Match.objects.values_list("pk", "version"))


def check_logs() -> list[str]:
    """Return the matches whose action log is not exactly one entry per version 1..N."""
    from django.db.models import Count, Max, Min

    from games.models import Match, MatchAction

    logs = {
        row["match"]: row
        for row in MatchAction.objects.values("match").annotate(
            n=Count("pk"), low=Min("version"), high=Max("version")
        )
    }
    wrong = []
    for match_id, version in Match.objects.values_list("pk", "version"):
        row = logs.get(match_id, {"n": 0, "low": None, "high": None})
        expected = (version, 1, version) if version else (0, None, None)
        if (row["n"], row["low"], row["high"]) != expected:
            wrong.append(f"match {match_id}: version {version}, log {row}")
    return wrong


# The students


@dataclass
class Stats:
    """What every student's client counted."""

    messages: int = 0
    states: int = 0
    state_bytes: int = 0
    state_sizes: list[int] = field(default_factory=list)
    hello_bytes: list[int] = field(default_factory=list)
    sent: int = 0
    refusals: Counter = field(default_factory=Counter)
    closed: Counter = field(default_factory=Counter)
    failed_connects: int = 0
    connecting_seconds: float = 0.0
    # (table, version, time sent) of each act (the table None: sent before the hello)
    acts: list[tuple[int | None, int, float]] = field(default_factory=list)
    # the teachers' live dashboards (--dashboards): updates received, their bytes
    dashboard_updates: int = 0
    dashboard_bytes: int = 0
    dashboard_wholes: int = 0  # of the updates, the whole dashboard (not a table's part)

    def counts(self) -> tuple[int, ...]:
        """The counts the report gives per second of play, in ``report``'s order."""
        return (
            self.sent,
            self.messages,
            self.states,
            self.dashboard_updates,
            self.dashboard_bytes,
            self.dashboard_wholes,
        )


class Student:
    """One student's play socket and its thinking."""

    def __init__(
        self, url: str, token: str, origin: str, rng: random.Random, think: tuple[float, float]
    ) -> None:
        self.url, self.token, self.origin, self.rng, self.think = url, token, origin, rng, think
        self.table: int | None = None
        self.state: dict | None = None
        self.versions: list[int] = []  # every state's version, in the order received
        self.times: list[float] = []
        self.ready = asyncio.Event()
        self.thinking: asyncio.Task | None = None
        self.acted_on = -1  # the version the last act was sent on
        self.opening: float | None = None  # when its socket began to open
        self.first_state: float | None = None  # when its first state came

    async def run(self, stats: Stats, stop: asyncio.Event) -> None:
        self.opening = time.perf_counter()
        ws = await self.connect(self.url, stats)
        if ws is None:
            self.ready.set()
            return
        try:
            closed_by_server = await self.play_on(ws, stats, stop)
            if closed_by_server:
                stats.closed[ws.close_code] += 1
        finally:
            self.ready.set()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 5)

    async def connect(self, url: str, stats: Stats) -> ClientConnection | None:
        """Open the play socket and authenticate; return it, or None when that failed."""
        try:
            # No client-side ping, as in a browser: the server's pings keep the socket.
            ws = await websockets.connect(
                url,
                origin=Origin(self.origin),
                max_size=2**23,
                open_timeout=CONNECT_TIMEOUT,
                ping_interval=None,
            )
            # The seat token as the first message, never in the URL (the access log).
            await ws.send(json.dumps({"type": "auth", "token": self.token}))
        except (TimeoutError, OSError, websockets.WebSocketException):
            stats.failed_connects += 1
            return None
        return ws

    async def play_on(self, ws: ClientConnection, stats: Stats, stop: asyncio.Event) -> bool:
        """Play on the socket until it closes or ``stop``; tell whether the server (or a
        broken connection) ended it rather than ``stop``."""
        receiving = asyncio.create_task(self.receive(ws, stats))
        stopping = asyncio.create_task(stop.wait())
        try:
            await asyncio.wait({receiving, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if receiving.done() and (error := receiving.exception()) is not None:
                raise error  # a defect of this client: never silent
            return receiving.done() and not stop.is_set()
        finally:
            for task in (receiving, stopping, self.thinking):
                if task is not None:
                    task.cancel()

    async def receive(self, ws: ClientConnection, stats: Stats) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in ws:
                self.handle(ws, raw, orjson.loads(raw), stats)

    def handle(self, ws: ClientConnection, raw: bytes | str, message: dict, stats: Stats) -> None:
        """Take one message from the server; think about a new state's move."""
        at = time.perf_counter()
        stats.messages += 1
        kind = message.get("type")
        if kind == "state":
            stats.states += 1
            size = utf8_size(raw)
            stats.state_bytes += size
            stats.state_sizes.append(size)
            self.versions.append(message["version"])
            self.times.append(at)
            self.state = message
            if self.first_state is None:
                self.first_state = at
            self.ready.set()
            self.consider(ws, stats)
        elif kind == "hello":
            self.table = message["table"]
            stats.hello_bytes.append(utf8_size(raw))
        elif kind == "error":
            stats.refusals[message.get("code")] += 1

    def consider(self, ws: ClientConnection, stats: Stats) -> None:
        """Start thinking about a move, unless thinking already or the state offers none."""
        state, idle = self.state, self.thinking is None or self.thinking.done()
        if idle and state and state.get("legal_actions") and not state.get("over"):
            self.thinking = asyncio.create_task(self.act_later(ws, stats))

    async def act_later(self, ws: ClientConnection, stats: Stats) -> None:
        """Think, then act on the newest state (a human reads the board as it is)."""
        await asyncio.sleep(self.rng.uniform(*self.think))
        state = self.state
        legal = state.get("legal_actions") if state else None
        if not state or not legal or state.get("over") or state["version"] == self.acted_on:
            return
        self.acted_on = state["version"]
        action = legal[self.rng.randrange(len(legal))]
        stats.sent += 1
        stats.acts.append((self.table, state["version"] + 1, time.perf_counter()))
        await self.send_act(ws, state["version"], action)

    async def send_act(self, ws: ClientConnection, version: int, action: dict) -> None:
        await ws.send(orjson.dumps({"type": "act", "version": version, "action": action}))


def utf8_size(raw: bytes | str) -> int:
    """Return a message's size in bytes as it crossed the socket (before compression):
    a text frame arrives as text, whose characters beyond ASCII take 2 to 4 bytes."""
    return len(raw) if isinstance(raw, bytes) else len(raw.encode())


def percentile(values: Sequence[T], q: float) -> T:
    return values[min(len(values) - 1, int(len(values) * q))]


def latencies(
    students: list[Student], acts: list[tuple[int | None, int, float]], until: float
) -> tuple[list[float], int]:
    """Return the act-to-every-view latencies (ms) and how many actions some student
    socket at the table never saw (sent before ``until``)."""
    tables: dict[int | None, list[Student]] = {}
    for student in students:
        if student.table is not None:
            tables.setdefault(student.table, []).append(student)
    found, missed = [], 0
    for table, version, sent in acts:
        if sent > until:
            continue
        last = 0.0
        for student in tables.get(table, []):
            # A socket's versions only grow: the first at or past ``version`` came first.
            i = bisect.bisect_left(student.versions, version)
            if i == len(student.versions):
                missed += 1  # this socket never saw it
                break
            last = max(last, student.times[i])
        else:  # every socket at the table saw it
            found.append((last - sent) * 1000)
    return sorted(found), missed


async def play(
    joined: list[tuple[dict, str]],
    seconds: float,
    think: tuple[float, float],
    seed: int,
    measure: Callable[[str], None],
    *,
    dashboards: Sequence[tuple[str, str, str]] = (),
    dashboards_hidden: bool = False,
) -> tuple[list[Student], Stats, float, float, dict]:
    """Connect every student (and each teacher's dashboard of ``dashboards``), let them
    play ``seconds``, stop; return the students, their counts and the measurement's start
    and end (perf_counter). ``measure("start")`` and ``measure("end")`` sample the
    server's processes at both ends."""
    stats, stop = Stats(), asyncio.Event()
    students = []
    for n, (answer, base) in enumerate(joined):
        ws_base = base.replace("http://", "ws://")
        url = f"{ws_base}{answer['ws']}"
        rng = random.Random(seed * 100_003 + n)
        students.append(Student(url, answer["token"], base, rng, think))
    tasks = [
        asyncio.create_task(
            watch_dashboard(url, cookie, origin, stats, stop, hidden=dashboards_hidden)
        )
        for url, cookie, origin in dashboards
    ]
    gate = asyncio.Semaphore(CONNECTING_AT_ONCE)

    async def connect(student: Student) -> None:
        async with gate:
            tasks.append(asyncio.create_task(student.run(stats, stop)))
            await asyncio.wait_for(student.ready.wait(), CONNECT_TIMEOUT)

    connecting = time.perf_counter()
    with tqdm(total=len(students), desc="connecting", unit="socket") as bar:
        for future in asyncio.as_completed([connect(s) for s in students]):
            await future
            bar.update()
    started = time.perf_counter()
    stats.connecting_seconds = started - connecting
    # The students act as soon as their first state comes: what they sent and were sent
    # while the others connected is not part of the play measured.
    counted = stats.counts()
    await asyncio.to_thread(measure, "start")
    marks = {"start": await asyncio.to_thread(stored_versions), "counted": counted}
    with tqdm(total=int(seconds), desc="playing", unit="s") as bar:
        for _second in range(int(seconds)):
            await asyncio.sleep(1)
            bar.set_postfix(
                acts=stats.sent, states=stats.states, refused=sum(stats.refusals.values())
            )
            bar.update()
    ended = time.perf_counter()
    marks["counted_end"] = stats.counts()
    await asyncio.to_thread(measure, "end")
    marks["end"] = await asyncio.to_thread(stored_versions)
    stop.set()
    await asyncio.wait(tasks, timeout=30)
    return students, stats, started, ended, marks


@dataclass
class Outcome:
    """Everything a run measured."""

    students: list[Student]
    stats: Stats
    started: float
    ended: float
    marks: dict
    usage_start: Usage
    usage_end: Usage
    logs: list[str]
    errors: dict[str, int]
    warnings: dict[str, int]


def report(args: argparse.Namespace, outcome: Outcome) -> None:
    students, stats, marks = outcome.students, outcome.stats, outcome.marks
    started, ended, logs, errors = outcome.started, outcome.ended, outcome.logs, outcome.errors
    warnings = outcome.warnings
    usage_start, usage_end = outcome.usage_start, outcome.usage_end
    elapsed = ended - started
    accepted = sum(marks["end"].get(m, 0) - v for m, v in marks["start"].items())
    measured = [(t, v, at) for t, v, at in stats.acts if started <= at <= ended - TAIL_SECONDS]
    ms, missed = latencies(students, measured, ended - TAIL_SECONDS)
    sessions = -(-args.students // CLASS_SIZE)
    print(
        f"\n{args.students} students in {sessions} classes of {CLASS_SIZE} (tables of "
        f"{TABLE_SIZE}, bots in the empty seats, {args.variant}), think time "
        f"{args.think[0]:g} to {args.think[1]:g} s, {len(args.asgi_ports)} uvicorn "
        f"process(es), {elapsed:.0f} s of play"
    )
    opened = sorted(
        (s.first_state - s.opening) * 1000
        for s in students
        if s.first_state is not None and s.opening is not None
    )
    if opened:
        print(
            f"connecting: {len(opened)} sockets in {stats.connecting_seconds:.1f} s, at most "
            f"{CONNECTING_AT_ONCE} at once; socket opened to its first state p50 "
            f"{percentile(opened, 0.50):.0f} ms, p95 {percentile(opened, 0.95):.0f} ms, "
            f"max {opened[-1]:.0f} ms"
        )
    sent, messages, states, updates, update_bytes, wholes = (
        after - before for after, before in zip(marks["counted_end"], marks["counted"], strict=True)
    )
    print(
        f"accepted actions: {accepted} ({accepted / elapsed:.1f}/s; the students sent "
        f"{sent}, {sent / elapsed:.1f}/s); messages to the students "
        f"{messages / elapsed:.0f}/s, states {states / elapsed:.0f}/s"
    )
    if args.dashboards:
        print(
            f"teachers' live dashboards{' (their tabs hidden)' if args.hidden_dashboards else ''}"
            f": {sessions}, {updates / elapsed:.1f} updates/s in all, "
            f"{update_bytes / max(1, updates) / 1024:.1f} KiB an update, {wholes} of them "
            "the whole dashboard (the others a table's part)"
        )
    if ms:
        print(
            f"act -> every view at the table: p50 {percentile(ms, 0.50):.1f} ms, "
            f"p95 {percentile(ms, 0.95):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
            f"max {ms[-1]:.1f} ms ({len(ms)} actions; {missed} not seen by every socket)"
        )
    sizes = sorted(stats.state_sizes)
    if sizes:
        print(
            f"bytes per view (state message): mean {stats.state_bytes / len(sizes):.0f}, "
            f"p95 {percentile(sizes, 0.95)}, max {sizes[-1]}; hello: mean "
            f"{sum(stats.hello_bytes) / max(1, len(stats.hello_bytes)):.0f}"
        )
    print(
        f"errors: refusals {dict(stats.refusals) or 0}, sockets closed by the server "
        f"{dict(stats.closed) or 0}, failed connections {stats.failed_connects}, "
        f"error lines in the services' logs {errors or 0}, warnings {warnings or 0}"
    )
    print("server processes (CPU seconds during the play, % of one core, peak memory):")
    total = 0.0
    for name in usage_end.ticks:
        cpu = (usage_end.ticks[name] - usage_start.ticks.get(name, 0)) / CLK_TCK
        total += cpu
        print(
            f"  {name:<28} {cpu:7.1f} s  {100 * cpu / elapsed:5.1f} %  "
            f"{usage_end.peak_kib.get(name, 0) / 1024:7.1f} MiB"
        )
    print(
        f"  all server processes: {total:.1f} s, {1000 * total / max(1, accepted):.2f} ms "
        f"of CPU per accepted action"
    )
    redis_start, redis_end = usage_start.redis, usage_end.redis
    if redis_start and redis_end:
        connections = (
            redis_end["total_connections_received"] - redis_start["total_connections_received"]
        )
        commands = redis_end["total_commands_processed"] - redis_start["total_commands_processed"]
        print(
            f"  Redis during the play: {connections} connections opened, {commands} commands "
            f"({commands / max(1, accepted):.0f} per accepted action)"
        )
        print(
            "    by command, per accepted action: "
            + ", ".join(
                f"{name} {count / max(1, accepted):.1f}"
                for name, count in busiest_commands(redis_start, redis_end)
            )
        )
    traffic_start, traffic_end = usage_start.database_traffic, usage_end.database_traffic
    if traffic_start is not None and traffic_end is not None:
        trips = traffic_end[0] - traffic_start[0]
        print(
            f"  database round trips during the play (all processes, through the latency "
            f"proxy): {trips}, {trips / max(1, accepted):.1f} per accepted action; "
            f"connections opened {traffic_end[1] - traffic_start[1]}"
        )
    own = time.process_time()
    print(f"  this benchmark's own client process: {own:.1f} s of CPU in all")
    print(
        "action logs: every match has one entry per version"
        if not logs
        else f"action logs WRONG: {logs[:5]}"
    )


def run(args: argparse.Namespace) -> None:
    platform = Platform.for_run(args, "dp-load")
    env = platform.env
    args.asgi_ports = platform.web_ports
    deadline = time.monotonic() + args.seconds + 900
    played = False
    try:
        platform.start_database()
        use_database(env)
        platform.start()
        joined = open_classes(platform.bases(), args.students, args.variant)
        dashboards = teacher_dashboards(platform.bases()) if args.dashboards else []
        usage = {"start": Usage(), "during": Usage(), "end": Usage()}

        def measure(when: str) -> None:
            sample(platform.services, usage[when])
            usage[when].redis = redis_counters(env["REDIS_URL"])
            usage[when].database_traffic = platform.database_traffic()
            usage["end"].peak_kib = usage["during"].peak_kib

        async def measured() -> tuple[list[Student], Stats, float, float, dict]:
            async def sampler() -> None:  # the peak memory, once a second
                while True:
                    await asyncio.to_thread(sample, platform.services, usage["during"])
                    await asyncio.sleep(1)

            sampling = asyncio.create_task(sampler())
            try:
                return await asyncio.wait_for(
                    play(
                        joined,
                        args.seconds,
                        tuple(args.think),
                        args.seed,
                        measure,
                        dashboards=dashboards,
                        dashboards_hidden=args.hidden_dashboards,
                    ),
                    deadline - time.monotonic(),
                )
            finally:
                sampling.cancel()

        students, stats, started, ended, marks = asyncio.run(measured())
        usage_start, usage_end = usage["start"], usage["end"]
        played = True
    finally:
        # Read once nothing writes: the worker still plays the bots' moves after the
        # students stop, and a move stored between the log's read and the versions'
        # looked like a version with no log entry.
        platform.stop(but=("postgres", "latency-proxy"))
        logs = check_logs() if played else []
        platform.stop()
        errors = platform.error_lines()  # after the stop: a failing shutdown counts too
        warnings = platform.warning_lines()
        platform.remove_folders(args.logs)
    report(
        args,
        Outcome(
            students, stats, started, ended, marks, usage_start, usage_end, logs, errors, warnings
        ),
    )


def platform_arguments(description: str) -> argparse.ArgumentParser:
    """Return a parser with the options of every benchmark that starts the platform."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--students", type=int, default=300)
    parser.add_argument("--asgi", type=int, default=1, help="uvicorn processes")
    parser.add_argument("--variant", default="expert")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--logs", help="copy the services' logs to this folder at the end")
    parser.add_argument(
        "--postgres", action="store_true", help="a throwaway PostgreSQL server, not SQLite"
    )
    parser.add_argument(
        "--database-latency",
        type=float,
        default=0.0,
        metavar="MS",
        help="with --postgres: add this round trip to every database query "
        "(benchmarks.latency_proxy), as a database on another machine",
    )
    return parser


def parse_platform_arguments(parser: argparse.ArgumentParser) -> argparse.Namespace:
    """Parse the command line; refuse options that do not go together."""
    args = parser.parse_args()
    if args.database_latency and not args.postgres:
        parser.error("--database-latency needs --postgres")
    return args


def main() -> None:
    parser = platform_arguments(__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long they play")
    parser.add_argument("--think", type=float, nargs=2, default=(1.0, 4.0), metavar=("MIN", "MAX"))
    parser.add_argument(
        "--dashboards",
        action="store_true",
        help="each session's teacher watches its live dashboard, as in a class",
    )
    parser.add_argument(
        "--hidden-dashboards",
        action="store_true",
        help="the same, each dashboard's tab hidden (the teacher shows another one)",
    )
    args = parse_platform_arguments(parser)
    args.dashboards = args.dashboards or args.hidden_dashboards
    run(args)


if __name__ == "__main__":
    main()
