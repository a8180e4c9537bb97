"""The health check against the real services: 200 when all are up, 503 otherwise."""

import tempfile
from pathlib import Path

import pytest
import redis

from config.services import free_port, redis_answers, redis_service, wait_until

pytestmark = pytest.mark.django_db


def test_healthz_is_200_when_database_redis_and_worker_are_up(client, celery_worker):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "redis": "ok", "celery": "ok"}


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
