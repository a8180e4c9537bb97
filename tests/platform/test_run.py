"""``make run``'s supervisor: real services up, then Ctrl-C leaves no process behind."""

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest

from config.services import BASE_DIR, free_port

pytestmark = pytest.mark.slow


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


def cmdline(pid: int) -> list[bytes]:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().split(b"\0")
    except OSError:
        return []


def is_service(pid: int, name: str, supervisor: int) -> bool:
    """Tell whether pid is the supervisor's child that runs the service called name."""
    argv = cmdline(pid)
    try:
        status = (Path("/proc") / str(pid) / "status").read_text()
    except OSError:
        return False
    if f"PPid:\t{supervisor}\n" not in status:
        return False
    if name == "redis":
        return b"redis-server" in argv[0]  # retitled "redis-server 127.0.0.1:PORT"
    # Celery retitles its main process ("[celeryd: worker-...@host:MainProcess] ...").
    title = b" ".join(argv)
    return name == "celery-worker" and b"worker" in title and b"beat" not in title


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


def stop_for_good(supervisor: subprocess.Popen, marker: str) -> None:
    """Stop a supervisor a failed assertion left running: Ctrl-C first, then SIGKILL to
    it and to everything it started, so that no service outlives the test."""
    if supervisor.poll() is not None:
        return
    supervisor.send_signal(signal.SIGINT)
    try:
        supervisor.wait(30)
    except subprocess.TimeoutExpired:
        supervisor.kill()
        for pid in processes_with_env(marker):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_run_starts_every_service_and_ctrl_c_stops_them_all(tmp_path):
    token = uuid.uuid4().hex
    marker = f"DP_RUN_TEST={token}"
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    port = free_port()
    env.update(
        VAR_DIR=str(tmp_path),
        PORT=str(port),
        BUNDLED_REDIS_PORT=str(free_port()),
        DP_RUN_TEST=token,
        PYTHONUNBUFFERED="1",
    )
    for command in (["migrate", "--noinput", "-v0"], ["load_demo"]):
        subprocess.run(
            [sys.executable, "manage.py", *command],
            env=env,
            cwd=BASE_DIR,
            check=True,
            capture_output=True,
        )
    supervisor = subprocess.Popen(
        [sys.executable, "-m", "config.run"],
        env=env,
        cwd=BASE_DIR,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    output = []
    try:
        deadline = time.monotonic() + 120
        for line in supervisor.stdout:
            output.append(line)
            if "The platform is up" in line or time.monotonic() > deadline:
                break
        assert f"open http://127.0.0.1:{port}/" in "".join(output), "".join(output)
        password = (tmp_path / "demo_login").read_text().strip()
        for line in supervisor.stdout:
            output.append(line)
            if "Ctrl-C" in line:
                break
        assert f"log in as demo-teacher with password {password}" in "".join(output)

        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as response:
            assert response.status == 200
            assert json.load(response)["celery"] == "ok"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as response:
            assert response.status == 200
        children = processes_with_env(marker)
        # Redis, the worker (with its pool), beat and uvicorn, besides the supervisor.
        assert len(children) >= 5
        assert (tmp_path / "redis").is_dir()

        # A child that dies is started again: the Celery worker (it can exit on a broker
        # outage) and the bundled Redis itself (its append-only file keeps the queue).
        (runner,) = [pid for pid in children if cmdline(pid)[1:3] == [b"-m", b"config.run"]]
        for name in ("celery-worker", "redis"):
            # Every process: Redis's retitling overwrites its /proc environ with the title.
            everyone = [
                int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()
            ]
            (leader,) = [pid for pid in everyone if is_service(pid, name, runner)]
            os.killpg(leader, signal.SIGKILL)
            for line in supervisor.stdout:
                output.append(line)
                if f"{name} stopped unexpectedly" in line or time.monotonic() > deadline:
                    break
            assert f"{name} stopped unexpectedly (exit code -9); restarting it." in line
            assert health(port, within=60) == {
                "status": "ok",
                "database": "ok",
                "redis": "ok",
                "celery": "ok",
            }, "".join(output)
        assert supervisor.poll() is None

        supervisor.send_signal(signal.SIGINT)
        supervisor.wait(60)
    finally:
        stop_for_good(supervisor, marker)
    time.sleep(0.5)
    assert processes_with_env(marker) == []
    assert supervisor.returncode == 0
