"""Management commands: load_demo (idempotent, prints the login), open_session and purge."""

from datetime import timedelta
from io import StringIO

import pytest
from django.conf import settings
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.management import CommandError, call_command
from django.utils import timezone

from classroom import actions
from classroom.codes import is_well_formed
from classroom.identity import new_device_id
from classroom.management.commands.load_demo import DEMO_USERNAME, demo_login_file
from classroom.models import ClassSession, Erasure, Participant, SchoolClass, Table
from tests.classroom.conftest import join_client, open_session

pytestmark = pytest.mark.django_db


def test_load_demo_is_idempotent_and_prints_the_login(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    printed = []
    for _ in range(2):
        out = StringIO()
        call_command("load_demo", stdout=out)
        printed.append(out.getvalue())
    password = demo_login_file().read_text().strip()
    assert (
        printed[0] == f"Demo teacher created: log in as {DEMO_USERNAME} with password {password}\n"
    )
    assert printed[1] == f"Demo teacher ready: log in as {DEMO_USERNAME} with password {password}\n"
    assert len(password) >= 12
    assert oct(demo_login_file().stat().st_mode & 0o777) == "0o600"
    user = get_user_model().objects.get(username=DEMO_USERNAME)
    assert user.check_password(password)
    school_class = SchoolClass.objects.get()
    assert school_class.teacher == user
    assert len(school_class.pseudonyms()) == 5


def test_load_demo_leaves_a_password_the_teacher_changed(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    call_command("load_demo", stdout=StringIO())
    user = get_user_model().objects.get(username=DEMO_USERNAME)
    user.set_password("changed-by-the-teacher-42")
    user.save()

    out = StringIO()
    call_command("load_demo", stdout=out)

    assert (
        out.getvalue()
        == f"Demo teacher ready: log in as {DEMO_USERNAME} with the password you set\n"
    )
    user.refresh_from_db()
    assert user.check_password("changed-by-the-teacher-42")
    assert SchoolClass.objects.count() == 1


def test_open_session_prints_the_code(teacher_a, school_class, fake_game):
    out = StringIO()
    call_command(
        "open_session",
        "--teacher=teacher-a",
        "--game=fake_game",
        "--table-size=3",
        "--bots",
        stdout=out,
    )
    session = ClassSession.objects.get()
    assert out.getvalue().strip() == session.join_code
    assert is_well_formed(session.join_code)
    assert session.school_class == school_class
    assert session.variant == "standard" and session.bots_fill


@pytest.mark.parametrize(
    "args",
    [
        ["--teacher=nobody", "--game=fake_game", "--table-size=3"],
        ["--teacher=teacher-a", "--game=chess", "--table-size=3"],
        ["--teacher=teacher-a", "--game=fake_game", "--table-size=9"],
    ],
)
def test_open_session_refuses_bad_input(teacher_a, school_class, fake_game, args):
    with pytest.raises(CommandError):
        call_command("open_session", *args, stdout=StringIO())
    assert not ClassSession.objects.exists()


def test_open_session_opens_a_data_tycoon_session_that_starts(teacher_a, school_class):
    """open_session with the real game: the printed code is joinable and starts."""
    out = StringIO()
    call_command(
        "open_session",
        "--teacher=teacher-a",
        "--game=data_tycoon",
        "--variant=expert",
        "--table-size=4",
        "--bots",
        stdout=out,
    )
    session = ClassSession.objects.get(join_code=out.getvalue().strip())
    assert (session.game, session.variant, session.table_size) == ("data_tycoon", "expert", 4)
    assert session.bots_fill and session.state == "lobby"
    actions.do_join_session(session, "Ana", new_device_id())
    actions.do_start_session(session)
    table = Table.objects.get(session=session)
    assert table.match.variant == "expert" and table.match.num_seats == 4


def test_open_session_sets_the_games_options(teacher_a, school_class):
    out = StringIO()
    call_command(
        "open_session",
        "--teacher=teacher-a",
        "--game=conspiranoia",
        "--table-size=2",
        "--bots",
        "--option",
        "life_points=9",
        "--option=defence_seconds=30",
        stdout=out,
    )
    session = ClassSession.objects.get(join_code=out.getvalue().strip())
    assert session.options == {"life_points": 9, "defence_seconds": 30}


def test_open_session_takes_a_list_option_with_commas(teacher_a, school_class):
    out = StringIO()
    call_command(
        "open_session",
        "--teacher=teacher-a",
        "--game=data_tycoon",
        "--variant=expert",
        "--table-size=2",
        "--option=left_out=time, sanction",
        stdout=out,
    )
    session = ClassSession.objects.get(join_code=out.getvalue().strip())
    assert session.options == {"left_out": ["sanction", "time"]}


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("call_seconds=5", "conspiranoia has no option 'call_seconds'"),
        ("life_points", "--option takes KEY=VALUE"),
        ("life_points=900", "the largest allowed here is 50"),
    ],
)
def test_open_session_refuses_a_bad_option(teacher_a, school_class, option, message):
    with pytest.raises(CommandError, match=message):
        call_command(
            "open_session",
            "--teacher=teacher-a",
            "--game=conspiranoia",
            "--table-size=2",
            f"--option={option}",
            stdout=StringIO(),
        )
    assert not ClassSession.objects.filter(game="conspiranoia").exists()


def test_purge_lists_what_is_due_then_deletes_it(teacher_a, teacher_b, settings):
    """An administrator sees what the retention will take (--dry-run deletes nothing),
    then purges at once; what is not due stays."""

    def days_ago(days):
        return timezone.now() - timedelta(days=days)

    old_class = actions.do_create_class(teacher_a, "Old 5B", "Blue Fox")
    session = open_session(old_class, game="data_tycoon", variant="basic")
    join_client(session, "Blue Fox")
    ClassSession.objects.filter(pk=session.pk).update(
        state="finished", created_at=days_ago(400), ended_at=days_ago(400)
    )
    SchoolClass.objects.filter(pk=old_class.pk).update(updated_at=days_ago(400))
    kept_class = actions.do_create_class(teacher_b, "New 4A", "Green Owl")
    get_user_model().objects.filter(pk=teacher_b.pk).update(last_login=days_ago(800))
    entry = LogEntry.objects.create(
        user=teacher_a,
        content_type=ContentType.objects.get_for_model(teacher_a),
        object_id=str(teacher_a.pk),
        object_repr="teacher-a",
        action_flag=CHANGE,
    )
    LogEntry.objects.filter(pk=entry.pk).update(action_time=days_ago(400))
    old_erasure = Erasure.objects.create(kind="class", object_id=999)
    Erasure.objects.filter(pk=old_erasure.pk).update(erased_at=days_ago(settings.BACKUP_DAYS + 1))

    out = StringIO()
    call_command("purge", "--dry-run", stdout=out)
    listed = out.getvalue()
    assert "Sessions whose student data is due: 1" in listed
    assert f"Old 5B · {session.join_code} (teacher-a): created" in listed
    assert "1 participants" in listed
    assert "Rosters of unused classes: 1\n  - Old 5B (teacher-a)" in listed
    assert "Unused teacher accounts: 1\n  - teacher-b, last login" in listed
    assert "Admin log entries: 1" in listed
    assert "Erasure records older than every backup: 1" in listed
    assert "Nothing was deleted (--dry-run)." in listed
    assert Participant.objects.filter(session=session).count() == 1
    assert get_user_model().objects.filter(pk=teacher_b.pk).exists()
    assert LogEntry.objects.filter(pk=entry.pk).exists()

    out = StringIO()
    call_command("purge", stdout=out)
    assert "Deleted: the student data of 1 participants, 1 rosters emptied, 1 teacher " in (
        out.getvalue()
    )
    assert not Participant.objects.filter(session=session).exists()
    assert SchoolClass.objects.get(pk=old_class.pk).roster == ""
    assert not get_user_model().objects.filter(pk=teacher_b.pk).exists()
    assert not SchoolClass.objects.filter(pk=kept_class.pk).exists()  # went with B
    assert not LogEntry.objects.filter(pk=entry.pk).exists()
    assert not Erasure.objects.filter(pk=old_erasure.pk).exists()
    # B's account, its session's data and its class were just erased: their records stay.
    assert Erasure.objects.filter(kind="account", object_id=teacher_b.pk).exists()
    assert get_user_model().objects.filter(pk=teacher_a.pk).exists()

    out = StringIO()
    call_command("purge", "--dry-run", stdout=out)
    for kind in (
        "Sessions whose student data is due",
        "Rosters of unused classes",
        "Unused teacher accounts",
        "Admin log entries",
        "Erasure records older than every backup",
    ):
        assert f"{kind}: 0\n" in out.getvalue(), kind


def test_purge_ahead_lists_what_will_be_due_so_teachers_can_be_warned(teacher_a, teacher_b):
    """An account a fortnight from its limit is not due now, and is listed 15 days ahead;
    nothing is deleted."""
    almost = timezone.now() - timedelta(days=settings.ACCOUNT_DAYS - 14)
    get_user_model().objects.filter(pk=teacher_b.pk).update(last_login=almost)

    now, ahead = StringIO(), StringIO()
    call_command("purge", "--dry-run", stdout=now)
    call_command("purge", "--ahead", "15", stdout=ahead)
    assert "Unused teacher accounts: 0\n" in now.getvalue()
    assert "Due 15 days from now, if nothing is used meanwhile:" in ahead.getvalue()
    assert "Unused teacher accounts: 1\n  - teacher-b, last login" in ahead.getvalue()
    assert "Nothing was deleted (--ahead is a dry run)." in ahead.getvalue()
    assert get_user_model().objects.filter(pk=teacher_b.pk).exists()
