"""The live dashboard names a finished table's winners, in the singular or the plural."""

import random

import pytest

from classroom import actions
from classroom.models import Table
from games.matches import load_state
from games.models import Match
from live.dashboard import tables_context
from tests.live.conftest import open_session, seat_students
from tests.live.helpers import random_step

pytestmark = pytest.mark.django_db


def test_a_finished_table_names_its_winners(school_class, teacher_client):
    session = open_session(school_class, table_size=2, variant="beginner")
    seat_students(session, "Ada", "Bao")
    actions.do_start_session(session)
    match = Match.objects.get(pk=Table.objects.get(session=session).match_id)
    rng = random.Random(4)
    for _ in range(3000):
        if match.status == Match.Status.FINISHED:
            break
        random_step(match, rng)
    assert match.status == Match.Status.FINISHED
    result = load_state(match).result()
    assert result is not None
    winners = result["winners"]
    assert winners
    (table,) = tables_context(session, "en")["tables"]
    assert table["over"] and table["winner_count"] == len(winners)
    page = teacher_client.get(f"/teacher/sessions/{session.pk}/live/").content.decode()
    label = "Winner: " if len(winners) == 1 else "Winners: "
    assert label + table["winners"] in page
    assert "Winner(s)" not in page
