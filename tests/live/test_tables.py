"""Splitting a session's students into tables, and dealing them at the start."""

import pytest

from classroom import actions
from classroom.models import Seat, Table
from classroom.tables import CannotSplit, TablePlan, split
from games.models import Match
from tests.live.conftest import open_session, seat_students


def sizes(plans):
    return [(plan.humans, plan.bots) for plan in plans]


@pytest.mark.parametrize(
    ("students", "size", "expected"),
    [
        (8, 4, [(4, 0), (4, 0)]),
        (9, 4, [(3, 0), (3, 0), (3, 0)]),
        (10, 4, [(4, 0), (3, 0), (3, 0)]),
        (5, 2, [(3, 0), (2, 0)]),  # a lone student joins another table
        (3, 2, [(3, 0)]),
        (2, 6, [(2, 0)]),
        (13, 6, [(5, 0), (4, 0), (4, 0)]),
        (30, 3, [(3, 0)] * 10),
    ],
)
def test_without_bots_tables_are_balanced_and_nobody_plays_alone(students, size, expected):
    plans = split(students, size, bots_fill=False, min_players=2, max_players=6)
    assert sizes(plans) == expected
    humans = [plan.humans for plan in plans]
    assert sum(humans) == students
    assert max(humans) - min(humans) <= 1
    assert min(humans) >= 2 and max(humans) <= 6


@pytest.mark.parametrize(
    ("students", "size", "expected"),
    [
        (1, 4, [(1, 3)]),  # a lone student gets bots
        (5, 4, [(3, 1), (2, 2)]),
        (4, 4, [(4, 0)]),
        (7, 3, [(3, 0), (2, 1), (2, 1)]),
    ],
)
def test_with_bots_every_table_is_filled_to_its_size(students, size, expected):
    plans = split(students, size, bots_fill=True, min_players=2, max_players=6)
    assert sizes(plans) == expected
    assert all(plan.seats == size for plan in plans)


def test_sizes_are_clamped_to_what_the_game_allows():
    assert split(4, 9, bots_fill=False, min_players=2, max_players=3) == [TablePlan(2, 0)] * 2
    assert split(3, 1, bots_fill=True, min_players=2, max_players=6) == [
        TablePlan(2, 0),
        TablePlan(1, 1),
    ]


def test_a_single_student_without_bots_cannot_play():
    with pytest.raises(CannotSplit):
        split(1, 4, bots_fill=False)
    assert split(0, 4, bots_fill=True) == []


@pytest.mark.django_db
def test_starting_deals_one_match_per_table_with_bots_in_empty_seats(school_class):
    session = open_session(school_class, table_size=3, bots=True)
    students = seat_students(session, "Ana", "Ben", "Cleo", "Dan")
    actions.do_start_session(session)

    tables = list(Table.objects.filter(session=session).order_by("number"))
    assert [t.number for t in tables] == [1, 2]
    seated = Seat.objects.filter(table__session=session, participant__isnull=False)
    seated_ids = [s.participant_id for s in seated if s.participant_id is not None]
    assert sorted(seated_ids) == sorted(p.pk for p in students)
    for table in tables:
        seats = list(table.seats.order_by("number"))
        assert len(seats) == 3 == table.match.num_seats
        assert table.match.version == 0 and table.match.status == Match.Status.RUNNING
        assert table.match.game == "data_tycoon" and table.match.variant == "standard"
        bots = [seat for seat in seats if seat.participant is None]
        assert len(bots) == 1 and bots[0].bot_kind == "heuristic"
    session.refresh_from_db()
    assert session.state == "running"


@pytest.mark.django_db
def test_a_lone_student_without_bots_is_refused_and_nothing_changes(school_class):
    session = open_session(school_class, table_size=2, bots=False)
    seat_students(session, "Ana")
    with pytest.raises(actions.ActionRefused) as refused:
        actions.do_start_session(session)
    assert refused.value.code == "too_few"
    session.refresh_from_db()
    assert session.state == "lobby" and not Table.objects.exists() and not Match.objects.exists()


@pytest.mark.django_db
def test_an_empty_session_is_refused(school_class):
    session = open_session(school_class, bots=True)
    with pytest.raises(actions.ActionRefused):
        actions.do_start_session(session)


@pytest.mark.django_db
def test_ending_the_session_stops_its_matches(school_class):
    session = open_session(school_class, table_size=2)
    seat_students(session, "Ana", "Ben")
    actions.do_start_session(session)
    actions.do_end_session(session)
    match = Match.objects.get(table__session=session)
    assert match.status == Match.Status.FINISHED and not match.timers.exists()


@pytest.mark.django_db
def test_a_latecomer_takes_over_a_bots_seat_or_waits(school_class):
    session = open_session(school_class, table_size=3, bots=True)
    seat_students(session, "Ana")
    actions.do_start_session(session)
    late, later, last = seat_students(session, "Ben", "Cleo", "Dan")
    seats = Seat.objects.filter(table__session=session).order_by("number")
    assert [s.participant_id for s in seats] == [
        seats[0].participant_id,
        late.pk,
        later.pk,
    ]
    assert all(s.bot_kind == "" for s in seats)
    assert not Seat.objects.filter(participant=last).exists()  # no bot seat left: waits
