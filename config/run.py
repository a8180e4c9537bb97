"""Run the whole platform on one machine, or the test suite against its own Redis.

``python -m config.run`` (what ``make run`` calls): run the bundled Redis (unless
REDIS_URL is set), a Celery worker, Celery beat and the ASGI server under supervisord,
which starts again one that dies; print the URL; stop them all on Ctrl-C or SIGTERM.

``python -m config.run test [--sqlite|--postgres] [pytest arguments]`` (what ``make
test`` calls): start a Redis server on a free port (and with ``--postgres`` a throwaway
PostgreSQL server), run pytest against them, stop them, exit with pytest's code. With
no pytest arguments, the whole suite runs as the parts of TEST_PARTS at once (only those
on one database with ``--sqlite`` or ``--postgres``), each with services, a database and
folders of its own.

``python -m config.run asgi|worker|beat``: run that one service in this process's place,
as `make run` would, for systemd units (docs/deploy.md).
"""

from __future__ import annotations

import configparser
import contextlib
import os
import secrets
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import xmlrpc.client
from collections.abc import Iterator
from pathlib import Path
from typing import IO, cast

from supervisor.xmlrpc import SupervisorTransport

from config.services import (
    BASE_DIR,
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


def var_dir() -> Path:
    """Return the folder for the platform's data, as the settings define it."""
    return Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))


def lan_addresses() -> list[str]:
    """Return this machine's IPv4 addresses other than loopback, for LAN devices."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    hosts = {str(info[4][0]) for info in infos}  # AF_INET: each a str already
    return sorted(host for host in hosts if not host.startswith("127."))


def bundled_redis(env: dict[str, str]) -> Service | None:
    """Describe the bundled Redis, unless REDIS_URL names one or a Redis already answers
    on its port; set REDIS_URL in env."""
    if os.environ.get("REDIS_URL"):
        print(f"Using the Redis at REDIS_URL={env['REDIS_URL']}")
        return None
    port = int(os.environ.get("BUNDLED_REDIS_PORT", "6399"))
    env["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
    if port_open("127.0.0.1", port):
        if redis_answers(env["REDIS_URL"]):
            print(f"A Redis server already answers on port {port}; using it.")
            return None
        raise SystemExit(
            f"Port {port} is taken by something that is not Redis: set BUNDLED_REDIS_PORT."
        )
    return redis_service(port, var_dir() / "redis")


# Each service runs under supervisord (the `supervisor` package), which starts a dead
# one again at once, and one that keeps dying at start with a wait that grows by a
# second each time (1, 2, 3... s), logging each exit and start. After START_RETRIES
# failed starts in a row it gives up on that service (FATAL): then everything stops and
# `make run` exits 1, so that a service manager (systemd) can take over.
START_RETRIES = 20
# A start counts as failed when the service exits within this: longer than uvicorn takes
# to import the project and bind its port on a busy machine (else a port taken by
# another program made it restart at once, again and again, with no back-off).
START_SECONDS = 10
STOP_WAIT_SECONDS = 10


def supervisor_program(service: Service, priority: int, logs: Path | None = None) -> str:
    """Return supervisord's [program] section that runs service; its output goes to
    supervisord's own, or to ``<logs>/<name>.log`` when ``logs`` names a folder."""
    # supervisord expands %(name)s in a command: a literal % is written %%.
    command = shlex.join(service.argv).replace("%", "%%")
    # A Celery worker gets SIGTERM alone (its pool children finish their task in the
    # warm shutdown); everything left in its process group is killed after the wait.
    as_group = "false" if service.name == "celery-worker" else "true"
    return f"""
[program:{service.name}]
command={command}
directory={service.cwd}
priority={priority}
autostart=true
autorestart=true
startsecs={START_SECONDS}
startretries={START_RETRIES}
stopsignal=TERM
stopwaitsecs={STOP_WAIT_SECONDS}
stopasgroup={as_group}
killasgroup=true
redirect_stderr=true
stdout_logfile={"/dev/stdout" if logs is None else logs / f"{service.name}.log"}
stdout_logfile_maxbytes=0
"""


def supervisor_config(services: list[Service], folder: Path, logs: Path | None = None) -> Path:
    """Write supervisord's configuration for services (started in that order, stopped in
    the reverse one) into folder; return its path. ``logs``: a folder for a log file
    per service (benchmarks/chaos.py), else they print to supervisord's output.

    Its control socket takes a password made at each start, written only into this
    file (mode 0600), so that only this machine's user who ran `make run` controls it.
    """
    folder.mkdir(parents=True, exist_ok=True)
    socket_path = folder / "supervisor.sock"
    password = secrets.token_urlsafe(24)
    # As root, supervisord asks for the user to be named; it keeps running as root.
    user = "user=root\n" if os.getuid() == 0 else ""
    head = f"""; Written by config/run.py at each start of `make run`; edits are lost.
; Look at the services: supervisorctl -c {folder / "supervisord.conf"} status
[supervisord]
nodaemon=true
logfile={folder / "supervisord.log"}
logfile_maxbytes=5MB
logfile_backups=2
pidfile={folder / "supervisord.pid"}
loglevel=info
{user}
[unix_http_server]
file={socket_path}
chmod=0700
username=run
password={password}

[rpcinterface:supervisor]
supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface

[supervisorctl]
serverurl=unix://{socket_path}
username=run
password={password}
"""
    programs = "".join(
        supervisor_program(service, 10 * (index + 1), logs)
        for index, service in enumerate(services)
    )
    path = folder / "supervisord.conf"
    path.touch(mode=0o600)
    path.chmod(0o600)
    path.write_text(head + programs)
    return path


def supervisor_processes(config: Path) -> list[dict]:
    """Return supervisord's record of every service (``name``, ``statename``, ``pid``,
    ``start``...), [] if supervisord does not answer."""
    parser = configparser.RawConfigParser()
    parser.read(config)
    control = parser["supervisorctl"]
    transport = SupervisorTransport(control["username"], control["password"], control["serverurl"])
    proxy = xmlrpc.client.ServerProxy("http://127.0.0.1", transport=transport)
    try:
        # XML-RPC answers are untyped: supervisord's is a list of structs.
        return cast(list[dict], proxy.supervisor.getAllProcessInfo())
    except (OSError, xmlrpc.client.Error):
        return []


def supervisor_states(config: Path) -> dict[str, str]:
    """Return each supervised service's state (RUNNING, BACKOFF, FATAL...), {} if
    supervisord does not answer."""
    return {info["name"]: info["statename"] for info in supervisor_processes(config)}


def serve() -> int:
    """Start every service under supervisord and wait until interrupted."""
    env = dict(os.environ)
    env.setdefault("PYTHONUNBUFFERED", "1")
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "8000"))
    stopping = False

    def request_stop(signum, frame):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    services = []
    redis = bundled_redis(env)
    if redis is not None:
        services.append(redis)
    services += [
        celery_worker_service(env),
        celery_beat_service(env, var_dir() / "celerybeat-schedule"),
        asgi_service(env, host, port),
    ]
    config = supervisor_config(services, var_dir() / "supervisor")
    # Its own session: Ctrl-C reaches this process only, which stops supervisord, which
    # stops the services in reverse order.
    supervisord = Service(
        "supervisord", [sys.executable, "-m", "supervisor.supervisord", "-c", str(config)], env
    ).start()
    try:
        if redis is not None:
            wait_until(lambda: redis_answers(env["REDIS_URL"]), 30, "Redis", [supervisord])
            print(f"Redis started on {env['REDIS_URL']} (data in {var_dir() / 'redis'})")
        probe_host = "127.0.0.1" if host in {"0.0.0.0", "::"} else host
        wait_until(lambda: port_open(probe_host, port), 60, "the ASGI server", [supervisord])
        wait_for_celery(env, 60, [supervisord])
        print_banner(host, port, config)
        while not stopping:
            if not supervisord.alive():
                print("supervisord stopped unexpectedly.", file=sys.stderr)
                return 1
            given_up = [
                name for name, state in supervisor_states(config).items() if state == "FATAL"
            ]
            if given_up:
                print(
                    f"{', '.join(given_up)} could not be started again after "
                    f"{START_RETRIES} attempts; stopping everything.",
                    file=sys.stderr,
                )
                return 1
            time.sleep(1)
        return 0
    except (RuntimeError, TimeoutError) as exc:
        print(f"Could not start the platform: {exc}", file=sys.stderr)
        return 1
    finally:
        print("Stopping: " + ", ".join(s.name for s in reversed(services)), flush=True)
        # Each service gets STOP_WAIT_SECONDS, one after the other, before supervisord's
        # SIGKILL; this waits for them all.
        supervisord.stop(timeout=STOP_WAIT_SECONDS * (len(services) + 1))


def print_banner(host: str, port: int, config: Path) -> None:
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
    print(f"  Services: {sys.executable} -m supervisor.supervisorctl -c {config} status")
    print("  Press Ctrl-C to stop every service.")
    print("=" * 64 + "\n", flush=True)


# The whole suite runs as these parts at once, each against services of its own (its
# database: "sqlite" or a throwaway "postgresql" server): one pytest process keeps one
# core busy, and much of a part's time is spent waiting on a browser, a socket or a
# service. New test folders join "rest". The match and live-play tests run on
# PostgreSQL too, the database for more than one machine; there without those whose
# subject is Redis, the sockets or the pages, not the database (NOT_ABOUT_THE_DATABASE).
# Measured alone on the 2-core machine: the browser tests 19.5 minutes, the rest 28
# (the engines' tests, pure Python, about 7 minutes, go with the browser tests), all
# the live and match tests on PostgreSQL 12.
NOT_ABOUT_THE_DATABASE = [
    "test_fuzz.py",  # malformed messages
    "test_join_screen.py",
    "test_messages.py",
    "test_pages.py",
    "test_proxy_headers.py",
    "test_redis_stall_page.py",
    "test_resilience.py",  # sockets that vanish or idle, a Redis stall
    "test_state_size.py",
    "test_student_language.py",
    "test_throttle.py",
]
TEST_PARTS = {
    "browser-and-games": ("sqlite", ["tests/browser", "tests/ui", "tests/games"]),
    "live-on-postgresql": (
        "postgresql",
        [
            "tests/matches",
            "tests/live",
            # pg_dump and pg_restore, as SQLite's backups are tested in "rest"
            "tests/debrief/test_backups.py",
            *(f"--ignore=tests/live/{name}" for name in NOT_ABOUT_THE_DATABASE),
        ],
    ),
    "rest": (
        "sqlite",
        ["tests", "--ignore=tests/browser", "--ignore=tests/ui", "--ignore=tests/games"],
    ),
}
# Where the first part's output goes while the other part prints to the terminal.
PART_LOGS = BASE_DIR / "test-artifacts" / "parts"


@contextlib.contextmanager
def test_services(postgres: bool, own_folders: bool = False) -> Iterator[dict[str, str] | None]:
    """Start a Redis server (and with ``postgres`` a PostgreSQL server) on free ports, in
    a temporary folder; yield the environment for pytest (None if they did not start);
    stop them and remove the folder at the end. VAR_DIR and TEST_DATABASE_NAME from the
    environment are kept, unless ``own_folders`` (parts of the suite running at once)."""
    port = free_port()
    env = dict(os.environ)
    env["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
    services: list[Service] = []
    with contextlib.ExitStack() as cleanup:
        # Everything the tests write (database, secret key, media, exports) goes to a
        # temporary folder, never into the developer's var/. PostgreSQL gets a folder of
        # its own: as root it runs as another user, who cannot enter this one (mode 0700).
        data_dir = Path(cleanup.enter_context(tempfile.TemporaryDirectory(prefix="dp-test-")))
        if postgres:
            pg_dir = Path(cleanup.enter_context(tempfile.TemporaryDirectory(prefix="dp-pg-")))
        if own_folders:
            env.pop("VAR_DIR", None)
            env.pop("TEST_DATABASE_NAME", None)
        env.setdefault("VAR_DIR", str(data_dir / "var"))
        env.setdefault("TEST_DATABASE_NAME", str(data_dir / "test_db.sqlite3"))

        def stop_services() -> None:
            for service in reversed(services):
                service.stop()

        # Stopped before their folders go, whatever happens in between.
        cleanup.callback(stop_services)
        services.append(redis_service(port, data_dir, persist=False).start())
        if postgres:
            pg_port = free_port()
            services.append(postgres_service(pg_dir, pg_port).start())
            env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:{pg_port}/dataprotect"
        try:
            wait_until(lambda: redis_answers(env["REDIS_URL"]), 15, "Redis", services)
            print(f"Test Redis on 127.0.0.1:{port}", flush=True)
            if postgres:
                wait_until(lambda: postgres_answers(pg_port), 30, "PostgreSQL", services)
                print(f"Test PostgreSQL on 127.0.0.1:{pg_port}", flush=True)
        except (RuntimeError, TimeoutError) as exc:
            print(f"Could not start the test services: {exc}", file=sys.stderr)
            yield None
            return
        yield env


def test(pytest_args: list[str]) -> int:
    """Run pytest against services of its own. Without arguments, the whole suite, as the
    parts of TEST_PARTS at once. ``--sqlite`` or ``--postgres`` first: on that database
    only (the parts on it, or the tests named after it); tests named alone: on SQLite."""
    database = "sqlite"
    if pytest_args and pytest_args[0] in {"--sqlite", "--postgres"}:
        database = "postgresql" if pytest_args[0] == "--postgres" else "sqlite"
        parts = {name: part for name, part in TEST_PARTS.items() if part[0] == database}
        pytest_args = pytest_args[1:]
    else:
        parts = TEST_PARTS
    if not pytest_args:
        return test_in_parts(parts)
    with test_services(database == "postgresql") as env:
        if env is None:
            return 1
        return subprocess.call([sys.executable, "-m", "pytest", *pytest_args], env=env)


def test_in_parts(parts: dict[str, tuple[str, list[str]]]) -> int:
    """Run each of ``parts`` in a pytest process of its own, each against its own
    services; every part's output goes to a file under PART_LOGS, the last part's shown
    on the terminal as well, the others' printed once every part is over. Each failing
    part's summary (its failed tests) comes last, where a CI log's tail shows it. Return
    0 only if every part passed."""
    PART_LOGS.mkdir(parents=True, exist_ok=True)
    *quiet, _terminal = parts
    with contextlib.ExitStack() as stack:
        running: dict[str, tuple[subprocess.Popen, float]] = {}
        logs = {name: PART_LOGS / f"{name}.log" for name in parts}
        echoes: list[threading.Thread] = []
        for name, (database, paths) in parts.items():
            env = stack.enter_context(test_services(database == "postgresql", own_folders=True))
            if env is None:
                return 1
            argv = [sys.executable, "-m", "pytest", "--durations=15", *paths]
            output = stack.enter_context(logs[name].open("w"))
            if name in quiet:
                print(
                    f"Part {name!r} of the suite ({database}): its output goes to {logs[name]}",
                    flush=True,
                )
                process = subprocess.Popen(argv, env=env, stdout=output, stderr=subprocess.STDOUT)
            else:
                process = subprocess.Popen(
                    argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
                )
                echo = threading.Thread(target=_echo, args=(process.stdout, output), daemon=True)
                echo.start()
                echoes.append(echo)
            stack.callback(_stop, process)
            running[name] = (process, time.monotonic())
        codes: dict[str, int] = {}
        took: dict[str, float] = {}
        while len(codes) < len(running):  # each part's own time, whichever ends first
            for name, (process, started) in running.items():
                if name not in codes and process.poll() is not None:
                    codes[name] = process.returncode
                    took[name] = time.monotonic() - started
            time.sleep(1)
        for echo in echoes:
            echo.join(timeout=30)
        for name in quiet:
            print(f"\n{'=' * 24} part {name!r} of the suite {'=' * 24}\n", flush=True)
            print(logs[name].read_text(errors="replace"), flush=True)
        for name in parts:
            if codes[name]:
                print(f"\n{'=' * 24} what failed in part {name!r} {'=' * 24}", flush=True)
                print(failure_summary(logs[name].read_text(errors="replace")), flush=True)
        for name in parts:
            minutes, seconds = divmod(round(took[name]), 60)
            print(f"part {name!r}: exit {codes[name]} in {minutes} min {seconds} s", flush=True)
        return 0 if not any(codes.values()) else 1


def _echo(source: IO[bytes], log: IO[str]) -> None:
    """Copy a part's output to the terminal and to its log, line by line."""
    for raw in source:
        line = raw.decode(errors="replace")
        sys.stdout.write(line)
        sys.stdout.flush()
        log.write(line)
        log.flush()


def failure_summary(output: str, tail: int = 60) -> str:
    """The part of a pytest run's output that names what failed: its short test summary
    to the end, or (when pytest ended before writing one) its last ``tail`` lines."""
    lines = output.splitlines()
    starts = [i for i, line in enumerate(lines) if "short test summary info" in line]
    if starts:
        return "\n".join(lines[starts[-1] :])
    return "\n".join(lines[-tail:])


def _stop(process: subprocess.Popen) -> None:
    """Stop a part still running (Ctrl-C or an error here): its services stop after it."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def one_service(name: str) -> Service:
    """Describe one service as `make run` runs it, for a service manager (systemd) that
    runs each on its own: ``asgi`` (on HOST and PORT), ``worker`` (WORKER_CONCURRENCY
    pool processes) or ``beat`` (its schedule under VAR_DIR)."""
    env = dict(os.environ)
    env.setdefault("PYTHONUNBUFFERED", "1")
    if name == "asgi":
        host = env.get("HOST", "127.0.0.1")
        return asgi_service(env, host, int(env.get("PORT", "8000")))
    if name == "worker":
        return celery_worker_service(env, int(env.get("WORKER_CONCURRENCY", "2")))
    if name == "beat":
        return celery_beat_service(env, var_dir() / "celerybeat-schedule")
    raise SystemExit(f"unknown service {name!r}: asgi, worker or beat")


def main(argv: list[str]) -> int:
    """Dispatch to serve, test, or one service run in this process's place."""
    if argv and argv[0] == "test":
        return test(argv[1:])
    if argv:
        service = one_service(argv[0])
        # In this process's place, so that the service manager signals the service itself.
        os.execve(service.argv[0], list(service.argv), service.env)
    return serve()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
