"""A district's first minutes: K classes of 30 students join at once, each on the lobby.

    .venv/bin/python -m benchmarks.lobby [--students 2000] [--join-seconds 60] [--asgi 2]
        [--postgres [--database-latency MS]]

Starts the platform as ``benchmarks.load`` does and opens one Data-Tycoon session per 30
students. Each session's teacher shows the join screen on the projector (its socket,
``ws/teacher/sessions/<pk>/screen/``). Each student joins through ``POST /join/`` at a
moment drawn uniformly in the first ``--join-seconds`` (a class typing the code), then
opens the lobby page's socket (``ws/session/<code>/``) with the cookie the join form sets,
and keeps it. Once everybody joined and the lobbies are quiet, every teacher starts their
session at once. It prints:

- join to every lobby: from a student's join request to the moment every lobby socket
  of the class that was open before it (the other students' and the join screen) shows
  the new nickname (p50, p95, p99, max), and the joins some socket never showed;
- the fragments the lobby sockets received, per join, and their size;
- the start: from a teacher's start to every student's lobby saying that the game
  started (p50, p95, max);
- the errors: failed joins and connections, sockets closed by the server, error lines;
- the CPU time of every server process while the class joined, and per join.

Loopback only, bounded in time, stops every process it started, also on error or Ctrl-C.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import random
import re
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from tqdm import tqdm

from benchmarks.load import (
    CLK_TCK,
    CONNECT_TIMEOUT,
    Platform,
    Usage,
    create_sessions,
    listen_until,
    open_page_socket,
    parse_platform_arguments,
    percentile,
    platform_arguments,
    post_join,
    sample,
    teacher_cookie,
    utf8_size,
)
from benchmarks.stack import use_database

# A nickname as each lobby fragment shows it: a student's chips, the join screen's roster.
NICKNAME = re.compile(
    r'<li(?: data-participant="\d+")?(?: class="chip--me")?>([^<]+?)(?: <span| ?</li>)'
    r'|<li class="screen-roster__name" data-participant="\d+">([^<]*)</li>'
)
STARTED = "lobby-state--running"
# The lobbies are quiet when no fragment came for this long.
QUIET_SECONDS = 3.0
JOINING_AT_ONCE = 32  # requests in flight from this client, as many devices at once


@dataclass
class LobbySocket:
    """One lobby socket: what it showed and when."""

    code: str
    joined_at: float | None = None  # when its student's join request was sent
    opened: float | None = None  # when its first fragment came
    seen: dict[str, float] = field(default_factory=dict)  # nickname: first shown
    started: float | None = None  # when it first said that the game started
    fragments: int = 0
    size: int = 0  # bytes, in UTF-8

    def take(self, text: str, at: float) -> None:
        self.fragments += 1
        self.size += utf8_size(text)
        if self.opened is None:
            self.opened = at
        for student, screen in NICKNAME.findall(text):
            self.seen.setdefault(html.unescape(student or screen), at)
        if self.started is None and STARTED in text:
            self.started = at


@dataclass
class Counts:
    failed_joins: int = 0
    failed_connects: int = 0
    closed: dict[int | None, int] = field(default_factory=dict)  # None: no close frame
    last_fragment: float = 0.0


async def keep_open(
    lobby: LobbySocket, url: str, origin: str, cookie: str, *, counts: Counts, stop: asyncio.Event
) -> None:
    """Keep a lobby socket open until ``stop``, noting every fragment."""
    ws = await open_page_socket(url, origin, cookie)
    if ws is None:
        counts.failed_connects += 1
        return

    def take(text: str) -> None:
        at = time.perf_counter()
        lobby.take(text, at)
        counts.last_fragment = at

    if await listen_until(ws, stop, take):
        counts.closed[ws.close_code] = counts.closed.get(ws.close_code, 0) + 1


def student_cookie(participant_id: int) -> str:
    """Return the Cookie header the join form would have set for this participant."""
    from django.conf import settings
    from django.http import HttpResponse

    from classroom import identity

    response = HttpResponse()
    identity.set_student_cookie(response, type("Seated", (), {"pk": participant_id})())
    return f"{settings.STUDENT_COOKIE_NAME}={response.cookies[settings.STUDENT_COOKIE_NAME].value}"


def start_every_session(sessions: list) -> dict[str, float]:
    """Start each session as its teacher would; return when each start was asked."""
    from classroom.actions import do_start_session

    asked = {}
    for session in sessions:
        asked[session.join_code] = time.perf_counter()
        do_start_session(session)
    return asked


@dataclass
class Outcome:
    lobbies: list[LobbySocket]
    screens: list[LobbySocket]
    joins: list[tuple[str, str, float]]  # (code, nickname, sent)
    answers: list[float]  # each join request's time to its answer, ms, sorted
    counts: Counts
    joining: tuple[float, float]
    usage: tuple[Usage, Usage]
    started: dict[str, float]


async def morning(
    args: argparse.Namespace,
    bases: list[str],
    sessions: list,
    plan: list[tuple[str, str]],
    measure: Callable[[Usage], None],
) -> Outcome:
    """Join every student at their moment, each keeping their lobby; then start."""
    stop, counts = asyncio.Event(), Counts()
    cookie = await asyncio.to_thread(teacher_cookie)
    screens: list[LobbySocket] = []
    tasks: list[asyncio.Task] = []
    for k, session in enumerate(sessions):
        base = bases[k % len(bases)]
        screen = LobbySocket(session.join_code)
        screens.append(screen)
        url = f"{base.replace('http://', 'ws://')}/ws/teacher/sessions/{session.pk}/screen/"
        opening = keep_open(screen, url, base, cookie, counts=counts, stop=stop)
        tasks.append(asyncio.create_task(opening))
    await asyncio.sleep(1)
    usage_start = Usage()
    await asyncio.to_thread(measure, usage_start)
    begun = time.perf_counter()
    lobbies, joins, answers = await join_everyone(
        args, bases, plan, counts=counts, stop=stop, tasks=tasks
    )
    quiet = counts.last_fragment
    usage_end = Usage()
    await asyncio.to_thread(measure, usage_end)
    started = await asyncio.to_thread(start_every_session, sessions)
    deadline = time.perf_counter() + CONNECT_TIMEOUT
    while time.perf_counter() < deadline and not all(lobby.started for lobby in lobbies):
        await asyncio.sleep(0.5)
    stop.set()
    await asyncio.wait(tasks, timeout=30)
    return Outcome(
        lobbies, screens, joins, answers, counts, (begun, quiet), (usage_start, usage_end), started
    )


async def join_everyone(
    args: argparse.Namespace,
    bases: list[str],
    plan: list[tuple[str, str]],
    *,
    counts: Counts,
    stop: asyncio.Event,
    tasks: list[asyncio.Task],
) -> tuple[list[LobbySocket], list[tuple[str, str, float]], list[float]]:
    """Join each student at a moment of the first ``--join-seconds``, each then keeping
    their lobby open (a task added to ``tasks``); return once everybody is in and the
    lobbies are quiet: the lobbies, the joins ``(code, nickname, sent)`` and the join
    requests' times to their answers (ms, sorted)."""
    rng = random.Random(args.seed)
    loop = asyncio.get_running_loop()
    pool = ThreadPoolExecutor(JOINING_AT_ONCE)
    lobbies: list[LobbySocket] = []
    joins: list[tuple[str, str, float]] = []
    answers: list[float] = []
    bar = tqdm(total=len(plan), desc="joining", unit="student")

    async def one(n: int, code: str, nickname: str, at: float) -> None:
        await asyncio.sleep(at)
        base = bases[n % len(bases)]
        sent = time.perf_counter()
        try:
            answer = await loop.run_in_executor(pool, post_join, base, code, nickname)
        except (RuntimeError, OSError):
            counts.failed_joins += 1
            return
        finally:
            bar.update()
        answers.append((time.perf_counter() - sent) * 1000)
        joins.append((code, answer["nickname"], sent))
        lobby = LobbySocket(code, joined_at=sent)
        lobbies.append(lobby)
        url = f"{base.replace('http://', 'ws://')}/ws/session/{code}/"
        header = await asyncio.to_thread(student_cookie, answer["participant"])
        await keep_open(lobby, url, base, header, counts=counts, stop=stop)

    tasks += [
        asyncio.create_task(one(n, code, name, rng.uniform(0, args.join_seconds)))
        for n, (code, name) in enumerate(plan)
    ]
    deadline = time.perf_counter() + args.join_seconds + CONNECT_TIMEOUT
    while time.perf_counter() < deadline:
        await asyncio.sleep(0.5)
        everyone = bar.n == len(plan) and all(lobby.opened for lobby in lobbies)
        if everyone and time.perf_counter() - counts.last_fragment > QUIET_SECONDS:
            break
    bar.close()
    pool.shutdown(wait=False)
    return lobbies, joins, sorted(answers)


def join_latencies(outcome: Outcome, lobbies: list[LobbySocket]) -> tuple[list[float], int]:
    """Return, for each join, ms from its request to every one of ``lobbies`` of its class
    open before it showing the nickname; and the joins some such lobby never showed."""
    by_code: dict[str, list[LobbySocket]] = {}
    for lobby in lobbies:
        by_code.setdefault(lobby.code, []).append(lobby)
    found, missed = [], 0
    for code, nickname, sent in outcome.joins:
        last = 0.0
        for lobby in by_code.get(code, []):
            if lobby.opened is None or lobby.opened >= sent:
                continue
            shown = lobby.seen.get(nickname)
            if shown is None:
                missed += 1  # this lobby never showed it
                break
            last = max(last, shown)
        else:  # every lobby open before the join showed it (0.0: none was open)
            if last:
                found.append((last - sent) * 1000)
    return sorted(found), missed


def report(args: argparse.Namespace, outcome: Outcome, errors: dict[str, int]) -> None:
    lobbies, counts = outcome.lobbies, outcome.counts
    begun, quiet = outcome.joining
    joins = len(outcome.joins)
    print(
        f"\n{args.students} students in {len(outcome.screens)} classes joining over "
        f"{args.join_seconds:g} s, each keeping the lobby page open; each class's join "
        f"screen open; {args.asgi} uvicorn process(es)"
    )
    for who, shown in (("every student's lobby", lobbies), ("the join screen", outcome.screens)):
        ms, missed = join_latencies(outcome, shown)
        if ms:
            print(
                f"join -> {who} of the class shows the nickname: p50 "
                f"{percentile(ms, 0.5):.0f} ms, p95 {percentile(ms, 0.95):.0f} ms, p99 "
                f"{percentile(ms, 0.99):.0f} ms, max {ms[-1]:.0f} ms ({len(ms)} joins; "
                f"{missed} not shown)"
            )
        else:
            print(f"join -> {who}: no nickname seen in any fragment ({missed} joins)")
    answers = outcome.answers
    if answers:
        print(
            f"join request -> its answer: p50 {percentile(answers, 0.5):.0f} ms, p95 "
            f"{percentile(answers, 0.95):.0f} ms, max {answers[-1]:.0f} ms"
        )
    everyone = lobbies + outcome.screens
    fragments = sum(lobby.fragments for lobby in everyone)
    size = sum(lobby.size for lobby in everyone)
    print(
        f"lobby fragments: {fragments} ({fragments / max(1, joins):.1f} per join), "
        f"{size / max(1, fragments) / 1024:.1f} KiB each; the join screens "
        f"{sum(s.fragments for s in outcome.screens)} of them"
    )
    starts = sorted(
        (lobby.started - outcome.started[lobby.code]) * 1000
        for lobby in lobbies
        if lobby.started is not None
    )
    if starts:
        print(
            f"start -> the student's lobby says so: p50 {percentile(starts, 0.5):.0f} ms, "
            f"p95 {percentile(starts, 0.95):.0f} ms, max {starts[-1]:.0f} ms "
            f"({len(lobbies) - len(starts)} lobbies never said it)"
        )
    print(
        f"errors: failed joins {counts.failed_joins}, failed connections "
        f"{counts.failed_connects}, sockets closed by the server {counts.closed or 0}, "
        f"error lines in the services' logs {errors or 0}"
    )
    usage_start, usage_end = outcome.usage
    elapsed = quiet - begun
    print(f"server processes while the classes joined ({elapsed:.0f} s; CPU seconds, % of a core):")
    total = 0.0
    for name in usage_end.ticks:
        cpu = (usage_end.ticks[name] - usage_start.ticks.get(name, 0)) / CLK_TCK
        total += cpu
        print(f"  {name:<28} {cpu:7.1f} s  {100 * cpu / max(elapsed, 1):5.1f} %")
    print(f"  all server processes: {total:.1f} s, {1000 * total / max(1, joins):.1f} ms a join")
    traffic_start, traffic_end = usage_start.database_traffic, usage_end.database_traffic
    if traffic_start is not None and traffic_end is not None:
        trips = traffic_end[0] - traffic_start[0]
        opened = traffic_end[1] - traffic_start[1]
        print(
            f"  database round trips: {trips}, {trips / max(1, joins):.1f} a join; "
            f"connections opened: {opened}, {opened / max(1, joins):.2f} a join"
        )
    print(f"  this benchmark's own client process: {time.process_time():.1f} s of CPU in all")


def run(args: argparse.Namespace) -> None:
    platform = Platform.for_run(args, "dp-lobby")
    env = platform.env
    outcome = None
    try:
        platform.start_database()
        use_database(env)
        platform.start()
        sessions, plan = create_sessions(args.students, args.variant)

        def measure(usage: Usage) -> None:
            sample(platform.services, usage)
            usage.database_traffic = platform.database_traffic()

        outcome = asyncio.run(
            asyncio.wait_for(
                morning(args, platform.bases(), sessions, plan, measure),
                args.join_seconds + 3 * CONNECT_TIMEOUT,
            )
        )
    finally:
        platform.stop()
        errors = platform.error_lines()
        platform.remove_folders(args.logs)
    report(args, outcome, errors)


def main() -> None:
    parser = platform_arguments(__doc__.splitlines()[0])
    parser.add_argument(
        "--join-seconds", type=float, default=60.0, help="the joins spread over this long"
    )
    run(parse_platform_arguments(parser))


if __name__ == "__main__":
    main()
