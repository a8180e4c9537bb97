"""Management commands: load_demo (idempotent, prints the login) and open_session."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from classroom.codes import is_well_formed
from classroom.management.commands.load_demo import DEMO_USERNAME, demo_login_file
from classroom.models import ClassSession, SchoolClass

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
    """The command of issue 4 with the real game: the printed code is joinable and starts."""
    from classroom import actions
    from classroom.identity import new_device_id
    from classroom.models import Table

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
        ("life_points=900", "less than or equal to 50"),
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
