"""Retention: the purge deletes exactly the expired student data, and nothing else."""

import functools
from datetime import datetime, timedelta

import pytest
from django.conf import settings
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import DatabaseError
from django.db.models.signals import pre_delete
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format

from classroom import actions
from classroom.models import ClassSession, Deck, Participant, SchoolClass, Seat, SeatMove, Table
from classroom.retention import (
    delete_account,
    expired_sessions,
    purge_due,
    purge_expired,
    purge_session,
    purge_unused,
)
from config.celery import app
from debrief import export as exporting
from debrief.cleanup import sweep_export_folders
from debrief.models import DebriefExport
from games.models import Match, MatchAction, MatchHold, MatchTimer
from lessons.models import LessonMoment, Quiz, QuizAnswer
from tests.debrief.recorded import record_session

DAYS = settings.RETENTION_DAYS


def student_data(session: ClassSession) -> dict[str, int]:
    """Count every kind of student data a session holds."""
    return {
        "participants": Participant.objects.filter(session=session).count(),
        "device_moves": SeatMove.objects.filter(participant__session=session).count(),
        "tables": Table.objects.filter(session=session).count(),
        "seats": Seat.objects.filter(table__session=session).count(),
        "matches": Match.objects.filter(table__session=session).count(),
        "actions": MatchAction.objects.filter(match__table__session=session).count(),
        "moments": LessonMoment.objects.filter(session=session).count(),
        "quizzes": Quiz.objects.filter(session=session).count(),
        "answers": QuizAnswer.objects.filter(session=session).count(),
        "exports": DebriefExport.objects.filter(session=session).count(),
    }


def with_export(session):
    """Give the session a finished export with a file on disk; return its folder."""
    export = DebriefExport.objects.create(session=session, status="done", files={"csv": "a.csv"})
    export.folder().mkdir(parents=True)
    (export.folder() / "a.csv").write_text("nickname\n")
    participant = session.participants.first()
    SeatMove.objects.create(participant=participant, device_id="new-device")
    return export.folder()


@pytest.fixture
def sessions(teacher_a, teacher_b, tmp_path, settings):
    """Old (expired), recent and open sessions of A, and an old one of B; all with data."""
    settings.MEDIA_ROOT = tmp_path
    made = {
        "old": record_session(teacher_a, students=4, seed=1, name="old", ended_days_ago=DAYS + 1),
        "recent": record_session(
            teacher_a, students=4, seed=2, name="recent", ended_days_ago=DAYS - 1
        ),
        "open": record_session(teacher_a, students=4, seed=3, name="open"),
        "other": record_session(teacher_b, students=4, seed=4, name="b", ended_days_ago=DAYS + 5),
    }
    ClassSession.objects.filter(pk=made["open"].pk).update(state="running", ended_at=None)
    folders = {label: with_export(session) for label, session in made.items()}
    return made, folders


def assert_purged(session, folder):
    assert all(count == 0 for count in student_data(session).values()), student_data(session)
    assert not folder.exists()
    session.refresh_from_db()
    assert session.purged_at is not None


def assert_untouched(session, folder):
    counts = student_data(session)
    assert counts["participants"] == 4 and counts["matches"] == 1
    assert all(count > 0 for count in counts.values()), counts
    assert folder.is_dir()
    session.refresh_from_db()
    assert session.purged_at is None


@pytest.mark.django_db
def test_purge_deletes_exactly_the_expired_data(sessions, teacher_a, committed):
    made, folders = sessions
    before = {label: student_data(session) for label, session in made.items()}
    with committed():  # the export files go once the purge is committed
        assert purge_expired(DAYS) == 8  # the participants of "old" and "other"
    assert_purged(made["old"], folders["old"])
    assert_purged(made["other"], folders["other"])
    for label in ("recent", "open"):
        assert student_data(made[label]) == before[label]
        assert_untouched(made[label], folders[label])
    # What is not student data stays: the sessions' records, the teachers, the lessons.
    assert ClassSession.objects.count() == 4
    teacher_a.refresh_from_db()
    assert purge_expired(DAYS) == 0  # nothing left to delete


@pytest.mark.django_db
def test_a_session_never_ended_is_ended_and_purged_after_the_retention(sessions, committed):
    made, folders = sessions
    ClassSession.objects.filter(pk=made["open"].pk).update(
        created_at=timezone.now() - timedelta(days=DAYS + 1)
    )

    with committed():
        assert purge_expired(DAYS) == 12  # "old", "other" and the forgotten "open"

    assert_purged(made["open"], folders["open"])
    assert made["open"].state == ClassSession.State.FINISHED
    assert_untouched(made["recent"], folders["recent"])


@pytest.mark.django_db
def test_moving_the_clock_expires_the_recent_session(sessions, committed):
    made, folders = sessions
    purge_expired(DAYS)
    two_days_later = timezone.now() + timedelta(days=2)
    with committed():
        assert purge_expired(DAYS, now=two_days_later) == 4
    assert_purged(made["recent"], folders["recent"])
    # not ended, and created less than RETENTION_DAYS before: not yet due
    assert_untouched(made["open"], folders["open"])


@pytest.mark.django_db
def test_the_due_date_is_when_the_purge_takes_the_session(sessions):
    made, _folders = sessions
    for label in ("recent", "open"):
        made[label].refresh_from_db()  # the fixture's update left "open" running
        due = purge_due(made[label], DAYS)
        just_before = expired_sessions(DAYS, now=due - timedelta(seconds=1))
        just_after = expired_sessions(DAYS, now=due + timedelta(seconds=1))
        assert not just_before.filter(pk=made[label].pk).exists(), label
        assert just_after.filter(pk=made[label].pk).exists(), label
    recent = made["recent"]
    assert purge_due(recent, DAYS) == recent.ended_at + timedelta(days=DAYS)
    assert purge_due(made["open"], DAYS) == made["open"].created_at + timedelta(days=DAYS)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "wordings"),
    [
        ("en", ("after the session ended", "if the session is never ended")),
        ("fr", ("jours après la fin de la séance.", "si la séance reste ouverte")),
    ],
)
@pytest.mark.parametrize("page_name", ["classroom:session_detail", "debrief:session"])
def test_the_teachers_pages_say_when_the_student_data_goes(
    sessions, client_a, language, wordings, page_name
):
    made, _folders = sessions
    ended, open_ = wordings  # a finished session's wording, an unfinished one's
    for label, wording in (("recent", ended), ("open", open_)):
        session = made[label]
        session.refresh_from_db()
        page = client_a.get(reverse(page_name, args=[session.pk]), HTTP_ACCEPT_LANGUAGE=language)
        with translation.override(language):
            due = date_format(purge_due(session, DAYS), "DATE_FORMAT")
        text = page.content.decode()
        other = open_ if label == "recent" else ended
        assert due in text and wording in text and other not in text, (label, due)
        assert f" {DAYS} " in text


@pytest.mark.django_db
def test_the_teacher_deletes_a_session_at_once(sessions, client_a, client_b, committed):
    made, folders = sessions
    url = reverse("debrief:delete_session_data", args=[made["open"].pk])
    assert client_b.post(url).status_code == 404
    assert_untouched(made["open"], folders["open"])
    with committed():
        response = client_a.post(url)
    assert response.status_code == 302
    assert_purged(made["open"], folders["open"])
    made["open"].refresh_from_db()
    assert made["open"].state == "finished"  # an open session is ended first
    assert_untouched(made["recent"], folders["recent"])
    page = client_a.get(made["open"].get_absolute_url()).content.decode()
    assert "student data of this session was deleted" in page


@pytest.mark.django_db
def test_purge_session_counts_what_it_deleted(sessions):
    made, _folders = sessions
    counts = purge_session(made["recent"])
    assert counts["participants"] == 4 and counts["matches"] == 1
    assert counts["debrief_exports"] == 1 and counts["quiz_answers"] > 0


@pytest.mark.services
def test_the_beat_task_purges_in_a_real_worker(transactional_db, celery_worker, teacher_a):
    old = record_session(teacher_a, students=4, seed=5, name="old", ended_days_ago=DAYS + 1)
    recent = record_session(teacher_a, students=4, seed=6, name="new", ended_days_ago=DAYS - 1)
    result = app.send_task("classroom.tasks.purge_expired_sessions")
    assert result.get(timeout=60) == 4
    assert all(count == 0 for count in student_data(old).values())
    assert student_data(recent)["matches"] == 1 and student_data(recent)["answers"] > 0


@pytest.mark.django_db
def test_an_export_finishing_after_a_purge_leaves_no_file(
    recorded, tmp_path, settings, monkeypatch
):
    settings.MEDIA_ROOT = tmp_path
    export = DebriefExport.objects.create(session=recorded)
    real_write = exporting.write_files

    def write_then_purge(*args):
        files = real_write(*args)
        purge_session(recorded)  # the teacher deleted the data meanwhile
        return files

    monkeypatch.setattr(exporting, "write_files", write_then_purge)
    assert exporting.run_export(export.pk) is None
    assert not export.folder().exists()
    assert not DebriefExport.objects.filter(pk=export.pk).exists()


@pytest.mark.django_db
def test_the_purge_deletes_the_admin_logs_entries_about_the_student_data(sessions, teacher_a):
    """A staff edit in the Django admin logs the object's name: a nickname must go too."""

    made, _folders = sessions

    def log(obj):
        return LogEntry.objects.create(
            user=teacher_a,
            content_type=ContentType.objects.get_for_model(obj),
            object_id=str(obj.pk),
            object_repr=str(obj)[:200],
            action_flag=CHANGE,
        )

    old_entries = [
        log(made["old"].participants.first()),
        log(Match.objects.filter(table__session=made["old"]).first()),
        log(QuizAnswer.objects.filter(session=made["old"]).first()),
    ]
    kept = [log(made["recent"].participants.first()), log(made["old"]), log(teacher_a)]

    purge_expired(DAYS)

    assert not LogEntry.objects.filter(pk__in=[entry.pk for entry in old_entries]).exists()
    assert LogEntry.objects.filter(pk__in=[entry.pk for entry in kept]).count() == len(kept)


@pytest.mark.django_db
def test_a_purged_session_cannot_be_exported_again(sessions, client_a):
    made, _folders = sessions
    purge_session(made["recent"])
    response = client_a.post(reverse("debrief:session", args=[made["recent"].pk]))
    assert response.status_code == 302
    assert not DebriefExport.objects.filter(session=made["recent"]).exists()
    assert student_data(made["recent"])["participants"] == 0


@pytest.mark.django_db
def test_the_purge_deletes_a_matchs_running_timers_and_lesson_holds(teacher_a):
    """A lesson hold names the seats a lesson card waits for: student data too."""
    session = record_session(
        teacher_a, students=4, table_size=4, ended_days_ago=DAYS + 1, quiz=False
    )
    match = Match.objects.get(table__session=session)
    now = timezone.now()
    MatchTimer.objects.create(
        match=match, timer_id="w99", seconds=15, due_at=now, action={"type": "expire"}
    )
    MatchHold.objects.create(
        match=match, kind="lesson", moment=1, seats=[0, 1], waiting=[0], created_at=now
    )
    purge_expired(DAYS)
    assert not MatchTimer.objects.filter(match_id=match.pk).exists()
    assert not MatchHold.objects.filter(match_id=match.pk).exists()


# What teachers keep: rosters, accounts, the admin's change log.

ROSTER_DAYS, ACCOUNT_DAYS, LOG_DAYS = settings.ROSTER_DAYS, settings.ACCOUNT_DAYS, 365


def days_ago(days: float) -> datetime:
    return timezone.now() - timedelta(days=days)


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """A context in which what a deletion defers to its commit (the export files'
    removal) runs as it ends: this module's tests run in a transaction never committed."""
    return functools.partial(django_capture_on_commit_callbacks, execute=True)


def purge_unused_now() -> dict[str, int]:
    return purge_unused(ROSTER_DAYS, ACCOUNT_DAYS, LOG_DAYS)


@pytest.mark.django_db
def test_a_roster_is_emptied_once_its_class_went_unused_for_the_roster_days(teacher_a):
    """A roster lists pseudonyms of students: it may not outlive the class's use."""
    roster = "Blue Fox\nGreen Owl"
    unused = actions.do_create_class(teacher_a, "unused", roster)
    edited = actions.do_create_class(teacher_a, "edited lately", roster)
    played = actions.do_create_class(teacher_a, "played lately", roster)
    played_long_ago = actions.do_create_class(teacher_a, "played long ago", roster)
    old = days_ago(ROSTER_DAYS + 1)
    SchoolClass.objects.filter(pk__in=[unused.pk, played.pk, played_long_ago.pk]).update(
        updated_at=old, created_at=old
    )
    SchoolClass.objects.filter(pk=edited.pk).update(created_at=old)
    for school_class, created in ((played, days_ago(ROSTER_DAYS - 1)), (played_long_ago, old)):
        session = actions.do_create_session(
            school_class,
            game="data_tycoon",
            variant="basic",
            language="en",
            table_size=4,
            bots_fill=True,
        )
        ClassSession.objects.filter(pk=session.pk).update(created_at=created)

    assert purge_unused_now()["rosters"] == 2

    rosters = dict(SchoolClass.objects.values_list("name", "roster"))
    assert rosters == {
        "unused": "",
        "played long ago": "",
        "edited lately": roster,
        "played lately": roster,
    }
    unused.refresh_from_db()
    assert unused.updated_at == old  # emptying is not a use: the class is not "edited"
    assert purge_unused_now()["rosters"] == 0


@pytest.fixture
def teachers(teacher_a, teacher_b, django_user_model, tmp_path, settings):
    """Teacher A, unused (last login long ago), with a played session, a class, a deck and
    an export; teacher B, who logged in lately, with the same; an administrator unused as
    long; two accounts that never logged in, one signed up long ago."""
    settings.MEDIA_ROOT = tmp_path
    made = {}
    for teacher, last_login in ((teacher_a, ACCOUNT_DAYS + 1), (teacher_b, ACCOUNT_DAYS - 1)):
        session = record_session(teacher, students=4, seed=teacher.pk, ended_days_ago=1)
        Deck.objects.create(teacher=teacher, game="data_monsters", name="mine", cards=[])
        made[teacher.username] = (session, with_export(session))
        type(teacher).objects.filter(pk=teacher.pk).update(last_login=days_ago(last_login))
    admin = django_user_model.objects.create_user(username="it-admin", is_staff=True)
    never = django_user_model.objects.create_user(username="never-came")
    new = django_user_model.objects.create_user(username="new-teacher")
    long_ago = days_ago(ACCOUNT_DAYS + 1)
    type(admin).objects.filter(pk=admin.pk).update(last_login=long_ago, date_joined=long_ago)
    type(never).objects.filter(pk=never.pk).update(date_joined=long_ago)
    return made, {"admin": admin, "never": never, "new": new}


@pytest.mark.django_db
def test_an_account_unused_for_the_account_days_goes_with_all_it_owns(
    teachers, teacher_a, teacher_b, django_user_model, committed
):
    made, others = teachers
    (session_a, folder_a), (session_b, folder_b) = made["teacher-a"], made["teacher-b"]
    school_class = session_a.school_class

    def log(obj):
        return LogEntry.objects.create(
            user=others["admin"],
            content_type=ContentType.objects.get_for_model(obj),
            object_id=str(obj.pk),
            object_repr=str(obj)[:200],
            action_flag=CHANGE,
        )

    about_a = [log(teacher_a), log(school_class), log(session_a)]
    about_b = [log(teacher_b), log(session_b.school_class)]
    participants_a = list(session_a.participants.values_list("pk", flat=True))
    assert participants_a

    with committed():
        assert purge_unused_now()["accounts"] == 2  # teacher A, and the account never used

    usernames = set(django_user_model.objects.values_list("username", flat=True))
    assert usernames == {"teacher-b", "it-admin", "new-teacher"}
    assert not SchoolClass.objects.filter(teacher_id=teacher_a.pk).exists()
    assert not ClassSession.objects.filter(pk=session_a.pk).exists()
    assert not Deck.objects.filter(teacher_id=teacher_a.pk).exists()
    assert not Participant.objects.filter(pk__in=participants_a).exists()
    assert not folder_a.exists()  # the export's files went with its row
    assert not LogEntry.objects.filter(pk__in=[entry.pk for entry in about_a]).exists()
    # Teacher B keeps everything.
    assert_untouched(session_b, folder_b)
    assert Deck.objects.filter(teacher=teacher_b).count() == 1
    assert LogEntry.objects.filter(pk__in=[entry.pk for entry in about_b]).count() == 2
    assert purge_unused_now()["accounts"] == 0


@pytest.mark.django_db
def test_an_unused_account_with_a_session_under_way_has_it_ended_before_it_goes(
    teacher_a, django_user_model, settings, tmp_path, monkeypatch
):
    settings.MEDIA_ROOT = tmp_path
    session = record_session(teacher_a, students=4, seed=3)
    ClassSession.objects.filter(pk=session.pk).update(state="running", ended_at=None)
    type(teacher_a).objects.filter(pk=teacher_a.pk).update(last_login=days_ago(ACCOUNT_DAYS + 1))
    ended = []

    def ending(session):
        ended.append(session.pk)
        return real_end(session)

    real_end = actions.do_end_session
    monkeypatch.setattr(actions, "do_end_session", ending)
    assert purge_unused_now()["accounts"] == 1
    assert ended == [session.pk]
    assert not django_user_model.objects.filter(pk=teacher_a.pk).exists()


@pytest.mark.django_db
def test_an_account_deletion_that_fails_midway_deletes_nothing(
    teacher_a, django_user_model, settings, tmp_path, committed
):
    """All or nothing: a failure as the account itself goes (after its sessions' student
    data was purged) leaves the student data, the export's files and the account."""
    settings.MEDIA_ROOT = tmp_path
    session = record_session(teacher_a, students=4, seed=7)
    folder = with_export(session)
    before = student_data(session)
    assert all(before.values()), before

    def fail(sender, instance, **kwargs):
        raise DatabaseError("the database went away")

    pre_delete.connect(fail, sender=django_user_model, dispatch_uid="test.fail")
    try:
        with committed(), pytest.raises(DatabaseError):
            delete_account(teacher_a)
    finally:
        pre_delete.disconnect(sender=django_user_model, dispatch_uid="test.fail")
    assert student_data(session) == before
    assert folder.is_dir()
    session.refresh_from_db()
    assert session.purged_at is None
    assert django_user_model.objects.filter(pk=teacher_a.pk).exists()
    with committed():
        delete_account(teacher_a)  # and once it works, everything goes
    assert not folder.exists() and not Participant.objects.filter(session_id=session.pk)


@pytest.mark.django_db
def test_the_admins_change_log_keeps_each_entry_for_the_admin_log_days(teacher_a):
    def log(days):
        entry = LogEntry.objects.create(
            user=teacher_a,
            content_type=ContentType.objects.get_for_model(teacher_a),
            object_id=str(teacher_a.pk),
            object_repr=str(teacher_a),
            action_flag=CHANGE,
        )
        LogEntry.objects.filter(pk=entry.pk).update(action_time=days_ago(days))
        return entry.pk

    old, recent = log(LOG_DAYS + 1), log(LOG_DAYS - 1)
    assert purge_unused_now()["log_entries"] == 1
    assert list(LogEntry.objects.values_list("pk", flat=True)) == [recent]
    assert old != recent


@pytest.mark.services
def test_the_daily_task_purges_unused_records_in_a_real_worker(
    transactional_db, celery_worker, teacher_a, teacher_b, settings
):
    assert settings.CELERY_BEAT_SCHEDULE["purge-unused-records"] == {
        "task": "classroom.tasks.purge_unused_records",
        "schedule": 24 * 3600.0,
    }
    actions.do_create_class(teacher_b, "kept", "Blue Fox")
    type(teacher_a).objects.filter(pk=teacher_a.pk).update(last_login=days_ago(ACCOUNT_DAYS + 1))
    result = app.send_task("classroom.tasks.purge_unused_records")
    assert result.get(timeout=60) == {"rosters": 0, "accounts": 1, "log_entries": 0, "erasures": 0}
    assert list(type(teacher_a).objects.values_list("username", flat=True)) == ["teacher-b"]
    assert SchoolClass.objects.get(teacher=teacher_b).roster == "Blue Fox"


@pytest.mark.django_db
def test_the_daily_sweep_deletes_export_folders_left_without_their_row(
    recorded, settings, tmp_path, committed
):
    """A deletion a worker did not see in time leaves the files it then wrote: the sweep
    finds the folder by its missing row."""

    settings.MEDIA_ROOT = tmp_path
    kept = DebriefExport.objects.create(session=recorded, status="done")
    gone = DebriefExport.objects.create(session=recorded, status="done")
    for export in (kept, gone):
        export.folder().mkdir(parents=True)
    orphan = gone.folder()
    with committed():
        DebriefExport.objects.filter(pk=gone.pk).delete()  # the row goes ...
    orphan.mkdir(parents=True)  # ... and a worker writes its files after
    (orphan / "a.csv").write_text("nickname\n")
    stray = tmp_path / "debriefs" / "not-an-export"
    stray.mkdir()

    assert sweep_export_folders() == 2
    assert kept.folder().is_dir() and not orphan.exists() and not stray.exists()
    assert sweep_export_folders() == 0
    assert settings.CELERY_BEAT_SCHEDULE["sweep-export-folders"]["task"] == (
        "debrief.tasks.sweep_export_folders"
    )
