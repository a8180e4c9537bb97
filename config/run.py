"""Run the whole platform on one machine, or the test suite against its own Redis.

``python -m config.run`` (what ``make run`` calls): start the bundled Redis unless
REDIS_URL is set, then a Celery worker, Celery beat and the ASGI server; print the
URL; start again a child that dies (stop everything when one keeps dying); stop every
child on Ctrl-C or SIGTERM.

``python -m config.run test [pytest arguments]`` (what ``make test`` calls): start a
Redis server on a free port, run pytest against it, stop it, exit with pytest's code.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from config.services import (
    BASE_DIR,
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


def var_dir() -> Path:
    """Return the folder for the platform's data, as the settings define it."""
    return Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))


def lan_addresses() -> list[str]:
    """Return this machine's IPv4 addresses other than loopback, for LAN devices."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return sorted({info[4][0] for info in infos if not info[4][0].startswith("127.")})


def start_redis(env: dict[str, str], started: list[Service]) -> None:
    """Start the bundled Redis unless REDIS_URL names one; set REDIS_URL in env."""
    if os.environ.get("REDIS_URL"):
        print(f"Using the Redis at REDIS_URL={env['REDIS_URL']}")
        return
    port = int(os.environ.get("BUNDLED_REDIS_PORT", "6399"))
    env["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
    if port_open("127.0.0.1", port):
        if redis_answers(env["REDIS_URL"]):
            print(f"A Redis server already answers on port {port}; using it.")
            return
        raise SystemExit(
            f"Port {port} is taken by something that is not Redis: set BUNDLED_REDIS_PORT."
        )
    redis = redis_service(port, var_dir() / "redis").start()
    started.append(redis)
    wait_until(lambda: redis_answers(env["REDIS_URL"]), 15, "Redis", [redis])
    print(f"Redis started on 127.0.0.1:{port} (data in {var_dir() / 'redis'})")


# A child that dies is started again (a Celery worker can exit on a broker outage, the
# bundled Redis can be killed; the matches resume from the database and the append-only
# file), unless it keeps dying: then the supervisor stops everything and exits 1.
RESTARTS_ALLOWED = 5
RESTART_WINDOW_SECONDS = 60


class Restarts:
    """Count each service's restarts within the last RESTART_WINDOW_SECONDS."""

    def __init__(self) -> None:
        self.times: dict[str, list[float]] = {}

    def allow(self, name: str) -> bool:
        """Record a restart of name now; tell whether it stays within the limit."""
        now = time.monotonic()
        recent = [t for t in self.times.get(name, []) if now - t < RESTART_WINDOW_SECONDS]
        if len(recent) >= RESTARTS_ALLOWED:
            return False
        self.times[name] = [*recent, now]
        return True


def serve() -> int:
    """Start every service and supervise them until interrupted."""
    env = dict(os.environ)
    env.setdefault("PYTHONUNBUFFERED", "1")
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "8000"))
    started: list[Service] = []
    stopping = False

    def request_stop(signum, frame):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    try:
        start_redis(env, started)
        started.append(celery_worker_service(env).start())
        started.append(celery_beat_service(env, var_dir() / "celerybeat-schedule").start())
        asgi = asgi_service(env, host, port).start()
        started.append(asgi)
        probe_host = "127.0.0.1" if host in {"0.0.0.0", "::"} else host
        wait_until(lambda: port_open(probe_host, port), 30, "the ASGI server", started)
        wait_for_celery(env, 60, started)
        print_banner(host, port)
        restarts = Restarts()
        while not stopping:
            for service in started:
                if service.alive() or stopping:
                    continue
                code = service.process.returncode if service.process else None
                if not restarts.allow(service.name):
                    print(
                        f"{service.name} stopped unexpectedly (exit code {code}) "
                        f"{RESTARTS_ALLOWED} times within {RESTART_WINDOW_SECONDS} s; "
                        "stopping everything.",
                        file=sys.stderr,
                    )
                    return 1
                print(
                    f"{service.name} stopped unexpectedly (exit code {code}); restarting it.",
                    file=sys.stderr,
                    flush=True,
                )
                service.stop()  # whatever its process group left behind
                service.start()
            time.sleep(0.5)
        return 0
    except (RuntimeError, TimeoutError) as exc:
        print(f"Could not start the platform: {exc}", file=sys.stderr)
        return 1
    finally:
        print("Stopping: " + ", ".join(s.name for s in reversed(started)))
        for service in reversed(started):
            service.stop()


def print_banner(host: str, port: int) -> None:
    """Print where to open the platform."""
    shown = "127.0.0.1" if host in {"0.0.0.0", "::"} else host
    print("\n" + "=" * 64)
    print(f"  The platform is up: open http://{shown}:{port}/")
    if host in {"0.0.0.0", "::"}:
        for address in lan_addresses():
            print(f"  Classroom devices on the LAN: http://{address}:{port}/join/")
    print(f"  Health check: http://{shown}:{port}/healthz")
    demo_login = var_dir() / "demo_login"
    if demo_login.exists():
        password = demo_login.read_text().strip()
        print(f"  Demo teacher: log in as demo-teacher with password {password}")
    print("  Press Ctrl-C to stop every service.")
    print("=" * 64 + "\n", flush=True)


def test(pytest_args: list[str]) -> int:
    """Run pytest against a Redis server of its own, on a free port."""
    port = free_port()
    env = dict(os.environ)
    env["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
    with tempfile.TemporaryDirectory(prefix="dp-test-") as data_dir:
        # Everything the tests write (database, secret key, media, exports) goes to a
        # temporary folder, never into the developer's var/.
        env.setdefault("VAR_DIR", str(Path(data_dir) / "var"))
        env.setdefault("TEST_DATABASE_NAME", str(Path(data_dir) / "test_db.sqlite3"))
        redis = redis_service(port, Path(data_dir), persist=False).start()
        try:
            wait_until(lambda: redis_answers(env["REDIS_URL"]), 15, "Redis", [redis])
            print(f"Test Redis on 127.0.0.1:{port}", flush=True)
            return subprocess.call([sys.executable, "-m", "pytest", *pytest_args], env=env)
        finally:
            redis.stop()


def main(argv: list[str]) -> int:
    """Dispatch to serve or test."""
    if argv and argv[0] == "test":
        return test(argv[1:])
    return serve()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
