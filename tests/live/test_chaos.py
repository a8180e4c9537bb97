"""Chaos: while tables play, kill -9 an ASGI process, the Celery worker or Redis every few
seconds (the platform under supervisord, as `make run`); every game still finishes and
every action log agrees with what the students were told (benchmarks/chaos.py). In the
PostgreSQL part of the suite the platform runs on PostgreSQL, and the database dropping
every connection of the platform at once is one of the kills, and so is the database
cut off for some seconds (every packet to or from it held, as a network cut does, in a
network namespace the run makes for itself: as root). An ASGI process, the worker,
Redis or the database server frozen for some seconds (SIGSTOP, then SIGCONT) is one
more."""

import os
import subprocess
import sys

import pytest
from django.db import connection

from config.services import BASE_DIR
from games import clock
from tests.namespaces import network_namespaces

pytestmark = [pytest.mark.services, pytest.mark.slow]

# Fixed, and printed by the run: a failure is replayed with
# `.venv/bin/python -m benchmarks.chaos --seed 7 --every 3 --logs DIR` (the same deals and the
# same picks of targets; the kills' moments still vary with the machine's speed).
SEED = 7
# A minute of kills, one every EVERY seconds while the games last (on a fast machine
# they end within 30 s, and every kind of fault must have had its turn by then), then
# the games play to their end: the run fails when they have not ended after TIMEOUT
# seconds of play; the test gives up on it after WHOLE_RUN.
CHAOS, EVERY, TIMEOUT, WHOLE_RUN = 60, 3, 180, 330


def test_kills_every_few_seconds_lose_no_move_and_every_game_finishes(tmp_path):
    # Its own Redis, database and services: nothing of this test run's (its clock file
    # neither, which the services would otherwise share).
    env = {k: v for k, v in os.environ.items() if k != clock.CLOCK_FILE_VARIABLE}
    logs = tmp_path / "logs"
    argv = [sys.executable, "-m", "benchmarks.chaos", "--seed", str(SEED)]
    argv += ["--chaos", str(CHAOS), "--every", str(EVERY), "--timeout", str(TIMEOUT)]
    argv += ["--logs", str(logs)]
    postgres = connection.vendor == "postgresql"
    if postgres:
        argv.append("--postgres")
    cut = postgres and network_namespaces()
    if cut:
        argv.append("--cut")
    process = subprocess.Popen(
        argv, cwd=BASE_DIR, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        output, _ = process.communicate(timeout=WHOLE_RUN)
    except subprocess.TimeoutExpired:
        process.terminate()  # SIGTERM: the run stops every service it started
        output, _ = process.communicate(timeout=90)
    print(output[-20_000:])
    assert f"chaos seed {SEED}" in output
    assert process.returncode == 0, output[-10_000:]
    assert "chaos: every check passed" in output
    kills = [
        line
        for line in output.splitlines()
        if "kill -9" in line
        or "the database drops its" in line
        or " freeze " in line
        or "cut the database off" in line
    ]
    # Each kind of target was killed at least once (the seed makes it so here).
    targets: tuple[str, ...] = (
        "kill -9 asgi-",
        "kill -9 celery-worker",
        "kill -9 redis",
        "freeze ",
    )
    targets += ("the database drops its",) if postgres else ()
    targets += ("cut the database off",) if cut else ()
    for target in targets:
        assert any(target in line for line in kills), kills
