"""Helpers of the live-play tests: sockets on the real ASGI app, matches driven to a point."""

from __future__ import annotations

import json
import random
from collections.abc import Collection
from typing import Any

from channels.testing import WebsocketCommunicator
from django.db import connection, connections
from django.test import Client

from classroom.identity import seat_token
from classroom.models import ClassSession, Participant, Table
from config.asgi import application
from config.services import wait_until
from games.matches import apply_action, load_state
from games.models import Match

TIMEOUT = 10
ORIGIN = (b"origin", b"http://localhost")
CALL_WINDOWS = {"call_data", "call_databreach"}


def cookie_header(client: Client) -> bytes:
    return "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items()).encode()


class SeatCommunicator(WebsocketCommunicator):
    """A program's seat socket: its seat token is its first message, never in the URL."""

    def __init__(self, path: str, headers: list[tuple[bytes, bytes]], token: str) -> None:
        super().__init__(application, path, headers)
        self.token = token

    async def connect(self, timeout: float = TIMEOUT) -> tuple[bool, Any]:
        connected = await super().connect(timeout)
        if connected[0]:
            await self.send_to(text_data=auth_message(self.token))
        return connected


def auth_message(token: str) -> str:
    """Return the first message of a program's seat socket (docs/protocol.md)."""
    return json.dumps({"type": "auth", "token": token})


def play_socket(
    session: ClassSession,
    participant: Participant | None = None,
    token: str | None = None,
    client: Client | None = None,
) -> WebsocketCommunicator:
    """Return a communicator on the student's play socket (token, or a client's cookies)."""
    headers = [ORIGIN]
    path = f"/ws/play/{session.join_code}/"
    if client is not None:
        headers.append((b"cookie", cookie_header(client)))
        return WebsocketCommunicator(application, path, headers)
    if not token:
        assert participant is not None, "a seat socket needs a token or a participant"
        token = seat_token(participant)
    return SeatCommunicator(path, headers, token)


def watch_socket(table: Table, teacher_client: Client) -> WebsocketCommunicator:
    headers = [ORIGIN, (b"cookie", cookie_header(teacher_client))]
    return WebsocketCommunicator(application, f"/ws/table/{table.pk}/watch/", headers)


def dashboard_socket(session: ClassSession, teacher_client: Client) -> WebsocketCommunicator:
    headers = [ORIGIN, (b"cookie", cookie_header(teacher_client))]
    return WebsocketCommunicator(application, f"/ws/teacher/sessions/{session.pk}/live/", headers)


# Notices a test waiting for another message passes over: presence, and the GDPR lesson
# cards that follow a move in the default "show" lesson mode (tests/live/test_lessons_live.py).
SKIPPED = ("presence", "lesson", "lesson_dismissed")


async def receive(
    communicator: WebsocketCommunicator, kind: str | None = None, skip: Collection[str] = SKIPPED
) -> dict:
    """Return the next JSON message (of ``kind``), skipping presence and lesson notices."""
    while True:
        message = json.loads(await communicator.receive_from(timeout=TIMEOUT))
        # Every message carries the match version (ARCHITECTURE.md, docs/protocol.md).
        assert "version" in message, message
        if kind is not None and message["type"] != kind and message["type"] in skip:
            continue
        if kind is None and message["type"] in skip:
            continue
        return message


async def connect(communicator: WebsocketCommunicator) -> tuple[dict, dict]:
    """Connect and return the ``hello`` and first ``state`` messages."""
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected
    hello = await receive(communicator)
    assert hello["type"] == "hello", hello
    state = await receive(communicator)
    assert state["type"] == "state", state
    return hello, state


def random_step(match: Match, rng: random.Random) -> None:
    """Apply one random legal action of the first seat that may act (or a timer's expiry)."""
    state = load_state(match)
    movers = state.to_move()
    seat = movers[0] if movers else None
    legal = state.legal_actions(seat)
    apply_action(match.pk, seat, rng.choice(legal), expected_version=match.version)
    match.refresh_from_db()


def call_window_owner(match: Match) -> int | None:
    """Return the seat whose DATA!/DATABREACH! call window is open, or None."""
    state = load_state(match)
    for seat in range(match.num_seats):
        window = state.view(seat)["window"]
        if window and window["kind"] in CALL_WINDOWS:
            return seat
    return None


def drive_to_call_window(match: Match, seed: int = 1, limit: int = 2000) -> int:
    """Play random moves until a call window opens; return its owner's seat."""
    rng = random.Random(seed)
    for _ in range(limit):
        owner = call_window_owner(match)
        if owner is not None:
            return owner
        if load_state(match).is_over():
            break
        random_step(match, rng)
    raise AssertionError("no call window opened")


def database_process() -> int:
    """Return the PostgreSQL server process of this thread's database connection."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def database_process_alive(pid: int) -> bool:
    """Tell whether PostgreSQL's server process ``pid`` still runs."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
        return cursor.fetchone()[0] == 1


def end_database_process(pid: int) -> None:
    """End PostgreSQL's server process ``pid`` from this thread's connection, as a
    database restart or a failover does, and wait until it is gone."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        assert cursor.fetchone()[0], f"no PostgreSQL process {pid} to end"
    wait_until(lambda: not database_process_alive(pid), TIMEOUT, f"PostgreSQL's process {pid}")


def keep_database_connection(keep: bool, port: int | None = None) -> None:
    """Make this thread keep its database connection between uses as the servers do
    (``DB_CONN_MAX_AGE``, checked only after it sat idle), or stop: pytest's own process
    closes its connections after each use. ``port``: connect there on loopback (a
    relay, tests.live.database_relay), not to the database's own port."""
    connection.close()
    if keep:
        connection.settings_dict = {
            **connection.settings_dict,
            "CONN_MAX_AGE": 60,
            "CONN_HEALTH_CHECKS": True,
            **({"HOST": "127.0.0.1", "PORT": port} if port is not None else {}),
        }
    else:
        connection.settings_dict = connections.settings[connection.alias]
