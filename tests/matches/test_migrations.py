"""games 0003 gives every match paused before it the holds that pause it.

The test database is migrated back to games 0002 (no MatchHold), where a table, a
session and a lesson (whose pause lived only in the cache) pause matches as the code
of that time did; migrating forward again turns the teacher's pauses into holds and
lets the match that only a lesson paused run again, its timer moved by the pause.
"""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from classroom import actions
from classroom.identity import new_device_id
from classroom.models import ClassSession
from live import scheduling

BEFORE_THE_HOLDS = [
    ("games", "0002_match_paused_at_matchtimer"),
    ("classroom", "0002_tables_seats"),
]


def migrate(targets=None):
    """Migrate the test database to ``targets`` (every app's latest migration if None);
    return the models of the state reached."""
    executor = MigrationExecutor(connection)
    targets = targets or executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


def started_session(teacher: User, name: str, students: int) -> ClassSession:
    session = actions.do_create_session(
        actions.do_create_class(teacher, name),
        game="data_tycoon",
        variant="standard",
        language="en",
        table_size=2,
        bots_fill=False,
    )
    for number in range(students):
        actions.do_join_session(session, f"{name}-{number}", new_device_id())
    actions.do_start_session(session)
    return session


def test_paused_matches_get_their_teachers_holds_and_a_lesson_only_pause_ends(
    transactional_db, django_user_model, monkeypatch
):
    monkeypatch.setattr(scheduling, "send_task", lambda *args, **kwargs: None)
    teacher = django_user_model.objects.create_user("holds", password="a-Long-passw0rd-9")
    running = started_session(teacher, "3A", students=6)
    paused = started_session(teacher, "3B", students=2)
    by_table, by_lesson, untouched = (table.match_id for table in running.tables.order_by("number"))
    (by_session,) = (table.match_id for table in paused.tables.all())

    old = migrate(BEFORE_THE_HOLDS)
    try:
        with pytest.raises(LookupError):
            old.get_model("games", "MatchHold")
        Match = old.get_model("games", "Match")
        MatchTimer = old.get_model("games", "MatchTimer")
        since = timezone.now() - timedelta(minutes=1)
        Match.objects.filter(pk__in=[by_table, by_lesson, by_session]).update(
            status="paused", paused_at=since
        )
        old.get_model("classroom", "Table").objects.filter(match_id=by_table).update(paused=True)
        old.get_model("classroom", "ClassSession").objects.filter(pk=paused.pk).update(
            state="paused"
        )
        due_at = since + timedelta(seconds=15)
        MatchTimer.objects.create(
            match_id=by_lesson, timer_id="test", seconds=15, due_at=due_at, action={}
        )
    finally:
        new = migrate()

    Match = new.get_model("games", "Match")
    MatchHold = new.get_model("games", "MatchHold")
    holds = {(hold.match_id, hold.kind, hold.created_at) for hold in MatchHold.objects.all()}
    assert holds == {(by_table, "table", since), (by_session, "session", since)}
    assert Match.objects.get(pk=by_table).status == "paused"
    assert Match.objects.get(pk=by_session).status == "paused"
    lesson_only = Match.objects.get(pk=by_lesson)
    assert lesson_only.status == "running" and lesson_only.paused_at is None
    timers = new.get_model("games", "MatchTimer").objects
    moved = timers.get(match_id=by_lesson, timer_id="test").due_at
    assert moved - due_at >= timedelta(minutes=1)  # the pause, as a resume would
    assert Match.objects.get(pk=untouched).status == "running"
