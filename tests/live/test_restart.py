"""Kill -9 every process mid-game, start them again: every match resumes, nothing is lost."""

import random
import time

import pytest
from django.test import Client

from classroom.models import Table
from config.services import (
    asgi_service,
    celery_beat_service,
    celery_worker_service,
    free_port,
    port_open,
    wait_for_celery,
    wait_until,
)
from games.matches import replay_match
from games.models import Match, MatchAction
from tests.live.conftest import open_session
from tests.live.protocol_driver import CALLS, drive, join, run, teacher_post

pytestmark = pytest.mark.django_db(transaction=True)


def start_platform(env, tmp_path):
    """Start a worker, beat and uvicorn (what `make run` starts after Redis); return them."""
    worker = celery_worker_service(env).start()
    beat = celery_beat_service(env, tmp_path / "celerybeat-schedule").start()
    port = free_port()
    asgi = asgi_service(env, "127.0.0.1", port).start()
    services = [worker, beat, asgi]
    wait_until(lambda: port_open("127.0.0.1", port), 30, "uvicorn", services)
    wait_for_celery(env, 60, services)
    return services, f"http://127.0.0.1:{port}"


def holds_a_call_window(state: dict) -> bool:
    """Tell whether this seat's DATA!/DATABREACH! call window is open (it may call now)."""
    return any(action["type"] in CALLS for action in state["legal_actions"])


def test_kill_everything_mid_game_then_finish_it(school_class, teacher, service_env, tmp_path):
    # Redis database 1: only the services started here serve this test (the session's
    # own worker, on database 0, must not play while these are dead).
    env = dict(service_env, REDIS_URL=service_env["REDIS_URL"].rsplit("/", 1)[0] + "/1")
    session = open_session(school_class, table_size=3, bots=True, options={"call_seconds": 2})
    teacher_client = Client()
    teacher_client.force_login(teacher)
    cookie = teacher_client.cookies["sessionid"].value
    rng = random.Random(11)

    services, base = start_platform(env, tmp_path)
    try:
        seats = [join(base, session.join_code, name) for name in ("Ana", "Ben")]
        page = f"/teacher/sessions/{session.pk}/"
        assert teacher_post(base, cookie, page, f"{page}start/") == 200
        table = Table.objects.get(session=session)

        # Play until a student's call window opens after move 20: leave it unanswered
        # (its timer runs) and kill everything right then.
        first = run(
            drive, base, seats, rng, stop=lambda s: s["version"] >= 20 and holds_a_call_window(s)
        )
        assert first["stopped_on"] is not None, "the game ended before the kill"
        for service in services:
            service.kill()
        killed_at = Match.objects.get(pk=table.match_id).version
        # every version a client was sent before the kill is stored
        assert killed_at >= first["version"] >= 20
        timer = first["stopped_on"]["deadline"]
        assert timer and timer["kind"] in CALLS
        time.sleep(1)
        assert Match.objects.get(pk=table.match_id).version == killed_at  # nothing runs

        services, base = start_platform(env, tmp_path)
        second = run(drive, base, seats, rng, timeout=150)
        assert second["over"]
    finally:
        for service in services:
            service.stop()

    match = Match.objects.get(pk=table.match_id)
    assert match.status == Match.Status.FINISHED and match.version > killed_at
    versions = list(match.actions.values_list("version", flat=True))
    assert versions == list(range(1, match.version + 1))  # no accepted action lost
    assert replay_match(match).to_json() == match.snapshot
    # the timer left running at the kill was fired by the restarted server
    expiry = MatchAction.objects.get(match=match, version=killed_at + 1)
    assert expiry.seat is None
    assert expiry.action == {"type": "expire", "timer": timer["timer"]}
