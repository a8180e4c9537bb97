"""clients/random_client.py, one process per seat, plays a whole session against a live server."""

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from classroom.models import Table
from games.matches import replay_match
from games.models import Match
from lessons.actions import do_set_lesson_mode
from lessons.models import LessonMoment
from tests.live.conftest import open_session
from tests.live.protocol_driver import teacher_post

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "random_client.py"
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("lesson_mode", ["show", "pause"])
def test_random_clients_play_every_seat_to_the_end(
    school_class, teacher_client, live_server_url, celery_worker, lesson_mode
):
    """In "pause" mode every lesson card stops the table until the clients dismiss it."""
    session = open_session(school_class, table_size=2)
    do_set_lesson_mode(session, lesson_mode)
    names = ["Ana", "Ben", "Cleo", "Dan", "Eve"]
    clients = [
        subprocess.Popen(
            [
                sys.executable,
                str(CLIENT),
                live_server_url,
                session.join_code,
                name,
                "--seed",
                str(i),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i, name in enumerate(names)
    ]
    deadline = time.monotonic() + 30
    while session.participants.count() < len(names):
        assert time.monotonic() < deadline, "the clients did not join"
        assert all(client.poll() is None for client in clients)
        time.sleep(0.1)
    page = f"/teacher/sessions/{session.pk}/"
    cookie = teacher_client.cookies["sessionid"].value
    started = time.monotonic()
    assert teacher_post(live_server_url, cookie, page, f"{page}start/") == 200

    results = []
    for client in clients:
        out, err = client.communicate(timeout=150)
        assert client.returncode == 0, err[-2000:]
        results.append(json.loads(out.strip().splitlines()[-1]))
    elapsed = time.monotonic() - started

    tables = Table.objects.filter(session=session)
    assert [t.seats.count() for t in tables.order_by("number")] == [3, 2]  # 5 students at 2s
    assert {r["nickname"] for r in results} == set(names)
    for table in tables:
        match = Match.objects.get(pk=table.match_id)
        assert match.status == Match.Status.FINISHED
        assert replay_match(match).to_json() == match.snapshot
        # Each client's table by its nickname: two tables may end at the same version.
        seated = set(table.seats.values_list("participant__nickname", flat=True))
        mine = [r for r in results if r["nickname"] in seated]
        assert len(mine) == table.seats.count()
        assert all(r["version"] == match.version and r["result"] == match.result for r in mine)
    if lesson_mode == "pause":
        assert LessonMoment.objects.filter(session=session).exists()
    print(
        f"random clients: {sum(Match.objects.get(pk=t.match_id).version for t in tables)} "
        f"actions at {tables.count()} tables in {elapsed:.1f} s"
    )
