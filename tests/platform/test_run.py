"""``make run``: every service under supervisord, each started again after a kill -9,
the platform answering pages and sockets again, and Ctrl-C leaving no process behind."""

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest
import websockets
from websockets.typing import Origin

from config.services import BASE_DIR, free_port, port_open
from tests.live.helpers import auth_message
from tests.live.protocol_driver import join, run

pytestmark = pytest.mark.slow

SERVICES = ("asgi", "celery-worker", "celery-beat", "redis")


def processes_with_env(marker: str) -> list[int]:
    """Return the pids whose environment contains marker (our children inherit it)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if marker.encode() in environ:
            pids.append(int(entry.name))
    return pids


def health(port: int, within: float) -> dict:
    """Return /healthz's answer once it is 200, or the last answer after within seconds."""
    deadline = time.monotonic() + within
    answer = {}
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as reply:
                return json.load(reply)
        except urllib.error.HTTPError as error:
            answer = json.load(error)
        except OSError as error:
            answer = {"error": str(error)}
        time.sleep(0.5)
    return answer


class Output:
    """The supervisor's output, read by a thread, so that waiting for a line has a bound."""

    def __init__(self, process: subprocess.Popen) -> None:
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self.read, args=(process,), daemon=True)
        self.reader.start()

    def read(self, process: subprocess.Popen) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            self.lines.append(line)

    def wait_for(self, text: str, within: float, after: int = 0) -> int:
        """Return the index of the first line from index after containing text."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            for index in range(after, len(self.lines)):
                if text in self.lines[index]:
                    return index
            time.sleep(0.2)
        pytest.fail(f"no line with {text!r} within {within} s:\n{self.text()}", pytrace=False)

    def text(self) -> str:
        return "".join(self.lines[-200:])


def supervisorctl(config: Path, *args: str) -> str:
    return subprocess.run(
        [sys.executable, "-m", "supervisor.supervisorctl", "-c", str(config), *args],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    ).stdout.strip()


async def first_message(base: str, seat: dict, attempts: int = 5) -> dict:
    """Open the seat's play socket; return the server's first message. Like the page, try
    again after an "unavailable" (a pooled connection to a Redis that was just killed
    fails once, and the server says so and closes)."""
    url = base.replace("http://", "ws://") + seat["ws"]
    for _ in range(attempts):
        async with websockets.connect(url, origin=Origin(base), open_timeout=20) as socket:
            await socket.send(auth_message(seat["token"]))  # the token never in the URL
            message = json.loads(await asyncio.wait_for(socket.recv(), 20))
        if message.get("code") != "unavailable":
            break
        await asyncio.sleep(1)
    return message


def stop_for_good(supervisor: subprocess.Popen, marker: str) -> None:
    """Stop a supervisor a failed assertion left running: Ctrl-C first, then SIGKILL to
    it and to everything it started, so that no service outlives the test."""
    if supervisor.poll() is not None:
        return
    supervisor.send_signal(signal.SIGINT)
    try:
        supervisor.wait(60)
    except subprocess.TimeoutExpired:
        supervisor.kill()
        for pid in processes_with_env(marker):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def manage(env: dict[str, str], *command: str) -> str:
    return subprocess.run(
        [sys.executable, "manage.py", *command],
        env=env,
        cwd=BASE_DIR,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


@pytest.mark.timeout(400)
def test_run_restarts_each_killed_service_and_ctrl_c_stops_them_all(tmp_path):
    token = uuid.uuid4().hex
    marker = f"DP_RUN_TEST={token}"
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    port, redis_port = free_port(), free_port()
    env.update(
        VAR_DIR=str(tmp_path),
        PORT=str(port),
        BUNDLED_REDIS_PORT=str(redis_port),
        DP_RUN_TEST=token,
        PYTHONUNBUFFERED="1",
    )
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "load_demo")
    code = manage(
        env, "open_session", "--teacher", "demo-teacher", "--game", "data_tycoon",
        "--table-size", "2", "--bots", "--class", "3C",
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    supervisor = subprocess.Popen(
        [sys.executable, "-m", "config.run"],
        env=env,
        cwd=BASE_DIR,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    output = Output(supervisor)
    config = tmp_path / "supervisor" / "supervisord.conf"
    try:
        output.wait_for("Ctrl-C", 120)
        assert f"open http://127.0.0.1:{port}/" in output.text()
        password = (tmp_path / "demo_login").read_text().strip()
        assert f"log in as demo-teacher with password {password}" in output.text()
        assert health(port, within=30)["celery"] == "ok"
        assert (tmp_path / "redis").is_dir()

        # kill -9 of each service's main process, as a crash would: supervisord logs it,
        # starts it again, and the platform answers again.
        for number, name in enumerate(SERVICES):
            pid = int(supervisorctl(config, "pid", name))
            mark = len(output.lines)
            os.kill(pid, signal.SIGKILL)
            died = output.wait_for(
                f"exited: {name} (terminated by SIGKILL; not expected)", 30, mark
            )
            output.wait_for(f"spawned: '{name}'", 30, died)
            assert int(supervisorctl(config, "pid", name)) != pid
            assert health(port, within=60) == {
                "status": "ok",
                "database": "ok",
                "redis": "ok",
                "celery": "ok",
                # beat asks for the first backup an hour after it first starts
                "backups": {"state": "none", "last": None, "kept": 0},
            }, output.text()
            # A page, and a student's socket that gets the table's state.
            with urllib.request.urlopen(f"{base}/join/", timeout=10) as response:
                assert response.status == 200
            seat = join(base, code, f"Kid{number}")
            # Before the teacher starts: "waiting", sent after joining the session's
            # channel-layer group, so through Redis.
            message = run(first_message, base, seat)
            assert message["type"] == "waiting", (message, output.text())
        assert supervisor.poll() is None
        # Each counts as started once it stayed up START_SECONDS (10 s).
        deadline = time.monotonic() + 30
        while supervisorctl(config, "status").count("RUNNING") < len(SERVICES):
            assert time.monotonic() < deadline, supervisorctl(config, "status")
            time.sleep(1)

        supervisor.send_signal(signal.SIGINT)
        supervisor.wait(90)
        output.reader.join(10)
    finally:
        stop_for_good(supervisor, marker)
    time.sleep(0.5)
    assert processes_with_env(marker) == []
    assert not port_open("127.0.0.1", port)
    assert not port_open("127.0.0.1", redis_port)  # Redis retitles itself: not in environ
    assert supervisor.returncode == 0
    assert "stopped: redis" in output.text()
