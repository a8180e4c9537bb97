"""Settings, read from the environment with safe defaults for one classroom machine.

Every variable is listed, with its default and meaning, in the README's configuration
table. The embedded defaults are SQLite under ``var/`` and the bundled Redis server
that ``make run`` starts; ``PRODUCTION=1`` switches on the HTTPS-only hardening that
``manage.py check --deploy`` asks for.
"""

import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from csp.constants import NONE, SELF
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_bool(name: str, default: bool) -> bool:
    """Read a yes/no environment variable."""
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated environment variable."""
    value = os.environ.get(name, "")
    items = [item.strip() for item in value.split(",") if item.strip()]
    return items or default


def env_int(name: str, default: int, minimum: int = 0) -> int:
    """Read a whole-number environment variable, refusing one below ``minimum`` at start."""
    value = os.environ.get(name, "").strip()
    number = int(value) if value else default
    if number < minimum:
        raise ValueError(f"{name} must be at least {minimum}, not {number}")
    return number


def secret_key() -> str:
    """Return SECRET_KEY, generating it once into var/ when it is not set."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    key_file = VAR_DIR / "secret_key"
    if not key_file.exists():
        # Written with O_EXCL so two processes starting together keep one key.
        try:
            fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as handle:
                handle.write(secrets.token_urlsafe(50))
    return key_file.read_text().strip()


PRODUCTION = env_bool("PRODUCTION", False)
DEBUG = env_bool("DEBUG", False) and not PRODUCTION
SECRET_KEY = secret_key()

HOST = os.environ.get("HOST", "127.0.0.1")
PORT = int(os.environ.get("PORT", "8000"))
# On the LAN (HOST=0.0.0.0) devices reach the teacher's machine by an address we
# cannot know in advance, so the embedded mode accepts any host name there.
_default_hosts = ["*"] if HOST in {"0.0.0.0", "::"} else ["localhost", "127.0.0.1", "[::1]"]
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", _default_hosts)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

# The bundled Redis listens on this port unless REDIS_URL points elsewhere; it is not
# 6379 so that it never collides with a Redis the machine already runs.
BUNDLED_REDIS_PORT = int(os.environ.get("BUNDLED_REDIS_PORT", "6399"))
REDIS_URL = os.environ.get("REDIS_URL", f"redis://127.0.0.1:{BUNDLED_REDIS_PORT}/0")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "axes",
    "classroom",
    "games",
    "live",
    "lessons",
    "debrief",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.unavailable.ServiceUnavailableMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its 429 page.
    "axes.middleware.AxesMiddleware",
]

# Teacher logins are throttled by django-axes: after LOGIN_FAILURE_LIMIT wrong passwords
# for one username from one address, that pair waits LOGIN_LOCKOUT_MINUTES. The pair, not
# the address: the other teachers behind a school's shared address still log in.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 8, minimum=1)
LOGIN_LOCKOUT_MINUTES = env_int("LOGIN_LOCKOUT_MINUTES", 15, minimum=1)
# A failed login's record (username, address, browser, time) is deleted after this.
LOGIN_ATTEMPT_HOURS = env_int("LOGIN_ATTEMPT_HOURS", 24, minimum=1)
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = timedelta(minutes=LOGIN_LOCKOUT_MINUTES)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True  # no record of successful logins: nothing needs one
AXES_CLIENT_IP_CALLABLE = "classroom.ratelimit.login_client_ip"
AXES_LOCKOUT_CALLABLE = "classroom.views.accounts.locked_out"
AXES_VERBOSE = False

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# Seconds a process keeps its database connection between uses (Django's CONN_MAX_AGE).
# The sockets' database work runs in one thread per ASGI process and a Celery pool
# process runs one task at a time, so each keeps one connection instead of opening one
# per socket message or task (on PostgreSQL a new connection is a process and a login).
# An HTTP request's connection is closed when the request ends (config/database.py);
# one that broke meanwhile is found by the health check before its next use (on
# PostgreSQL, after it sat idle or failed a query: config/postgresql/base.py). pytest's
# own process sets 0 (tests/conftest.py): it drops the test database at the end.
DB_CONN_MAX_AGE = int(os.environ.get("DB_CONN_MAX_AGE", "60"))
# Any: dj_database_url's type of an alias's settings lacks this project's POOL_OVERFLOW.
DATABASES: dict[str, Any] = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
        conn_max_age=DB_CONN_MAX_AGE,
        conn_health_checks=True,
    )
}
# On PostgreSQL, a process's passing threads may instead share a pool of this many
# connections (psycopg's pool, through Django's ``OPTIONS["pool"]``). The ASGI service
# sets it (config/services.py): there every HTTP request runs in a thread of its own and
# would open, and close, a connection of its own; the threads of its sockets' work keep
# theirs (live.sockets.keep_database_connection). 0: no pool (Celery's pool processes
# run one task at a time and keep their one connection, and a pool must not be shared
# across the fork that starts them).
DB_POOL_SIZE = int(os.environ.get("DB_POOL_SIZE", "0"))
# A thread that finds the pool busy opens a connection beside it: at most this many at
# once a process, so that a burst cannot pass the database's max_connections
# (docs/deploy.md sizes it); past that, a thread waits for one of either kind.
DB_POOL_OVERFLOW = int(os.environ.get("DB_POOL_OVERFLOW", str(DB_POOL_SIZE)))
# PostgreSQL: seconds a connection attempt may take (libpq's connect_timeout): a
# database server that accepts and never answers (stalled, or a proxy in front of a dead
# one) refuses the work at once rather than holding its thread, and every table whose
# work that thread does, for good.
DB_CONNECT_TIMEOUT = int(os.environ.get("DB_CONNECT_TIMEOUT", "5"))
# Seconds a session may sit idle inside a transaction before the server ends it
# (PostgreSQL's idle_in_transaction_session_timeout). The platform's transactions never
# wait on anything but the database (its broadcasts are sent after the commit): one
# that idles is a process frozen mid-move (stopped, swapping, a paused machine), whose
# lock on the match would otherwise hold every other move of that table until it woke.
# Shorter than a page's wait for an answer (static/js/play/client.js, 8 s).
DB_IDLE_IN_TRANSACTION_SECONDS = int(os.environ.get("DB_IDLE_IN_TRANSACTION_SECONDS", "5"))
# PostgreSQL: seconds a query sent may stay unacknowledged by the database's machine
# before the connection is given up (libpq's tcp_user_timeout). A machine gone without a
# word (powered off, a network cut: no reset comes back) held the thread waiting on it
# about 15 minutes, the kernel's own limit, and every table that thread serves with it.
# Idle connections send a keepalive after DB_KEEPALIVE_SECONDS, so that a firewall
# between the machines does not forget them.
DB_TCP_USER_TIMEOUT_SECONDS = env_int("DB_TCP_USER_TIMEOUT_SECONDS", 10, minimum=1)
DB_KEEPALIVE_SECONDS = env_int("DB_KEEPALIVE_SECONDS", 60, minimum=1)
# A statement of live play's work (the sockets' table and drawing threads, a worker's
# bot move, timer or sweep) that the database leaves unanswered this long is given up,
# its connection shut: a server process stopped or stalled keeps its connections alive,
# and held such a thread, and every table it serves, until it woke
# (config/postgresql/deadlines.py).
DB_STATEMENT_SECONDS = env_int("DB_STATEMENT_SECONDS", 10, minimum=1)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's PostgreSQL backend, with no health-check round trip for a connection in
    # steady use (config/postgresql/base.py).
    DATABASES["default"]["ENGINE"] = "config.postgresql"
    database_options = DATABASES["default"].setdefault("OPTIONS", {})
    database_options.setdefault("connect_timeout", DB_CONNECT_TIMEOUT)
    database_options.setdefault("tcp_user_timeout", DB_TCP_USER_TIMEOUT_SECONDS * 1000)
    database_options.setdefault("keepalives", 1)
    database_options.setdefault("keepalives_idle", DB_KEEPALIVE_SECONDS)
    idle_limit = f"-c idle_in_transaction_session_timeout={DB_IDLE_IN_TRANSACTION_SECONDS}s"
    url_options = database_options.get("options")  # the DATABASE_URL's own come last
    database_options["options"] = f"{idle_limit} {url_options}" if url_options else idle_limit
    if DB_POOL_SIZE > 0:
        DATABASES["default"]["CONN_MAX_AGE"] = 0  # a connection goes back to the pool
        # A connection the pool hands out is checked if it sat idle (Django's check of
        # a pool's connections would make a round trip every time: config/postgresql/).
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
        DATABASES["default"]["POOL_OVERFLOW"] = DB_POOL_OVERFLOW
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": min(2, DB_POOL_SIZE),
            "max_size": DB_POOL_SIZE,
            # A thread waits this long for a free connection, then opens one of its
            # own (config/postgresql/base.py): a busy pool costs a connection more, a
            # database that is away refuses at once.
            "timeout": 0.5,
            # The pool gives up reconnecting (backing off) after this; a thread that
            # waits makes it try again. After the database was away a minute, the pool
            # would otherwise wait as long again before its next try.
            "reconnect_timeout": 2.0,
            "name": "dataprotect",
        }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the ASGI server, the Celery worker and beat read while one writes;
    # IMMEDIATE transactions take the write lock up front instead of failing late.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
    # A file, not memory, so that a Celery worker and an ASGI server started by the
    # tests share the test database.
    # `make test` names a temporary file, so that two test runs never share it.
    DATABASES["default"]["TEST"] = {
        "NAME": os.environ.get("TEST_DATABASE_NAME", str(VAR_DIR / "test_db.sqlite3"))
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis clients and their timeouts (docs/ops.md, "Redis connections") -----------
# Every client gets a connect timeout, so a Redis that is gone is noticed at once, and
# a read timeout chosen for what it waits for: redis-py's default read timeout (5 s
# since redis-py 8) is not chosen for anything here.
REDIS_CONNECT_TIMEOUT = 3.0
# The cache holds short keys (rate limits, lesson pauses, schedule marks): each call is
# one quick command, so a Redis that stalls longer fails the request with a clear
# message instead of holding a player's socket.
REDIS_CACHE_TIMEOUT = 2.0
# The channel layer (config/channel_layer.py, Redis pub/sub) pings Redis on its
# subscription connection every CHANNEL_LAYER_PING_SECONDS and counts it lost when no
# answer came within CHANNEL_LAYER_PONG_TIMEOUT: every socket of the process is then
# closed with 1013 and its page says it is reconnecting (a frozen game must not look
# connected). A subscription waits as long for Redis to confirm it. Its pool's read
# timeout bounds a group send.
CHANNEL_LAYER_PING_SECONDS = 3.0
CHANNEL_LAYER_PONG_TIMEOUT = 5.0
CHANNEL_LAYER_READ_TIMEOUT = 8.0
# Connections one process's channel layer may open at once: every group send takes one
# for its few commands. redis-py 8 caps a pool at 100 and fails the 101st with "Too many
# connections": under a burst of moves a process with hundreds of sockets dropped
# states (measured with benchmarks/load.py). Redis accepts 10,000 clients.
CHANNEL_LAYER_MAX_CONNECTIONS = 1000
# Celery's broker polls with a 1 s BRPOP; publishing a task is one command.
CELERY_REDIS_READ_TIMEOUT = 10.0
# An idle pooled connection is PINGed before reuse after this long, so a Redis that
# restarted is reconnected to instead of failing the next command.
REDIS_HEALTH_CHECK_SECONDS = 15

CACHES = {
    "default": {
        # Django's Redis cache with one client and one pool per process (config/cache.py).
        "BACKEND": "config.cache.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "dp",
        "TIMEOUT": 300,
        "OPTIONS": {
            "socket_timeout": REDIS_CACHE_TIMEOUT,
            "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
            "health_check_interval": REDIS_HEALTH_CHECK_SECONDS,
        },
    }
}

CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "config.channel_layer.PlatformChannelLayer",
        "CONFIG": {
            "ping_seconds": CHANNEL_LAYER_PING_SECONDS,
            "pong_timeout": CHANNEL_LAYER_PONG_TIMEOUT,
            "hosts": [
                {
                    "address": REDIS_URL,
                    "socket_timeout": CHANNEL_LAYER_READ_TIMEOUT,
                    "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
                    "socket_keepalive": True,
                    "health_check_interval": REDIS_HEALTH_CHECK_SECONDS,
                    "max_connections": CHANNEL_LAYER_MAX_CONNECTIONS,
                }
            ],
            "prefix": "dp-asgi",
        },
    }
}

CELERY_BROKER_URL = REDIS_URL
# kombu's Redis transport, one redis-py client per channel (config.broker); a rediss://
# address keeps kombu's own choice of transport, which turns its TLS on.
if REDIS_URL.startswith("redis://"):
    CELERY_BROKER_TRANSPORT = "config.broker:Transport"
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_CONNECT_TIMEOUT
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_timeout": CELERY_REDIS_READ_TIMEOUT,
    "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
    "socket_keepalive": True,
    "health_check_interval": REDIS_HEALTH_CHECK_SECONDS,
}
CELERY_REDIS_SOCKET_TIMEOUT = CELERY_REDIS_READ_TIMEOUT
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = REDIS_CONNECT_TIMEOUT
CELERY_REDIS_SOCKET_KEEPALIVE = True
CELERY_REDIS_BACKEND_HEALTH_CHECK_INTERVAL = REDIS_HEALTH_CHECK_SECONDS
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_RESULT_EXPIRES = 24 * 3600
# Celery's fix-up closes the database connections every 2 x this many tasks; otherwise
# around each task, which config.celery does by Django's rule instead.
CELERY_DB_REUSE_MAX = 1_000_000
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE = {
    "purge-expired-student-data": {
        "task": "classroom.tasks.purge_expired_sessions",
        "schedule": 3600.0,
    },
    "purge-unused-records": {
        "task": "classroom.tasks.purge_unused_records",
        "schedule": 24 * 3600.0,
    },
    "sweep-export-folders": {
        "task": "debrief.tasks.sweep_export_folders",
        "schedule": 24 * 3600.0,
    },
    "clear-expired-logins": {
        "task": "classroom.tasks.clear_expired_logins",
        "schedule": 24 * 3600.0,
    },
}

# Django's four password rules, told in the platform's own words (classroom/passwords.py).
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "classroom.passwords.UserAttributeSimilarityValidator"},
    {"NAME": "classroom.passwords.MinimumLengthValidator"},
    {"NAME": "classroom.passwords.CommonPasswordValidator"},
    {"NAME": "classroom.passwords.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "classroom:dashboard"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("es", _("Spanish")),
    ("fr", _("French")),
    ("ru", _("Russian")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# English dates as "7 Dec 2026, 04:52" (config/formats/en): never "12/07/2026", which a
# European reads as 12 July, nor "4:52 a.m." before a full stop.
FORMAT_MODULE_PATH = ["config.formats"]
USE_I18N = True
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
STATIC_ROOT.mkdir(exist_ok=True)
MEDIA_ROOT = VAR_DIR / "media"
# One machine serves its static files straight from the source folders; a production
# install runs collectstatic and serves from STATIC_ROOT.
WHITENOISE_USE_FINDERS = not PRODUCTION
WHITENOISE_AUTOREFRESH = DEBUG

# Students have no account: a signed cookie holds their seat in a session.
STUDENT_COOKIE_NAME = "dp_student"
STUDENT_COOKIE_MAX_AGE = 12 * 3600
DEVICE_COOKIE_NAME = "dp_device"
# Wrong join codes (the join form, the join API, refused play sockets) allowed per
# minute from one device before it must wait, and from one network address: higher, as
# a school's whole class shares its NAT address (classroom/ratelimit.py).
JOIN_RATE_LIMIT = env_int("JOIN_RATE_LIMIT", 10, minimum=1)
JOIN_ADDRESS_RATE_LIMIT = env_int("JOIN_ADDRESS_RATE_LIMIT", 100, minimum=1)
# --- Who gets a seat (docs/ops.md, "Join limits"; classroom/ratelimit.py, actions) ---
# Joins with a valid code from one network address: JOINS_PER_BURST in
# JOIN_BURST_SECONDS, and JOINS_PER_MINUTE in a minute. A school's NAT gives a whole
# class one address, so these are sized for a class pressing "Join" together.
JOINS_PER_BURST = env_int("JOINS_PER_BURST", 15, minimum=1)
JOIN_BURST_SECONDS = env_int("JOIN_BURST_SECONDS", 10, minimum=1)
JOINS_PER_MINUTE = env_int("JOINS_PER_MINUTE", 35, minimum=1)
# Past this many students from one address in a session, the next ones need approval.
MAX_STUDENTS_PER_ADDRESS = env_int("MAX_STUDENTS_PER_ADDRESS", 40, minimum=1)
# Minutes a new nickname from a removed student's network address waits for approval.
REMOVED_ADDRESS_HOLD_MINUTES = env_int("REMOVED_ADDRESS_HOLD_MINUTES", 60)
# Join requests and device-change requests waiting for the teacher, at most, per session.
MAX_PENDING_JOINS = env_int("MAX_PENDING_JOINS", 20, minimum=1)
MAX_PENDING_MOVES = env_int("MAX_PENDING_MOVES", 5, minimum=1)
# Minutes a join request waits for the teacher before it expires (the student may ask
# again; the purge deletes it).
JOIN_REQUEST_MINUTES = env_int("JOIN_REQUEST_MINUTES", 15, minimum=1)
# Days after a session ends before its student data is deleted.
RETENTION_DAYS = env_int("RETENTION_DAYS", 30, minimum=1)  # 0 would purge sessions under way
# What teachers keep has a time limit too. A class's roster (pseudonyms of students) is
# emptied ROSTER_DAYS after the class was last used; a teacher account is deleted, with
# all it owns, ACCOUNT_DAYS after its last login (at least 30: longer than a login lasts,
# so no logged-in teacher loses their account); the admin's change log keeps ADMIN_LOG_DAYS.
ROSTER_DAYS = env_int("ROSTER_DAYS", 365, minimum=1)
ACCOUNT_DAYS = env_int("ACCOUNT_DAYS", 730, minimum=30)
ADMIN_LOG_DAYS = env_int("ADMIN_LOG_DAYS", 365, minimum=1)
# Backups of the database (classroom/backups.py): made every BACKUP_HOURS by Celery beat
# (0: none, the IT administrator runs ``manage.py backup`` or their own), into BACKUP_DIR,
# each deleted BACKUP_DAYS after it was made: a deleted session's data lives on in a copy
# that long at most (and a restore deletes it again: classroom.erasures).
BACKUP_DIR = Path(os.environ.get("BACKUP_DIR", VAR_DIR / "backups"))
BACKUP_HOURS = env_int("BACKUP_HOURS", 24)
BACKUP_DAYS = env_int("BACKUP_DAYS", 7, minimum=1)
# Public keys (age's "age1...", or an SSH "ssh-ed25519 ..." / "ssh-rsa ...") every backup
# is encrypted to: the platform cannot read its own backups, a restore needs a matching
# private key (manage.py restore --identity FILE). Empty: backups are not encrypted.
BACKUP_RECIPIENTS = env_list("BACKUP_RECIPIENTS", [])
# How often beat asks whether a backup is due (classroom.backups.backup_due).
BACKUP_CHECK_SECONDS = 3600.0

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (django-csp): pages load scripts, styles, images and fonts from
# this server only, open sockets to it only, and run no inline script, no inline event
# handler and no inline style (tests/browser/test_csp.py loads every kind of page and
# fails on any violation). Students are minors: no third-party source at all.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        # data: images are pictures drawn inline in the stylesheets (never a script).
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

if PRODUCTION:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "filters": {"followers": {"()": "config.serverlogs.ServiceFailuresOfFollowers"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # Live play handles a follower of the moves that lost a service (a warning):
        # Django's own error record of it is left out, in every process that moves.
        "django.dispatch": {"filters": ["followers"]},
        "django.channels.server": {"level": "WARNING"},
        # django-axes logs every login at INFO: a failed one is in its table, and a server
        # log need not name each teacher's logins.
        "axes": {"level": "WARNING"},
        # WeasyPrint logs every layout step at INFO, from its import on: the worker's log
        # stays readable.
        "weasyprint.progress": {"level": "WARNING"},
    },
}

# --- Live play: tables, bots, timers ----------------------------------------------
# Seconds a bot waits before it moves, so that people can follow the game.
BOT_DELAY_SECONDS = float(os.environ.get("BOT_DELAY_SECONDS", "1.5"))
# The bot that fills empty seats and plays seats handed to a bot.
LIVE_BOT_KIND = os.environ.get("LIVE_BOT_KIND", "heuristic")
# Threads of an ASGI process that do its play sockets' database work (their moves, the
# connect and its hello, the states they read, their presence), a table's always in the
# same one (its moves stay in the order they came). On PostgreSQL each statement waits
# for the server's answer: in one thread, every socket of the process queued behind
# those waits. SQLite takes one writer at a time, so there (0) all of it stays in the
# sockets' database thread.
LIVE_DATABASE_THREADS = int(
    os.environ.get(
        "LIVE_DATABASE_THREADS",
        "0" if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3" else "4",
    )
)
# Threads of an ASGI process that draw its teachers' live dashboards and join screens, a
# session's always in the same one, apart from the threads of the moves. A drawing waits
# for a dozen statements: with PostgreSQL across the network (2.4 ms each), one thread
# can draw some 35 dashboards a second, the teachers of about 1,000 students in one
# process (a bound from the round trips, not a measurement: docs/benchmarks.md, "Load").
LIVE_DRAWING_THREADS = max(
    1,
    int(
        os.environ.get(
            "LIVE_DRAWING_THREADS",
            "1" if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3" else "2",
        )
    ),
)
# The sweeper fires due timers and re-schedules bot moves, so that a restart (even
# after kill -9) resumes every match; a worker also sweeps once when it starts.
LIVE_SWEEP_SECONDS = float(os.environ.get("LIVE_SWEEP_SECONDS", "3"))
# Each process keeps the lesson links and the lessons they open this long (live play asks
# for them at nearly every move); ``load_lessons`` reaches running servers within it.
LESSON_LINKS_SECONDS = 60.0
# The garbage collector's generation thresholds in the ASGI server and the Celery worker
# (config.collector; the interpreter's: 700, 10, 10), "young,middle,old" in the environment.
GC_THRESHOLDS = tuple(
    int(number) for number in os.environ.get("GC_THRESHOLDS", "5000,10,10").split(",")
)
# Each process keeps a playing session's lesson mode this long: a teacher's new mode
# reaches the moves another server process plays within it (its own at once).
LESSON_MODE_SECONDS = 5.0
if BACKUP_HOURS:
    # Hourly, beat asks whether a backup is due (one every BACKUP_HOURS, counted from the
    # newest in BACKUP_DIR): the first is made within the hour of the first start, and
    # one missed while the platform was stopped within the hour of the next start.
    CELERY_BEAT_SCHEDULE["back-up-the-database"] = {
        "task": "classroom.tasks.back_up",
        "schedule": BACKUP_CHECK_SECONDS,
        # A check missed (beat down, a worker busy) is made by the next one.
        "options": {"expires": BACKUP_CHECK_SECONDS},
    }
CELERY_BEAT_SCHEDULE["live-play-sweeper"] = {
    "task": "live.tasks.sweep",
    "schedule": LIVE_SWEEP_SECONDS,
    "options": {"expires": LIVE_SWEEP_SECONDS * 2},
}
