"""A removed student is in no export: HTML report, PDF, CSV, JSON and the replay.

Their seat's moves stay in the match log (the game's record) under "Removed student".
"""

import csv
import io
import json

import pytest
from django.utils import timezone, translation

from classroom.models import Participant
from debrief import data, render
from lessons import results

pytestmark = pytest.mark.django_db

REMOVED = "Zorblax"  # a nickname no other text of the report contains


@pytest.fixture
def removed(recorded):
    """Rename one seated student to a unique nickname, then mark them removed."""
    participant = Participant.objects.filter(session=recorded, seats__isnull=False).first()
    assert participant is not None
    Participant.objects.filter(pk=participant.pk).update(
        nickname=REMOVED, nickname_key=REMOVED.casefold(), kicked=True, kicked_at=timezone.now()
    )
    return participant


@pytest.fixture
def report(recorded, removed):
    with translation.override(recorded.language):
        return data.build(recorded)


def test_the_report_counts_and_lists_only_students_still_in(recorded, removed, report):
    assert report.students == 9
    lines = {line.nickname for line in report.students_lines}
    assert REMOVED not in lines and len(lines) == 9
    names = [player.name for table in report.tables for player in table.players]
    assert names.count("Removed student") == 1 and REMOVED not in names
    progress = results.student_progress(recorded)
    assert len(progress) == 9 and REMOVED not in {student.nickname for student in progress}


def test_the_removed_seat_keeps_its_moves_in_the_replay(removed, report):
    table = next(t for t in report.tables if any(p.participant_id == removed.pk for p in t.players))
    player = next(p for p in table.players if p.participant_id == removed.pk)
    assert player.name == "Removed student"
    assert table.replay_matches and table.moves
    assert player.seat in table.ranks  # the seat still has its score and rank


def test_html_pdf_csv_and_json_leave_the_nickname_out(recorded, removed, report, tmp_path):
    html = render.render_html(report)
    assert REMOVED not in html and "Removed student" in html
    assert REMOVED not in render.render_html(report, for_pdf=True)
    rows = list(csv.reader(io.StringIO(render.csv_text(report))))
    assert len(rows) == 1 + 9 and all(REMOVED not in row for row in rows)
    raw = render.json_text(recorded, report)
    assert REMOVED not in raw
    quizzes = json.loads(raw)["quizzes"]
    assert quizzes and all(quiz["nickname"] for quiz in quizzes)  # none of the removed one
