"""``make run``'s supervisor: real services up, then Ctrl-C leaves no process behind."""

import json
import os
import signal
import subprocess
import sys
import time
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

        supervisor.send_signal(signal.SIGINT)
        supervisor.wait(60)
    finally:
        if supervisor.poll() is None:
            supervisor.kill()
    time.sleep(0.5)
    assert processes_with_env(marker) == []
    assert supervisor.returncode == 0
