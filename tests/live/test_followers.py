"""The apps that follow the moves (``games.signals.action_stored``): one that fails does
not undo the move, and one that lost a backing service is an outage, not a crash."""

import logging

import pytest
from django.db import OperationalError

from classroom import actions
from classroom.models import Table
from games.models import Match
from games.signals import action_stored
from live import messages, write
from tests.live.conftest import open_session, seat_students

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(school_class, monkeypatch):
    session = open_session(school_class, table_size=2, language="en")
    seat_students(session, "Ana", "Ben")
    actions.do_start_session(session)
    # The messages are kept, not sent: outside a server each send makes an event loop.
    sent = []
    monkeypatch.setattr(write, "send_groups", lambda messages, loop=None: sent.extend(messages))
    return Table.objects.get(session=session)


def move_with_failing_follower(table: Table, error: Exception) -> tuple[int, int]:
    """Play the table's first legal move with a follower listening that raises ``error``;
    return the match's version before and after."""

    def follower(sender: type[Match], **kwargs: object) -> None:
        raise error

    action_stored.connect(follower, dispatch_uid="tests.follower")
    try:
        state = messages.load_table(table.pk).state
        seat = state.to_move()[0]
        before = Match.objects.get(pk=table.match_id).version
        write.act(table.match_id, seat, state.legal_actions(seat)[0], before)
    finally:
        action_stored.disconnect(dispatch_uid="tests.follower")
    return before, Match.objects.get(pk=table.match_id).version


def test_a_follower_that_lost_the_database_is_a_warning_and_the_move_stays(table, caplog):
    lost = OperationalError("server closed the connection unexpectedly")
    with caplog.at_level(logging.WARNING):
        before, after = move_with_failing_follower(table, lost)
    assert after == before + 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert "after the move was stored" in caplog.text
    assert "server closed the connection unexpectedly" in caplog.text


@pytest.mark.expected_log_errors(r"failed after a move", r"Signal.send_robust", r"a defect")
def test_a_follower_s_defect_stays_an_error_and_the_move_stays(table, caplog):
    with caplog.at_level(logging.WARNING):
        before, after = move_with_failing_follower(table, ValueError("a defect"))
    assert after == before + 1
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert {r.name for r in errors} == {"django.dispatch", "live.write"}
    assert all(r.exc_info[1].args == ("a defect",) for r in errors)
