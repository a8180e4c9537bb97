"""The health check against the real services: 200 when all are up, 503 otherwise."""

import tempfile
from datetime import timedelta
from pathlib import Path

import pytest
import redis
from django.utils import timezone

from classroom.backups import backup_path, made_at
from config.services import free_port, redis_answers, redis_service, wait_until

pytestmark = pytest.mark.django_db


def test_healthz_is_200_when_database_redis_and_worker_are_up(client, celery_worker, settings):
    settings.BACKUP_HOURS = 0  # the backups' state is told only when beat makes them
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "redis": "ok", "celery": "ok"}


def test_healthz_tells_a_monitor_whether_the_backups_are_made(
    client, celery_worker, settings, tmp_path
):
    settings.BACKUP_DIR, settings.BACKUP_HOURS = tmp_path, 24
    assert client.get("/healthz").json()["backups"] == {"state": "none", "last": None, "kept": 0}
    now = timezone.now().replace(microsecond=0)
    old = backup_path(tmp_path, now - timedelta(hours=49))
    old.write_bytes(b"backup")
    response = client.get("/healthz")
    assert response.status_code == 200  # a late backup is not a server that is down
    assert response.json()["backups"] == {
        "state": "late",
        "last": made_at(old).isoformat(),
        "kept": 1,
    }
    backup_path(tmp_path, now - timedelta(hours=47)).write_bytes(b"backup")
    assert client.get("/healthz").json()["backups"]["state"] == "ok"
    assert client.get("/healthz").json()["backups"]["kept"] == 2


def test_healthz_is_503_when_redis_stops(client, settings, tmp_path):
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    server = redis_service(port, tmp_path, persist=False).start()
    try:
        wait_until(lambda: redis_answers(url), 15, "Redis", [server])
        settings.REDIS_URL = url
        assert client.get("/healthz").json()["redis"] == "ok"
    finally:
        server.stop()

    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "down"
    assert body["redis"].startswith("down")
    assert body["celery"].startswith("down")
    assert body["database"] == "ok"
    with pytest.raises(redis.ConnectionError):
        redis.Redis.from_url(url).ping()


def test_healthz_is_503_without_a_worker(client, settings):
    """No worker listens on an empty Redis: the ping gets no answer."""
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    with tempfile.TemporaryDirectory() as data:
        server = redis_service(port, Path(data), persist=False).start()
        try:
            wait_until(lambda: redis_answers(url), 15, "Redis", [server])
            settings.REDIS_URL = url
            response = client.get("/healthz")
        finally:
            server.stop()

    assert response.status_code == 503
    assert response.json()["redis"] == "ok"
    assert response.json()["celery"] == "down: no worker answered"
