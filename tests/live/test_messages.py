"""The table protocol's messages as live.messages builds them from the stored match."""

import random

import pytest

from classroom import actions
from classroom.models import Table
from games.models import Match
from live import background, messages
from tests.live.conftest import open_session, seat_students
from tests.live.helpers import random_step

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(school_class):
    session = open_session(school_class, table_size=2, language="fr")
    seat_students(session, "Ana", "Ben")
    actions.do_start_session(session)
    return Table.objects.get(session=session)


def test_the_log_covers_every_action_since_the_last_state_sent(table):
    match = Match.objects.get(pk=table.match_id)
    rng = random.Random(5)
    random_step(match, rng)
    one = messages.state_message(messages.load_table(table.pk), 0, "fr")["log"]
    random_step(match, rng)
    random_step(match, rng)
    snap = messages.load_table(table.pk)
    last = messages.state_message(snap, 0, "fr")["log"]
    since_one = messages.state_message(snap, 0, "fr", since=1)["log"]
    since_zero = messages.state_message(snap, 0, "fr", since=0)["log"]
    assert one and last
    assert since_one[-len(last) :] == last and len(since_one) > len(last)
    assert since_zero[: len(one)] == one and len(since_zero) > len(since_one)
    assert all(isinstance(line, str) and "%(" not in line for line in since_zero)


def test_state_and_hello_messages_carry_the_protocols_fields(table):
    snap = messages.load_table(table.pk)
    hello = messages.hello_message(snap, 1, "fr")
    assert set(hello) == {
        "type", "table", "match", "seat", "players", "game", "variant", "catalogue", "language",
    }  # fmt: skip
    assert [p["seat"] for p in hello["players"]] == [0, 1]
    state = messages.state_message(snap, None, "fr")
    assert set(state) == {
        "type", "version", "seat", "view", "legal_actions", "deadline", "log", "paused",
        "over", "result", "lesson_pause", "server_time",
    }  # fmt: skip
    assert state["seat"] is None and state["legal_actions"] == [] and state["over"] is False
    assert state["lesson_pause"] is None


def test_a_connection_count_left_by_a_killed_server_turns_stale(table, clock):
    from classroom.models import SEAT_STALE_SECONDS, Seat

    seat = Seat.objects.get(table=table, number=0)
    actions.do_seat_connected(seat.pk, +1)
    assert messages.players(messages.load_table(table.pk))[0]["connected"] is True
    clock.advance(SEAT_STALE_SECONDS - 1)
    assert messages.players(messages.load_table(table.pk))[0]["connected"] is True
    assert background.sweep()["stale_connections"] == 0
    clock.advance(2)  # no heartbeat for longer than SEAT_STALE_SECONDS
    assert messages.players(messages.load_table(table.pk))[0]["connected"] is False
    assert background.sweep()["stale_connections"] == 1
    assert Seat.objects.get(pk=seat.pk).connected == 0
    actions.do_seat_connected(seat.pk, +1)
    actions.do_seat_seen(seat.pk)
    assert messages.players(messages.load_table(table.pk))[0]["connected"] is True
