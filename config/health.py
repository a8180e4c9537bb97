"""The health check: is the database, Redis and a Celery worker up? And are the
backups made?"""

from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache

from classroom.backups import backups, made_at
from config.celery import app

if TYPE_CHECKING:
    # Not at run time: it imports psycopg, which a SQLite installation may lack.
    from config.postgresql.base import DatabaseWrapper


def check_database() -> str:
    """Run a trivial query."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        return f"down: {exc.__class__.__name__}"
    return "ok"


def database_pool() -> dict | None:
    """The pool of this process's database connections, when it has one (PostgreSQL, an
    ASGI server): the connections it holds, how many of them are free, the most it may
    hold, the threads waiting for one (a pool too small for the work), and the
    connections open beside it (``beside``, at most ``beside_max``) for threads that
    found it busy."""
    pool = getattr(connection, "pool", None)
    if pool is None:
        return None
    stats = pool.get_stats()
    # A pool: the connection is config.postgresql's.
    overflow = cast("DatabaseWrapper", connection).overflow
    return {
        "connections": stats["pool_size"],
        "free": stats["pool_available"],
        "max": pool.max_size,
        "waiting": stats.get("requests_waiting", 0),
        "beside": overflow.open,
        "beside_max": overflow.size,
    }


def check_redis() -> str:
    """Ping the Redis server behind the channel layer, the cache and Celery."""
    try:
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1
        )
        client.ping()
    except Exception as exc:
        return f"down: {exc.__class__.__name__}"
    return "ok"


def check_celery() -> str:
    """Ping the Celery workers; at least one must answer."""
    try:
        with app.connection_for_write(settings.REDIS_URL) as conn:
            replies = app.control.ping(timeout=1.0, connection=conn)
    except Exception as exc:
        return f"down: {exc.__class__.__name__}"
    return "ok" if replies else "down: no worker answered"


def check_backups() -> dict | None:
    """The backups beat makes every BACKUP_HOURS (None when it makes none): ``ok`` while
    the newest in BACKUP_DIR is younger than twice that, else ``late``, or ``none`` before
    the first; with the newest one's time and how many are kept."""
    if not settings.BACKUP_HOURS:
        return None
    found = backups(Path(settings.BACKUP_DIR))
    if not found:
        return {"state": "none", "last": None, "kept": 0}
    newest = made_at(found[-1])
    late = timezone.now() - newest > timedelta(hours=2 * settings.BACKUP_HOURS)
    return {"state": "late" if late else "ok", "last": newest.isoformat(), "kept": len(found)}


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """Answer 200 with each part's state when all are up, 503 otherwise. The backups'
    state is told beside, for a monitor: a late backup is not a server that is down."""
    checks = {"database": check_database(), "redis": check_redis()}
    # Without Redis the Celery ping would hang on the broker connection.
    checks["celery"] = check_celery() if checks["redis"] == "ok" else "down: no broker"
    healthy = all(value == "ok" for value in checks.values())
    answer: dict[str, Any] = {"status": "ok" if healthy else "down", **checks}
    pool = database_pool()
    if pool is not None:
        answer["database_pool"] = pool
    backup = check_backups()
    if backup is not None:
        answer["backups"] = backup
    return JsonResponse(answer, status=200 if healthy else 503)
