"""DebriefExport moved from the lessons app to the debrief app without losing a row.

The test database is migrated back to before the move (lessons 0005, no debrief
migration), an export is made there as the lessons app had it, with an admin log entry
about it; migrating forward again finds the same row as ``debrief.DebriefExport``, and
the log entry still points at it. (A fresh database takes the other path, from lessons
0001 to debrief 0001: every test database is made that way.)
"""

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from classroom import actions
from debrief.models import DebriefExport

BEFORE_THE_MOVE = [("lessons", "0005_link_attributes"), ("debrief", None)]
# The models the test uses before the move: the lessons app's, and the content types.
OLD_STATE = [("lessons", "0005_link_attributes"), ("contenttypes", "0002_remove_content_type_name")]
TABLE = "lessons_debriefexport"


def migrate(targets=None, state=None):
    """Migrate the test database to ``targets`` (every app's latest migration if None);
    return the models of the state reached (of the migrations ``state`` if given)."""
    executor = MigrationExecutor(connection)
    targets = targets or executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(state or targets).apps


@pytest.fixture
def before_the_move(transactional_db):
    """Migrate back to before the move for the test, and forward again after it."""
    old = migrate(BEFORE_THE_MOVE, OLD_STATE)
    try:
        yield old
    finally:
        migrate()
    ContentType.objects.clear_cache()


def test_an_export_made_before_the_move_is_still_there_after_it(before_the_move, teacher_a):
    session = actions.do_create_session(
        actions.do_create_class(teacher_a, "5B"),
        game="data_tycoon",
        variant="expert",
        language="en",
        table_size=4,
        bots_fill=True,
    )
    OldExport = before_the_move.get_model("lessons", "DebriefExport")
    assert OldExport._meta.db_table == TABLE
    with pytest.raises(LookupError):
        before_the_move.get_model("debrief", "DebriefExport")
    old = OldExport.objects.create(
        session_id=session.pk,
        requested_by_id=teacher_a.pk,
        status="done",
        steps_done=11,
        steps_total=11,
        attempts=2,
        files={"csv": "debrief.csv"},
    )
    OldContentType = before_the_move.get_model("contenttypes", "ContentType")
    old_type = OldContentType.objects.get(app_label="lessons", model="debriefexport")
    entry = LogEntry.objects.create(
        user=teacher_a,
        content_type_id=old_type.pk,
        object_id=str(old.pk),
        object_repr="an export",
        action_flag=CHANGE,
    )

    new = migrate()

    assert new.get_model("debrief", "DebriefExport")._meta.db_table == TABLE
    with pytest.raises(LookupError):
        new.get_model("lessons", "DebriefExport")
    ContentType.objects.clear_cache()
    export = DebriefExport.objects.get(pk=old.pk)
    assert (export.session, export.requested_by) == (session, teacher_a)
    assert (export.status, export.steps_done, export.attempts) == ("done", 11, 2)
    assert export.files == {"csv": "debrief.csv"}
    assert export.created_at == old.created_at
    # The content type moved with the model, so the admin's history stays with the row.
    content_type = ContentType.objects.get_for_model(DebriefExport)
    assert content_type.pk == old_type.pk
    assert not ContentType.objects.filter(app_label="lessons", model="debriefexport").exists()
    assert LogEntry.objects.get(pk=entry.pk).get_edited_object() == export


def test_the_models_and_the_migrations_agree(db):
    """No migration is missing: debrief 0001's state is the model, lessons 0006 let go of it."""
    call_command("makemigrations", "debrief", "lessons", "--check", "--dry-run", verbosity=0)
