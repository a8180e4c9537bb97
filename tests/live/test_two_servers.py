"""Two ASGI servers on one database and one Redis: each seat on its own server."""

import random

import pytest

from classroom import actions
from classroom.models import Table
from games.matches import replay_match
from games.models import Match
from tests.conftest import start_asgi
from tests.live.conftest import open_session
from tests.live.protocol_driver import drive, join, run

pytestmark = pytest.mark.django_db(transaction=True)


def test_seats_on_two_servers_play_a_whole_game(
    school_class, service_env, live_server_url, celery_worker
):
    other, other_url = start_asgi(service_env)
    try:
        session = open_session(school_class, table_size=2)
        ana = join(live_server_url, session.join_code, "Ana")
        ben = dict(join(other_url, session.join_code, "Ben"), base=other_url)
        actions.do_start_session(session)
        outcome = run(drive, live_server_url, [ana, ben], random.Random(8), timeout=120)
    finally:
        other.stop()

    assert outcome["over"] and len(outcome["results"]) == 2
    match = Match.objects.get(pk=Table.objects.get(session=session).match_id)
    assert match.status == Match.Status.FINISHED
    assert outcome["results"] == [match.result, match.result]
    assert list(match.actions.values_list("version", flat=True)) == list(
        range(1, match.version + 1)
    )
    assert replay_match(match).to_json() == match.snapshot
