"""Removed students leave the live dashboard's counts; their seats read "Removed student"."""

import pytest
from django.urls import reverse

from classroom import actions
from classroom.models import Seat
from live.dashboard import tables_context
from tests.live.conftest import EIGHT

pytestmark = pytest.mark.django_db


def test_six_removed_students_leave_every_count_of_the_dashboard(started, teacher_client):
    for nickname in EIGHT[2:]:
        actions.do_kick_participant(started.participants.get(nickname=nickname))
    page = teacher_client.get(reverse("live:session_live", args=[started.pk]))
    body = page.content.decode()
    assert "Quiz: 0 of 2 students finished." in body
    for nickname in EIGHT[2:]:
        assert f">{nickname}<" not in body and f"{nickname} " not in body
    assert body.count("Removed student") == 6
    context = tables_context(started, "en")
    assert [student.nickname for student in context["students"]] == ["Ada", "Bao"]
    assert context["quiz_students"] == 2
    names = [row["name"] for table in context["tables"] for row in table["seats"]]
    assert names.count("Removed student") == 6
    # the removed students' seats stay at their tables, played by a bot
    removed_seats = Seat.objects.filter(participant__kicked=True)
    assert removed_seats.count() == 6
    assert all(seat.bot_takeover for seat in removed_seats)


def test_a_renamed_student_shows_under_the_new_name(started, teacher_client):
    ada = started.participants.get(nickname="Ada")
    teacher_client.post(
        reverse("classroom:rename", args=[started.pk]),
        {"participant": ada.pk, "nickname": "Brave Otter"},
    )
    context = tables_context(started, "en")
    names = [row["name"] for table in context["tables"] for row in table["seats"]]
    assert "Brave Otter" in names and "Ada" not in names
