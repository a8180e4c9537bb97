"""Queries compiled once (games.prepared) return what the ORM's own queryset returns,
on SQLite and PostgreSQL: the same objects with the same values (JSON, times, booleans
converted), the related objects of ``select_related`` without another query, tuples for
``values_list``; and they run as one statement each through the connection's cursor."""

import threading

import pytest
from django.db import connection, connections, transaction
from django.db.models import F, Model
from django.db.models.signals import post_init, post_save, pre_init, pre_save
from django.db.models.sql.compiler import SQLCompiler
from django.test.utils import CaptureQueriesContext

from classroom import actions
from classroom.models import Seat
from games import clock
from games.matches import (
    ACTION_LOGGED,
    MATCH_MOVED,
    MATCH_TO_WRITE,
    TIMERS_OF,
    apply_action,
    hold,
    load_state,
)
from games.models import Match, MatchAction, MatchTimer
from games.prepared import PreparedQuery
from live.messages import MATCH_NOW, SEATS_AT_MATCH, SEATS_AT_TABLE, action_table, mark_current
from tests.live.conftest import open_session, seat_students
from tests.live.helpers import drive_to_call_window

pytestmark = pytest.mark.django_db(transaction=True)


def field_values(obj: Model) -> dict:
    return {field.attname: getattr(obj, field.attname) for field in obj._meta.concrete_fields}


def started_table(school_class, options=None):
    session = open_session(school_class, table_size=3, bots=True, options=options)
    seat_students(session, "Ana", "Ben")
    actions.do_start_session(session)
    return session.tables.get()


def test_the_seats_and_their_students_are_the_orm_s_in_one_query(school_class):
    table = started_table(school_class)
    Seat.objects.filter(table=table, number=1).update(last_seen_at=clock.now(), connected=2)
    expected = list(
        Seat.objects.select_related("participant", "table")
        .filter(table__match_id=table.match_id)
        .order_by("number")
    )
    assert len(expected) == 3 and any(seat.participant is None for seat in expected)

    with CaptureQueriesContext(connection) as queries:
        by_match = SEATS_AT_MATCH.objects(table.match_id)
        by_table = SEATS_AT_TABLE.objects(table.pk)
        names = [seat.display_name for seat in by_match]  # no query for the students
        students = [seat.participant for seat in by_table]
        tables = {seat.table.pk for seat in by_match}
    assert len(queries.captured_queries) == 2
    for found in (by_match, by_table):
        assert [field_values(s) for s in found] == [field_values(s) for s in expected]
        assert [field_values(s.participant) if s.participant else None for s in found] == [
            field_values(s.participant) if s.participant else None for s in expected
        ]
        assert [field_values(s.table) for s in found] == [field_values(s.table) for s in expected]
    assert names == [seat.display_name for seat in expected]
    assert [s.pk if s else None for s in students] == [s.participant_id for s in expected]
    assert tables == {table.pk}
    assert isinstance(by_match[1].last_seen_at, type(expected[1].last_seen_at))
    assert by_match[1].last_seen_at == expected[1].last_seen_at is not None
    # the seats of another table are not among them
    assert SEATS_AT_MATCH.objects(table.match_id + 1000) == []


def test_the_match_under_its_lock_its_timers_and_its_version_are_the_orm_s(school_class):
    table = started_table(school_class, options={"call_seconds": 60})
    match = Match.objects.get(pk=table.match_id)
    drive_to_call_window(match, seed=3)
    hold(match.pk, "table")
    match = Match.objects.get(pk=match.pk)
    assert match.paused_at is not None and match.snapshot

    with transaction.atomic():
        locked = MATCH_TO_WRITE.first(match.pk)
    assert locked is not None
    assert field_values(locked) == field_values(match)
    assert load_state(locked).to_json() == load_state(match).to_json()
    with transaction.atomic():
        assert MATCH_TO_WRITE.first(match.pk + 1000) is None

    timers = list(MatchTimer.objects.filter(match=match))
    assert timers, "the call window runs a timer"
    assert [field_values(t) for t in TIMERS_OF.objects(match.pk)] == [
        field_values(t) for t in timers
    ]
    assert MATCH_NOW.rows(match.pk) == [(match.version, match.status, match.paused_at)]
    assert MATCH_NOW.rows(match.pk + 1000) == []


def test_a_move_compiles_no_read_query(school_class, monkeypatch):
    """The write path's reads (the table's seats, the match under its lock, its timers,
    its version after the commit) run as compiled once: a move builds no SELECT and
    works out no column's converters (JSON, times) again."""
    table = started_table(school_class, options={"call_seconds": 60})
    compiled = []
    original = SQLCompiler.as_sql
    original_converters = SQLCompiler.get_converters

    def as_sql(self, *args, **kwargs):
        if type(self) is SQLCompiler:
            assert self.query.model is not None
            compiled.append(self.query.model.__name__)
        return original(self, *args, **kwargs)

    def get_converters(self, expressions):
        compiled.append(f"converters of {self.query.model.__name__}")
        return original_converters(self, expressions)

    def move() -> tuple[int, bool]:
        match = Match.objects.get(pk=table.match_id)
        state = load_state(match)
        movers = state.to_move()
        seat = movers[0] if movers else None
        compiled.clear()
        found = action_table(match_id=match.pk)
        assert found is not None
        applied = apply_action(match.pk, seat, state.legal_actions(seat)[0], match.version)
        mark_current(found, applied)
        assert found.current
        return applied.version, bool(state.timers())

    move()  # the first reads the session once for the process (messages.kept_session)
    drive_to_call_window(Match.objects.get(pk=table.match_id), seed=3)
    monkeypatch.setattr(SQLCompiler, "as_sql", as_sql)
    monkeypatch.setattr(SQLCompiler, "get_converters", get_converters)
    moves = []
    for _move in range(6):
        moves.append(move())
        assert compiled == []
    first = moves[0][0]
    assert [version for version, _timers in moves] == list(range(first, first + 6))
    assert any(timers for _version, timers in moves), "a move read running timers"


def test_each_thread_compiles_for_its_own_connection(school_class):
    table = started_table(school_class)
    here = SEATS_AT_TABLE.objects(table.pk)
    there = {}

    def other_thread():
        try:
            there["seats"] = SEATS_AT_TABLE.objects(table.pk)
            there["connection"] = SEATS_AT_TABLE._compile().connection
        finally:
            connections.close_all()

    worker = threading.Thread(target=other_thread)
    worker.start()
    worker.join()
    assert [s.pk for s in there["seats"]] == [s.pk for s in here]
    assert there["connection"] is not connections["default"]
    assert SEATS_AT_TABLE._compile().connection is connections["default"]


def test_an_in_list_is_prepared_once_per_length_and_reads_what_the_orm_reads(school_class):
    """A ``build`` of ``*values`` with an ``arity``: each value of the ``__in`` list is one
    SQL parameter (the dashboard reads the seats of the tables that moved so)."""
    session = open_session(school_class, table_size=3, bots=True)
    seat_students(session, "Ana", "Ben", "Cleo", "Dan")
    actions.do_start_session(session)
    tables = list(session.tables.order_by("pk"))
    assert len(tables) == 2

    def seats_at(*table_ids):
        return Seat.objects.filter(table_id__in=table_ids).select_related("participant")

    def pks(seats):
        return sorted((seat.pk, seat.participant_id) for seat in seats)

    for count in (1, 2):
        read = PreparedQuery(seats_at, arity=count)
        ids = [table.pk for table in tables[:count]]
        assert pks(read.objects(*ids)) == pks(seats_at(*ids)) != []
        with pytest.raises(TypeError, match=f"takes {count} values"):
            read.objects(*ids, 0)
    both = PreparedQuery(seats_at, arity=2)
    assert pks(both.objects(tables[0].pk, tables[0].pk + 1000)) == pks(seats_at(tables[0].pk))


def test_a_queryset_that_is_not_plain_equality_on_its_values_is_refused():
    with pytest.raises(TypeError, match="queryset"):
        # A build that returns no queryset: the wrong type is what this checks.
        PreparedQuery(lambda match_id: Match.objects.filter(pk=match_id).first()).objects(1)  # type: ignore[arg-type, return-value]
    with pytest.raises(TypeError, match="one SQL parameter"):
        PreparedQuery(lambda match_id: Match.objects.all()).objects(1)
    with pytest.raises(TypeError, match="fields only"):
        PreparedQuery(
            lambda match_id: Match.objects.filter(pk=match_id).extra(select={"two": "2"})
        ).objects(1)
    with pytest.raises(TypeError, match="rows, not objects"):
        MATCH_NOW.objects(1)
    with pytest.raises(TypeError, match="takes 1 values"):
        MATCH_NOW.rows(1, 2)


def test_a_move_s_log_entry_and_the_match_s_update_are_what_the_orm_writes(school_class):
    table = started_table(school_class)
    match = Match.objects.get(pk=table.match_id)
    action = {"type": "play", "card": "é✓"}
    events = [{"type": "played", "seat": 1, "names": ["Zoë", None, 1.5, True]}]
    before = clock.now()
    ACTION_LOGGED.insert(match_id=match.pk, version=900, seat=1, action=action, events=events)
    MatchAction.objects.create(match=match, version=901, seat=1, action=action, events=events)
    mine, orm = MatchAction.objects.filter(match=match, version__gte=900).order_by("version")
    assert {**field_values(mine), "id": 0, "version": 0, "created_at": 0} == {
        **field_values(orm),
        "id": 0,
        "version": 0,
        "created_at": 0,
    }
    assert before <= mine.created_at <= orm.created_at

    snapshot = {**match.snapshot, "note": "Ça va?"}
    finished = clock.now()
    changes = {"version": match.version + 1, "snapshot": snapshot, "updated_at": finished}
    assert MATCH_MOVED.update(match.pk, match.version + 5, **changes) == 0  # another version
    assert Match.objects.get(pk=match.pk).version == match.version
    assert MATCH_MOVED.update(match.pk, match.version, **changes) == 1
    result = {"winners": [0], "scores": [3, 1, 2]}
    ended = {"version": match.version + 2, "snapshot": snapshot, "status": "finished"}
    ended |= {"result": result, "finished_at": finished}
    assert MATCH_MOVED.update(match.pk, match.version + 1, **ended) == 1
    stored = Match.objects.get(pk=match.pk)
    assert (stored.version, stored.snapshot, stored.status) == (
        match.version + 2,
        snapshot,
        "finished",
    )
    assert (stored.result, stored.finished_at, stored.updated_at) == (result, finished, finished)


def test_the_match_log_has_no_model_signal_receivers():
    """The prepared writes do not send the model signals: nothing may listen for them."""
    for model in (Match, MatchAction):
        for signal in (pre_save, post_save, pre_init, post_init):
            assert not signal.has_listeners(model), (model.__name__, signal)


def test_a_prepared_write_of_anything_but_plain_values_is_refused(school_class):
    table = started_table(school_class)
    with pytest.raises(TypeError, match="plain values"):
        MATCH_MOVED.update(table.match_id, 0, finished_at=None)
    with pytest.raises(TypeError, match="plain values"):
        MATCH_MOVED.update(table.match_id, 0, version=F("version") + 1)
    with pytest.raises(TypeError, match="takes 2 values"):
        MATCH_MOVED.update(table.match_id, version=1)
    assert Match.objects.get(pk=table.match_id).version == 0
