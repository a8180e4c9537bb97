"""Chaos run: kill -9 a random service every few seconds while classes play.

    .venv/bin/python -m benchmarks.chaos [--seed N] [--students 4] [--table-size 3]
        [--asgi 2] [--every 5] [--chaos 60] [--timeout 180] [--variant beginner]
        [--postgres [--cut]] [--logs DIR]

Starts the platform as ``make run`` does, under supervisord (which starts a dead
service again at once): Redis (with its append-only file), a Celery worker, beat and
``--asgi`` uvicorn processes, on a temporary SQLite database (``--postgres``: a
throwaway PostgreSQL server), loopback only. Opens a
session whose tables seat students (clients of the table protocol, built on
``benchmarks/load.py``'s) and a bot each, with short timers. For ``--chaos`` seconds,
every ``--every`` seconds, it kills (SIGKILL to its whole process group) one service
picked at random among the ASGI processes, the worker and Redis that have run for
UPTIME seconds; with ``--postgres`` the database may be picked too: it drops every
connection of the platform at once, as a restart or a failover does (the server itself
keeps running: reconnecting is the platform's part). One more kind freezes an ASGI
process, the worker, Redis or (with ``--postgres``) the database server (SIGSTOP, as a
paused machine does) and lets it go on
FREEZE_SECONDS later. With ``--cut`` (and ``--postgres``; as root) the run enters a
network namespace of its own, and one more kind cuts the database off for CUT_SECONDS,
as a network cut or a machine powered off does: every packet to or from its port is
held until the cut ends, then dropped (``tests.namespaces.cut_off``): no reset, no
answer, and a connection attempt waits (the run's own checks reach it on its Unix
socket).
Then the games play on to their end. A student whose socket closes
reconnects as the browser client does (a growing wait, the next server when one does
not answer) and plays on; a move answered neither way within PONG_WAIT closes the
socket, as the browser's 8-second wait does.

Each student sends ``act`` then ``ping``: the server handles one socket's messages in
order, so an ``error`` before the ``pong`` refuses the move, and a ``pong`` with no error
before it means the move was accepted. A move whose socket closed before the ``pong``
(or that only got ``unavailable``/``too_fast``) has an unknown outcome.

Once every match is over (or after ``--timeout`` seconds of play), it stops, and it
fails unless:

- every match finished, and every student's last state says so;
- every match's action log has exactly one entry per version 1..N, and replaying it
  gives the stored snapshot;
- every move a student was told was accepted is the log's entry of its version (seat
  and action); no move a student was told was refused is there (unless the student
  sent the same move on the same version again and that one may have been stored);
- no service logged an error or a traceback, except EXPECTED_NOISE (each pattern with
  the reason a kill makes it).

Prints the seed first (``--seed`` gives the same deals and the same picks of targets;
the moments still vary with the machine's speed), every kill and the result; exits 1
on a failure. ``tests/live/test_chaos.py`` runs it with the defaults; raise
``--chaos`` and ``--timeout`` for a longer run by hand.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from types import FrameType
from urllib.parse import quote

import orjson
import psycopg
import websockets
from django.db import DatabaseError, connection
from websockets.asyncio.client import ClientConnection

from benchmarks.load import HOST, Stats, Student, environment, group_processes, open_classes
from benchmarks.stack import use_database
from config.run import supervisor_config, supervisor_processes
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
from tests.logwatch import TRACEBACK, excerpt, incidents, unexpected
from tests.namespaces import cut_off, open_loopback

TRACEBACK_LINE = TRACEBACK + ":"

# The services a kill picks from (beat is left alone: the task asks for the rest).
TARGETS = ("redis", "celery-worker", "asgi")
# With --postgres: the database, which drops every connection of the platform.
DATABASE = "database"
# A process frozen (SIGSTOP to its group, as a paused virtual machine or a swap storm
# does) and let go (SIGCONT) this many seconds later: longer than the database lets a
# transaction sit idle (DB_IDLE_IN_TRANSACTION_SECONDS, 5 s on PostgreSQL), shorter than
# a page's wait for a move's answer (PONG_WAIT). Picked, as a kind of its own, among the
# ASGI processes, the worker and Redis that run (a stalled Redis: the sockets' channel
# layer and the worker's broker wait on it), and with --postgres the database server
# (every process of it: its connections stay alive and answer nothing, which the
# platform's DB_STATEMENT_SECONDS, FROZEN_STATEMENT_SECONDS for the run, bounds).
FREEZE = "freeze"
FREEZE_SECONDS = 6.0
POSTGRES = "postgres"
FROZEN_KINDS = ("asgi", "celery-worker", "redis", POSTGRES)
FROZEN_STATEMENT_SECONDS = 3
# The database cut off (--cut): every packet to or from its port held this long,
# longer than a query may wait unacknowledged (the platform's DB_TCP_USER_TIMEOUT_SECONDS,
# CUT_QUERY_SECONDS for the run) and than a page's wait for a move's answer.
CUT = "cut"
CUT_SECONDS = 9.0
CUT_QUERY_SECONDS = 3
# The run's own connections (its checks, in this process) have this name, and are
# left alone when the database drops the platform's; they reach it on its Unix socket,
# which a cut leaves alone.
CHECKS_APPLICATION = "chaos-checks"
# A service is killed again only after it has run this long (started, and serving).
UPTIME = 15.0
# Short windows, so that the timers fire often during a short run.
OPTIONS = {"time_mode": "turns", "call_seconds": 1, "counter_seconds": 1, "choice_seconds": 1}
# A student's reconnection: the browser client's backoff (static/js/play), shortened.
RECONNECT_FIRST, RECONNECT_MAX = 0.2, 2.0
# Errors that may answer another message than the move (a table notice's failure, the
# ping refused as too fast), or that say the server does not know (a COMMIT's answer
# lost, and the move not found since): with one of these, the move's fate stays unknown.
AMBIGUOUS = {"unavailable", "too_fast", "unconfirmed"}
# A move answered neither by a refusal nor by a pong within this: the socket is closed
# and opened again (the browser client waits 8 s for a move's answer, then reconnects).
PONG_WAIT = 8.0
# How long after the last match ended the students may take to see it over.
OVER_GRACE = 30.0
# Error lines and tracebacks that killing Redis makes the surviving Celery processes log
# as they notice it and carry on (or exit, to be started again); anything else in a log
# fails the run. Each is matched against an error line or a line of its traceback.
EXPECTED_NOISE = [
    # The worker lost its broker: it logs the lost connection with its traceback (kept
    # with its warning line, WARNED_TRACEBACKS) and reconnects, retrying until Redis is
    # back ("Cannot connect to redis://... Trying again"; kombu names the broker by the
    # project's transport, config.broker).
    r"WARNING/MainProcess\] consumer: Connection to broker lost",
    r"ERROR/MainProcess\] consumer: Cannot connect to (redis|config\.broker:Transport)://",
    # Killed while it holds a task with an eta (a timer, most of the time), the worker
    # cannot put it back: kombu's known failure on broker loss ends the worker, and its
    # bootsteps fail the same way on the way out. supervisord starts it again, and its
    # start-up sweep fires the due timers and wakes the bots (docs/ops.md).
    r"CRITICAL/MainProcess\] Unrecoverable error: AttributeError\(\"'NoneType' object has "
    r"no attribute '(hostname|connection_errors)'\"\)",
    r"ERROR/MainProcess\] Error on (stopping|restarting) \w+: AttributeError\(\"'NoneType' "
    r"object has no attribute '(hostname|connection_errors)'\"\)",
    # A worker that finished a task as Redis died cannot acknowledge it: kombu logs it
    # and goes on. Redis may hand the task out again (the sweeper reschedules what it
    # lost); a bot move or a timer played twice is refused by the match's version (the
    # run checks that no move is stored twice).
    r"CRITICAL/MainProcess\] Couldn't ack '[0-9a-f-]+', reason:",
    # Beat could not queue the sweeper while Redis was down; it tries again next time.
    r"Couldn't apply scheduled task live-play-sweeper: (Error \d+ connecting|Connection "
    r"closed by server|.*Connection refused)",
]
# Warning lines followed by a traceback of their own (Celery logs the exception under
# the warning): the traceback belongs to that warning.
WARNED_TRACEBACKS = re.compile(r"WARNING/MainProcess\] consumer: Connection to broker lost")


@dataclass
class Act:
    """One ``act`` a student sent, and what the server told it."""

    student: int
    seat: int | None
    version: int
    action: dict
    sent: float
    outcome: str = "unknown"  # "accepted", "refused" or "unknown"
    code: str | None = None


@dataclass
class Chaos:
    """What the run did and saw."""

    acts: list[Act] = field(default_factory=list)
    kills: list[tuple[float, str]] = field(default_factory=list)
    reconnects: int = 0


class ChaosStudent(Student):
    """A student who reconnects when the socket closes and knows what became of each move."""

    def __init__(
        self,
        number: int,
        urls: list[str],
        answer: dict,
        *,
        rng: random.Random,
        think: tuple[float, float],
        chaos: Chaos,
    ) -> None:
        super().__init__(urls[0], answer["token"], answer["origin"], rng, think)
        self.number, self.urls, self.chaos = number, urls, chaos
        self.pending: Act | None = None  # the move whose pong has not come yet
        self.over = False

    async def run(self, stats: Stats, stop: asyncio.Event) -> None:
        wait, server = RECONNECT_FIRST, self.urls.index(self.url)
        while not stop.is_set() and not self.over:
            ws = await self.connect(self.urls[server], stats)
            if ws is not None:
                try:
                    await self.play_on(ws, stats, stop)
                finally:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(ws.close(), 2)
                self.pending = None  # its answer, if any, is lost with the socket
                self.acted_on = -1  # the new socket's state tells whether it was stored
                if self.over or stop.is_set():
                    break
                self.chaos.reconnects += 1
            # The next server, as a load balancer would, after a wait that grows.
            server = (server + 1) % len(self.urls)
            await asyncio.sleep(wait * random.uniform(0.5, 1.0))
            wait = min(RECONNECT_MAX, wait * 2) if ws is None else RECONNECT_FIRST
        self.ready.set()

    async def play_on(self, ws: ClientConnection, stats: Stats, stop: asyncio.Event) -> bool:
        watching = asyncio.create_task(self.watch(ws))
        try:
            return await super().play_on(ws, stats, stop)
        finally:
            watching.cancel()

    async def watch(self, ws: ClientConnection) -> None:
        """Close a socket that answers a move with neither a refusal nor a pong within
        PONG_WAIT, as the browser client does: the new socket's state tells."""
        while True:
            await asyncio.sleep(1)
            if self.pending is not None and time.monotonic() - self.pending.sent > PONG_WAIT:
                await ws.close()
                return

    def handle(self, ws: ClientConnection, raw: bytes | str, message: dict, stats: Stats) -> None:
        kind = message.get("type")
        if kind == "state" and message.get("over"):
            self.over = True
        act = self.pending
        if act is not None and kind == "error":
            if message.get("code") in AMBIGUOUS:
                act.code = act.code or message.get("code")
            else:
                act.outcome, act.code = "refused", message.get("code")
        super().handle(ws, raw, message, stats)
        if act is not None and kind == "pong":
            if act.outcome == "unknown" and act.code is None:
                act.outcome = "accepted"
            self.pending = None
            if act.outcome != "accepted":
                self.acted_on = -1  # a student tries again (the state may be the same)
            self.consider(ws, stats)

    def consider(self, ws: ClientConnection, stats: Stats) -> None:
        if self.pending is None:  # one move at a time: its answer comes first
            super().consider(ws, stats)

    async def send_act(self, ws: ClientConnection, version: int, action: dict) -> None:
        assert self.state is not None  # act_later acts on it
        act = Act(self.number, self.state.get("seat"), version, action, time.monotonic())
        self.chaos.acts.append(act)
        self.pending = act
        # A socket closed meanwhile: the move's fate is unknown, the next socket tells.
        with contextlib.suppress(websockets.ConnectionClosed):
            await ws.send(orjson.dumps({"type": "act", "version": version, "action": action}))
            await ws.send(orjson.dumps({"type": "ping"}))


def services_for(
    env: dict[str, str], folder: Path, redis_port: int, ports: list[int]
) -> list[Service]:
    """Describe the services as `make run` runs them (one ASGI per port)."""
    services = [redis_service(redis_port, folder / "redis")]
    services += [
        celery_worker_service(env),
        celery_beat_service(env, folder / "celerybeat-schedule"),
    ]
    for n, port in enumerate(ports):
        asgi = asgi_service(env, HOST, port)
        asgi.name = f"asgi-{n + 1}"
        services.append(asgi)
    for service in services:
        service.env = env
    return services


def kind_of(name: str) -> str:
    """Return the target's kind: "asgi" for every ASGI process, else its name."""
    kinds = (*TARGETS, DATABASE, POSTGRES, FREEZE, CUT)
    return next(kind for kind in kinds if name.startswith(kind))


# Set in the run's environment once it runs in a network namespace of its own.
OWN_NETWORK = "DP_CHAOS_OWN_NETWORK"


def own_network() -> bool:
    """Tell whether this run entered a network namespace of its own (``main``)."""
    return os.environ.get(OWN_NETWORK) == str(os.getpid())


def drop_connections(database_url: str) -> int:
    """End every connection of the platform to its database (not this run's own), as a
    database restart or failover does; return how many."""
    with psycopg.connect(database_url, autocommit=True) as db:
        row = db.execute(
            "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            " AND application_name <> %s",
            [CHECKS_APPLICATION],
        ).fetchone()
        assert row is not None  # a count always has its row
        return row[0]


async def kill_now_and_then(
    args: argparse.Namespace, config: Path, chaos: Chaos, t0: float
) -> None:
    """Every ``args.every`` seconds for ``args.chaos`` seconds, SIGKILL the process group
    of one target that has run for UPTIME seconds at least (a service killed while it
    still starts would only be killed again, not tested again), of a kind killed least
    so far (ASGI, worker, Redis, a freeze of an ASGI process, the worker or Redis, and
    with ``--postgres`` the database's connections and a freeze of its server, with
    ``--cut`` its cut)."""
    rng = random.Random(args.seed)
    thawing: list[asyncio.Task] = []
    frozen_now: set[int] = set()  # the frozen services' leaders
    cutting: asyncio.Task | None = None  # the cut under way
    while time.monotonic() - t0 + args.every <= args.chaos:
        await asyncio.sleep(args.every)
        running = [
            info
            for info in await asyncio.to_thread(supervisor_processes, config)
            if info["statename"] == "RUNNING"
            and info["name"].startswith(TARGETS)
            and info["now"] - info["start"] >= UPTIME
        ]
        freezable = [info for info in running if kind_of(info["name"]) in FROZEN_KINDS]
        if args.database_pid is not None:
            freezable.append({"name": POSTGRES, "pid": args.database_pid})
        # not one frozen still: its thaw would come early
        freezable = [info for info in freezable if info["pid"] not in frozen_now]
        if freezable:
            running.append({"name": FREEZE})
        if args.database_url:
            running.append({"name": DATABASE})
        if args.cut and (cutting is None or cutting.done()):
            running.append({"name": CUT})
        if not running:
            continue
        # At random among the kinds killed least so far: every kind gets its turns.
        victim = least_chosen(running, [name for _at, name in chaos.kills], rng)
        at, name = time.monotonic() - t0, victim["name"]
        if name == DATABASE:
            dropped = await asyncio.to_thread(drop_connections, args.checks_url)
            print(f"  {at:6.1f} s  the database drops its {dropped} connections", flush=True)
        elif name == CUT:
            cut_off(args.database_port)
            cutting = asyncio.create_task(reconnect(args.database_port, CUT_SECONDS))
            print(f"  {at:6.1f} s  cut the database off for {CUT_SECONDS:.0f} s", flush=True)
        elif name == FREEZE:
            frozen_before = [
                name.removeprefix(f"{FREEZE} ")
                for _at, name in chaos.kills
                if name.startswith(f"{FREEZE} ")
            ]
            frozen = least_chosen(freezable, frozen_before, rng)
            # its process group, and the children that left it (PostgreSQL's backends)
            processes = group_processes(frozen["pid"])
            for pid in processes:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGSTOP)
            frozen_now.add(frozen["pid"])
            thawing.append(
                asyncio.create_task(thaw(frozen["pid"], processes, FREEZE_SECONDS, frozen_now))
            )
            name = f"{FREEZE} {frozen['name']}"
            print(f"  {at:6.1f} s  {name} for {FREEZE_SECONDS:.0f} s", flush=True)
        else:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(victim["pid"], signal.SIGKILL)
            print(f"  {at:6.1f} s  kill -9 {name}", flush=True)
        chaos.kills.append((at, name))
    await asyncio.gather(*thawing, *([cutting] if cutting is not None else []))
    print(f"  {time.monotonic() - t0:6.1f} s  no more kills: the games finish", flush=True)


def least_chosen(candidates: list[dict], chosen: list[str], rng: random.Random) -> dict:
    """Return one of ``candidates`` (by their ``name``) at random among those whose kind
    the names ``chosen`` so far hold least often: every kind gets its turns."""
    times = Counter(kind_of(name) for name in chosen)
    fewest = min(times[kind_of(info["name"])] for info in candidates)
    least = [info for info in candidates if times[kind_of(info["name"])] == fewest]
    return least[rng.randrange(len(least))]


async def reconnect(port: int, seconds: float) -> None:
    """Let packets to and from the database's ``port`` through again after ``seconds``."""
    try:
        await asyncio.sleep(seconds)
    finally:  # cancelled too: the games must be able to finish
        cut_off(port, False)


async def thaw(leader: int, processes: list[int], seconds: float, frozen_now: set[int]) -> None:
    """Let the frozen ``processes`` of the service ``leader`` leads go on after
    ``seconds`` (one killed meanwhile is gone: nothing to do)."""
    await asyncio.sleep(seconds)
    for pid in processes:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGCONT)
    frozen_now.discard(leader)


def unfinished() -> list[int] | None:
    """Return the matches not finished yet, or None while the database does not answer
    this watcher (the chaos cut it off or froze it): it asks again a second later."""
    from games.models import Match

    try:
        return list(
            Match.objects.exclude(status=Match.Status.FINISHED).values_list("pk", flat=True)
        )
    except DatabaseError:
        with contextlib.suppress(DatabaseError):
            connection.close()  # opened anew at the next ask
        return None


async def play(
    args: argparse.Namespace, joined: list[tuple[dict, str]], config: Path, chaos: Chaos
) -> tuple[list[ChaosStudent], Stats]:
    stats, stop = Stats(), asyncio.Event()
    bases = [f"http://{HOST}:{port}" for port in args.asgi_ports]
    students = []
    for n, (answer, base) in enumerate(joined):
        urls = [b.replace("http://", "ws://") + answer["ws"] for b in bases]
        start = bases.index(base)
        urls = urls[start:] + urls[:start]
        rng = random.Random(args.seed * 100_003 + n)
        students.append(
            ChaosStudent(
                n, urls, {**answer, "origin": base}, rng=rng, think=tuple(args.think), chaos=chaos
            )
        )
    t0 = time.monotonic()
    tasks = [asyncio.create_task(s.run(stats, stop)) for s in students]
    killer = asyncio.create_task(kill_now_and_then(args, config, chaos, t0))
    try:
        while (left := await asyncio.to_thread(unfinished)) is None or left:
            if time.monotonic() - t0 > args.timeout:
                print(f"  timed out after {args.timeout:.0f} s", flush=True)
                break
            await asyncio.sleep(1)
        killer.cancel()
        # The students still see the end (a service killed last may still be starting).
        deadline = time.monotonic() + OVER_GRACE
        while not all(s.over for s in students) and time.monotonic() < deadline:
            await asyncio.sleep(0.5)
    finally:
        killer.cancel()
        stop.set()
        await asyncio.wait(tasks, timeout=10)
    for task in tasks:
        if task.done() and (error := task.exception()) is not None:
            raise error  # a defect of this client: never silent
    return students, stats


def describe_state(state: dict | None) -> str:
    """A state in a few words, for a failure's report."""
    if state is None:
        return "none"
    return (
        f"version {state['version']}, seat {state.get('seat')}, "
        f"{len(state.get('legal_actions') or [])} legal actions, "
        f"deadline {state.get('deadline')}, paused {state.get('paused')}"
    )


def check_matches() -> list[str]:
    """Every match finished, its log is one entry per version, its replay is its snapshot."""
    from benchmarks.load import check_logs
    from games.matches import load_state, replay_match
    from games.models import Match

    failures = list(check_logs())
    matches = list(Match.objects.all())
    if not matches:
        failures.append("no match was played")
    for match in matches:
        if match.status != Match.Status.FINISHED:
            movers = load_state(match).to_move() if match.snapshot else []
            failures.append(
                f"match {match.pk} did not finish (version {match.version}, to move: {movers})"
            )
        if replay_match(match).to_json() != match.snapshot:
            failures.append(f"match {match.pk}: its replay is not its stored snapshot")
    return failures


def check_acts(joined: list[tuple[dict, str]], acts: list[Act]) -> list[str]:
    """What the students were told agrees with every match's log."""
    from classroom.models import Seat
    from games.models import MatchAction

    if not acts:
        return ["no student acted"]
    # Each student's match, through its seat (the token's participant).
    match_of = {}
    for n, (answer, _base) in enumerate(joined):
        seat = Seat.objects.select_related("table").get(participant_id=answer["participant"])
        match_of[n] = seat.table.match_id
    log = {
        (row.match_id, row.version): (row.seat, row.action)
        for row in MatchAction.objects.only("match_id", "version", "seat", "action")
    }
    # A student may send the same move on the same version again (after a refusal, or
    # after its socket closed before the answer): the log cannot tell the two apart.
    maybe_stored = {
        (a.student, a.version, orjson.dumps(a.action)) for a in acts if a.outcome != "refused"
    }
    failures = []
    for act in acts:
        entry = log.get((match_of[act.student], act.version + 1))
        mine = entry == (act.seat, act.action)
        if act.outcome == "accepted" and not mine:
            failures.append(f"accepted but not stored as version {act.version + 1}: {act}")
        elif (
            act.outcome == "refused"
            and mine
            and ((act.student, act.version, orjson.dumps(act.action)) not in maybe_stored)
        ):
            failures.append(f"refused ({act.code}) but stored: {act}")
    return failures


def check_service_logs(folder: Path) -> list[str]:
    """Every service's errors and tracebacks, except EXPECTED_NOISE."""
    failures = []
    for path in sorted(folder.glob("*.log")):
        lines = path.read_text(errors="replace").splitlines()
        # A warning line whose traceback follows heads it, as an error line would.
        text = "\n".join(
            f"ERROR: {line}"
            if WARNED_TRACEBACKS.search(line) and lines[n + 1 : n + 2] == [TRACEBACK_LINE]
            else line
            for n, line in enumerate(lines)
        )
        blocks = unexpected(incidents(text), EXPECTED_NOISE)
        if blocks:
            failures.append(f"{path.name} logged errors:\n{excerpt(blocks)}")
    return failures


def quiet_beat(config: Path) -> None:
    """Kill beat before the services stop: beat stopped (SIGTERM) while it queues the
    sweeper raises SystemExit inside its Redis read and logs tracebacks about its closed
    schedule file, which tell nothing about the kills (Ctrl-C on `make run` may too)."""
    for info in supervisor_processes(config):
        if info["name"] == "celery-beat" and info["pid"]:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(info["pid"], signal.SIGKILL)


def run(args: argparse.Namespace) -> list[str]:
    """Run the chaos; return the failures ([] when every check passed)."""
    print(f"chaos seed {args.seed}", flush=True)
    began = time.monotonic()
    folder = Path(tempfile.mkdtemp(prefix="dp-chaos-"))
    logs = Path(args.logs) if args.logs else folder / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    redis_port = free_port()
    args.asgi_ports = [free_port() for _ in range(args.asgi)]
    env = environment(folder, redis_port)
    env.update(BOT_DELAY_SECONDS=str(args.bot_delay), LIVE_SWEEP_SECONDS="1")
    database, postgres_folder = None, None
    args.database_url = args.checks_url = args.database_pid = None
    if args.cut:
        assert own_network(), "a cut is made in the run's own network namespace only"
        open_loopback()
        env["DB_TCP_USER_TIMEOUT_SECONDS"] = str(CUT_QUERY_SECONDS)
    chaos = Chaos()
    try:
        if args.postgres:
            # PostgreSQL, run as its own user when this runs as root, gets a folder it
            # may enter.
            postgres_folder = Path(tempfile.mkdtemp(prefix="dp-chaos-pg-"))
            database, args.database_port = start_postgres(postgres_folder, logs)
            assert database.process is not None  # start_postgres started it
            args.database_pid = database.process.pid  # its process group's too
            env["DB_STATEMENT_SECONDS"] = str(FROZEN_STATEMENT_SECONDS)
            args.database_url = f"postgres://postgres@{HOST}:{args.database_port}/dataprotect"
            socket = quote(str(postgres_folder), safe="")
            args.checks_url = (
                f"postgres://postgres@{socket}:{args.database_port}/dataprotect"
                f"?application_name={CHECKS_APPLICATION}"
            )
            env["DATABASE_URL"] = args.database_url
        services = services_for(env, folder, redis_port, args.asgi_ports)
        config = supervisor_config(services, folder / "supervisor", logs)
        supervisord = Service(
            "supervisord",
            [sys.executable, "-m", "supervisor.supervisord", "-c", str(config)],
            env,
            log_path=logs / "supervisord.out",
        )
        failures, stats, played = play_through(args, env, config, supervisord, chaos)
        failures += check_service_logs(logs)
    finally:
        if database is not None:
            database.stop()
        shutil.rmtree(folder, ignore_errors=True)
        if postgres_folder is not None:
            shutil.rmtree(postgres_folder, ignore_errors=True)
    outcomes = Counter(act.outcome for act in chaos.acts)
    codes = Counter(act.code for act in chaos.acts if act.outcome == "refused")
    print(
        f"played {played:.0f} s ({time.monotonic() - began:.0f} s in all); "
        f"{len(chaos.kills)} kills ({dict(Counter(name for _at, name in chaos.kills))}); "
        f"{chaos.reconnects} reconnections, {stats.failed_connects} failed connections; "
        f"moves: {dict(outcomes)}, refusals {dict(codes)}"
    )
    return failures


def start_postgres(folder: Path, logs: Path) -> tuple[Service, int]:
    """Start a throwaway PostgreSQL server in ``folder`` (the tests' settings: durability
    off; its Unix socket there), not under supervisord (its connections are dropped, the
    server is not killed), and create the platform's database; return the server and
    its port."""
    port = free_port()
    server = postgres_service(folder, port)
    # Not a *.log: the run checks those for errors, and each dropped connection is a
    # line of PostgreSQL's.
    server.log_path = logs / "postgres.out"
    server.start()
    wait_until(lambda: postgres_answers(port), 30, "PostgreSQL", [server])
    with psycopg.connect(
        host=HOST, port=port, user="postgres", dbname="postgres", autocommit=True
    ) as db:
        db.execute("CREATE DATABASE dataprotect")
    return server, port


def play_through(
    args: argparse.Namespace, env: dict[str, str], config: Path, supervisord: Service, chaos: Chaos
) -> tuple[list[str], Stats, float]:
    """Set up the database, start the services, open the session, play with the kills,
    check; stop every service whatever happens. Return the failures, the students'
    counts and the seconds of play."""
    try:
        # This run's own connections are named, and left alone by the database's drops
        # and cuts.
        use_database({**env, "DATABASE_URL": args.checks_url or env["DATABASE_URL"]})
        import games.matches

        supervisord.start()
        wait_until(lambda: redis_answers(env["REDIS_URL"]), 30, "Redis", [supervisord])
        for port in args.asgi_ports:
            wait_until(partial(port_open, HOST, port), 60, "uvicorn", [supervisord])
        wait_for_celery(env, 60, [supervisord])
        bases = [f"http://{HOST}:{port}" for port in args.asgi_ports]
        # The same deals for the same seed (the kills' moments still vary).
        games.matches.new_seed = itertools.count(args.seed * 1000).__next__
        joined = open_classes(
            bases,
            args.students,
            args.variant,
            class_size=args.students,
            table_size=args.table_size,
            options=OPTIONS,
        )
        started = time.monotonic()
        students, stats = asyncio.run(play(args, joined, config, chaos))
        played = time.monotonic() - started
        failures = check_matches() + check_acts(joined, chaos.acts)
        failures += [
            f"student {s.number} never saw the end of its game; the last state it got: "
            f"{describe_state(s.state)}, a move waiting for its answer: {s.pending}"
            for s in students
            if not s.over
        ]
    finally:
        quiet_beat(config)
        supervisord.stop(timeout=60)
    return failures, stats, played


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=int(time.time()) % 100_000)
    parser.add_argument("--students", type=int, default=4, help="in one session")
    parser.add_argument("--table-size", type=int, default=3, help="bots fill the seats left")
    parser.add_argument("--asgi", type=int, default=2, help="uvicorn processes")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between kills")
    parser.add_argument("--chaos", type=float, default=60.0, help="seconds of kills")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds of play at most")
    parser.add_argument("--think", type=float, nargs=2, default=(0.1, 0.4), metavar=("MIN", "MAX"))
    parser.add_argument("--bot-delay", type=float, default=0.1, help="BOT_DELAY_SECONDS")
    parser.add_argument("--variant", default="beginner")
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="a throwaway PostgreSQL server, whose connections the database drops too",
    )
    parser.add_argument(
        "--cut",
        action="store_true",
        help="with --postgres, as root: in a network namespace of its own, cut the database "
        "off now and then",
    )
    parser.add_argument("--logs", help="keep the services' logs here")
    return parser


def stop_on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(1)  # unwinds through run(), which stops every service


def main() -> None:
    args = parser().parse_args()
    if args.cut and not args.postgres:
        parser().error("--cut cuts the PostgreSQL server off: give --postgres too")
    if args.cut and not own_network():
        # The run again in a network namespace of its own: its cuts touch no other
        # program's traffic (unshare: needs root).
        os.environ[OWN_NETWORK] = str(os.getpid())  # unshare runs it in this process
        os.execvp(
            "unshare", ["unshare", "--net", sys.executable, "-m", "benchmarks.chaos", *sys.argv[1:]]
        )
    signal.signal(signal.SIGTERM, stop_on_sigterm)
    failures = run(args)
    for failure in failures:
        print(f"FAILED: {failure}")
    print("chaos: every check passed" if not failures else f"chaos: {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
