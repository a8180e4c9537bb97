"""Backups: made whole, kept BACKUP_DAYS, and a restore that deletes again what was
erased after the backup was made (classroom.backups, classroom.erasures)."""

import gzip
import os
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.core import checks
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from pyrage import x25519

from classroom import actions
from classroom.backups import (
    DUE_MARGIN,
    BackupError,
    backup_due,
    backup_path,
    backups,
    made_at,
    make_backup,
    prune,
    restore,
)
from classroom.checks import backup_recipients
from classroom.models import ClassSession, Erasure, Participant, SchoolClass
from classroom.retention import delete_account, purge_session, purge_unused
from classroom.tasks import back_up
from config.celery import app
from config.run import supervisor_config, var_dir
from games.models import MatchAction
from tests.debrief.recorded import record_session


def students(session: ClassSession) -> int:
    return Participant.objects.filter(session=session).count()


@pytest.fixture
def school(teacher_a, teacher_b):
    """Teacher A with a class to delete and three sessions (one to purge, two to keep),
    teacher B to delete; every session with students and a played game."""
    made = {
        "purged": record_session(teacher_a, students=4, seed=1, name="7A"),
        "kept": record_session(teacher_a, students=4, seed=2, name="7B"),
        "in_class": record_session(teacher_a, students=4, seed=3, name="7C"),
        "of_b": record_session(teacher_b, students=4, seed=4, name="8A"),
    }
    assert all(students(session) == 4 for session in made.values())
    assert MatchAction.objects.filter(match__table__session=made["kept"]).exists()
    return made


@pytest.mark.django_db(transaction=True)
def test_a_restore_deletes_again_what_was_erased_after_the_backup(
    school, teacher_a, teacher_b, tmp_path
):
    backup = make_backup(tmp_path)
    assert backups(tmp_path) == [backup]
    assert backup.name.endswith(".sqlite3.gz" if connection.vendor == "sqlite" else ".pgdump")
    # After the backup: a session's data, a class and an account are deleted, and a new
    # class is made (a restore loses it, as it loses every write since the backup).
    doomed_class, doomed_teacher = school["in_class"].school_class.pk, teacher_b.pk
    classes_of_b = list(SchoolClass.objects.filter(teacher=teacher_b).values_list("pk", flat=True))
    participants = {
        label: list(Participant.objects.filter(session=session).values_list("pk", flat=True))
        for label, session in school.items()
    }
    purge_session(school["purged"])
    actions.do_delete_class(school["in_class"].school_class)
    delete_account(teacher_b)
    actions.do_create_class(teacher_a, "made after the backup")
    recorded = {(e.kind, e.object_id): e.erased_at for e in Erasure.objects.all()}
    assert set(recorded) == {
        ("session_data", school["purged"].pk),
        ("class", doomed_class),
        ("session", school["in_class"].pk),
        ("session_data", school["of_b"].pk),  # purged with B's account, then deleted
        ("session", school["of_b"].pk),
        *(("class", pk) for pk in classes_of_b),
        ("account", doomed_teacher),
        *(
            ("participant", pk)
            for label in ("purged", "in_class", "of_b")
            for pk in participants[label]
        ),
    }

    restored = restore(backup)

    assert restored.journal_read
    assert restored.made_at == made_at(backup)
    # Each erasure is made again, in its order, unless an earlier one took its row.
    assert restored.erased_again["account"] == 1
    assert restored.erased_again["class"] == 1 + len(classes_of_b)
    assert restored.erased_again["participant"] == 12
    assert restored.erased_again["session_data"] == 1 + 1
    assert restored.erased_again["session"] == 2
    assert not type(teacher_a).objects.filter(pk=doomed_teacher).exists()
    assert not SchoolClass.objects.filter(pk__in=[doomed_class, *classes_of_b]).exists()
    assert not ClassSession.objects.filter(pk__in=[school["in_class"].pk, school["of_b"].pk])
    purged = ClassSession.objects.get(pk=school["purged"].pk)
    assert purged.purged_at is not None and students(purged) == 0
    assert not MatchAction.objects.filter(match__table__session=purged).exists()
    # What was not erased is back as it was at the backup; what came after is gone.
    assert students(school["kept"]) == 4
    assert MatchAction.objects.filter(match__table__session=school["kept"]).exists()
    assert not SchoolClass.objects.filter(name="made after the backup").exists()
    # The records stay, with their own times, for a restore of an older backup (with one
    # more: the session deleted with its class had its student data purged first).
    after = {(e.kind, e.object_id): e.erased_at for e in Erasure.objects.all()}
    assert {key: after.get(key) for key in recorded} == recorded


@pytest.mark.django_db
def test_a_deletion_in_the_administration_pages_is_recorded_too(school, admin_client):
    participant = Participant.objects.filter(session=school["kept"]).first()
    assert participant is not None
    response = admin_client.post(
        reverse("admin:classroom_participant_delete", args=[participant.pk]), {"post": "yes"}
    )
    assert response.status_code == 302
    assert not Participant.objects.filter(pk=participant.pk).exists()
    teacher = school["of_b"].school_class.teacher
    response = admin_client.post(
        reverse("admin:auth_user_delete", args=[teacher.pk]), {"post": "yes"}
    )
    assert response.status_code == 302
    assert set(Erasure.objects.values_list("kind", "object_id")) >= {
        ("participant", participant.pk),
        ("account", teacher.pk),
        ("class", school["of_b"].school_class.pk),
        ("session", school["of_b"].pk),
    }


@pytest.mark.django_db(transaction=True)
def test_an_erasure_made_before_the_backup_is_not_made_again(school, teacher_a, tmp_path):
    purge_session(school["purged"])
    Erasure.objects.update(erased_at=timezone.now() - timedelta(hours=1))
    backup = make_backup(tmp_path)
    restored = restore(backup)
    assert restored.erased_again == {}  # the participants' records are an hour old too
    assert ClassSession.objects.get(pk=school["purged"].pk).purged_at is not None
    assert students(school["kept"]) == 4


@pytest.mark.django_db(transaction=True)
def test_a_damaged_backup_is_refused_and_the_database_is_left_as_it_was(school, tmp_path):
    good = make_backup(tmp_path)
    when = made_at(good) + timedelta(seconds=1)
    truncated = backup_path(tmp_path, when)
    truncated.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    garbage = backup_path(tmp_path, when + timedelta(seconds=1))
    with gzip.open(garbage, "wb") as out:
        out.write(b"not a database " * 1000)
    purge_session(school["purged"])  # a change the refused restores must not undo

    other = made_at(good) + timedelta(seconds=3)
    other_engine = tmp_path / (
        f"dp-backup-{other:%Y%m%dT%H%M%SZ}"
        + (".pgdump" if connection.vendor == "sqlite" else ".sqlite3.gz")
    )
    other_engine.write_bytes(good.read_bytes())
    with pytest.raises(BackupError, match=r"is a backup of .*: this platform runs on"):
        restore(other_engine)
    for bad in (truncated, garbage):
        with pytest.raises(BackupError):
            restore(bad)
        assert students(ClassSession.objects.get(pk=school["purged"].pk)) == 0
        assert students(school["kept"]) == 4


def test_only_the_platforms_backups_older_than_backup_days_are_deleted(tmp_path):
    now = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
    ages = [0, 1, 6.9, 7.1, 30]
    made = {age: backup_path(tmp_path, now - timedelta(days=age)) for age in ages}
    for path in made.values():
        path.write_bytes(b"backup")
    others = [tmp_path / "notes.txt", tmp_path / "dp-backup-yesterday.sqlite3.gz"]
    others.append(made[30].with_name(made[30].name + ".part"))
    for path in others:
        path.write_bytes(b"not ours")

    assert backups(tmp_path) == [made[age] for age in reversed(ages)]
    deleted = prune(tmp_path, days=7, now=now)

    assert sorted(deleted) == sorted([made[7.1], made[30]])
    assert backups(tmp_path) == [made[6.9], made[1], made[0]]
    assert all(path.exists() for path in others)
    with pytest.raises(BackupError):
        made_at(others[1])


@pytest.mark.django_db
def test_the_erasure_records_go_once_every_backup_before_them_is_gone(teacher_a):
    now = timezone.now()
    old = Erasure.objects.create(kind="session", object_id=1)
    recent = Erasure.objects.create(kind="class", object_id=2)
    Erasure.objects.filter(pk=old.pk).update(erased_at=now - timedelta(days=8))
    Erasure.objects.filter(pk=recent.pk).update(erased_at=now - timedelta(days=6))
    counts = purge_unused(365, 730, 365, now, backup_days=7)
    assert counts["erasures"] == 1
    assert list(Erasure.objects.values_list("pk", flat=True)) == [recent.pk]


@pytest.mark.django_db(transaction=True)
def test_the_commands_back_up_list_and_restore(school, tmp_path, capsys):
    call_command("backup", to=tmp_path / "backups")
    made = backups(tmp_path / "backups")
    assert len(made) == 1 and oct(made[0].stat().st_mode)[-3:] == "600"
    assert oct((tmp_path / "backups").stat().st_mode)[-3:] == "700"
    out = capsys.readouterr().out
    assert f"Backup made: {made[0]}" in out and "1 backups in" in out
    call_command("backup", to=tmp_path / "backups", list=True)
    assert made[0].name in capsys.readouterr().out
    assert backups(tmp_path / "backups") == made  # --list made none

    purge_session(school["purged"])
    with pytest.raises(CommandError, match="not a backup"):
        call_command("restore", str(tmp_path / "db.sqlite3"), no_input=True)
    call_command("restore", str(made[0]), no_input=True)
    out = capsys.readouterr().out
    assert "Deleted again (erased after the backup): 4 participant, 1 session_data." in out
    assert students(ClassSession.objects.get(pk=school["purged"].pk)) == 0


@pytest.mark.django_db(transaction=True)
def test_restore_is_refused_while_make_run_runs(school, tmp_path, monkeypatch, settings):
    backup = make_backup(tmp_path / "backups")
    settings.VAR_DIR = tmp_path
    monkeypatch.setenv("VAR_DIR", str(tmp_path))
    # Where `make run` keeps its supervisord's pid file: the file restore looks for.
    conf = supervisor_config([], var_dir() / "supervisor").read_text()
    pid_file = tmp_path / "supervisor" / "supervisord.pid"
    assert f"pidfile={pid_file}\n" in conf
    pid_file.write_text(f"{os.getpid()}\n")  # a live process: the platform runs
    purge_session(school["purged"])
    with pytest.raises(CommandError, match="The platform is running"):
        call_command("restore", str(backup), no_input=True)
    assert students(ClassSession.objects.get(pk=school["purged"].pk)) == 0  # not restored
    gone = subprocess.Popen(["true"])
    gone.wait()
    pid_file.write_text(f"{gone.pid}\n")  # left by a supervisord killed outright
    call_command("restore", str(backup), no_input=True)


@pytest.mark.django_db
def test_a_backup_is_due_every_backup_hours_from_the_newest_not_from_beat_s_start(
    tmp_path, settings
):
    """Beat asks hourly: a first backup at the first check, then one each BACKUP_HOURS
    counted from the newest kept, however often the platform was stopped meanwhile."""
    settings.BACKUP_DIR, settings.BACKUP_HOURS = tmp_path, 24
    now = timezone.now().replace(microsecond=0)
    assert backup_due(now=now)  # none yet: the first check makes one
    first = back_up()
    assert first is not None and [p.name for p in backups(tmp_path)] == [first]
    assert not backup_due()
    assert back_up() is None  # the next hour's check: not due, nothing made
    assert len(backups(tmp_path)) == 1
    made = made_at(tmp_path / first)
    every = timedelta(hours=24)
    assert not backup_due(now=made + every - DUE_MARGIN - timedelta(minutes=1))
    assert backup_due(now=made + every - DUE_MARGIN)  # the check half an hour early
    assert backup_due(now=made + 3 * every)  # after a long stop: at the first check
    # Only the platform's own files count as backups.
    (tmp_path / "notes.txt").write_text("not a backup")
    (tmp_path / first).unlink()
    assert backup_due()


@pytest.mark.services
def test_the_beat_backs_up_in_a_real_worker(transactional_db, celery_worker, teacher_a):
    assert settings.CELERY_BEAT_SCHEDULE["back-up-the-database"] == {
        "task": "classroom.tasks.back_up",
        "schedule": 3600.0,  # it asks hourly whether a backup is due
        "options": {"expires": 3600.0},
    }
    folder = Path(settings.BACKUP_DIR)
    stale = backup_path(folder, timezone.now() - timedelta(days=settings.BACKUP_DAYS + 1))
    folder.mkdir(parents=True, exist_ok=True)
    stale.write_bytes(b"old")
    name = app.send_task("classroom.tasks.back_up").get(timeout=60)
    made = folder / name
    try:
        assert made in backups(folder)
        assert made.stat().st_size > 1000
        assert not stale.exists()  # pruned by the same task
    finally:
        made.unlink(missing_ok=True)
        stale.unlink(missing_ok=True)


def age_key(folder: Path, name: str) -> tuple[str, Path]:
    """Make an age key pair: return its public key and the file of its private key, as
    age-keygen writes it."""
    identity = x25519.Identity.generate()
    path = folder / f"{name}.txt"
    path.write_text(f"# public key: {identity.to_public()}\n{identity}\n")
    return str(identity.to_public()), path


@pytest.mark.django_db(transaction=True)
def test_an_encrypted_backup_needs_its_private_key_to_be_restored(
    school, teacher_a, tmp_path, settings
):
    public, private = age_key(tmp_path, "it-office")
    other_public, other_private = age_key(tmp_path, "someone-else")
    settings.BACKUP_RECIPIENTS = [public]
    folder = tmp_path / "backups"
    backup = make_backup(folder)
    plain_suffix = ".sqlite3.gz" if connection.vendor == "sqlite" else ".pgdump"
    assert backup.name.endswith(plain_suffix + ".age")
    assert backups(folder) == [backup] and made_at(backup) <= timezone.now()
    assert sorted(path.name for path in folder.iterdir()) == [backup.name]  # no plain copy
    assert backup.stat().st_mode & 0o777 == 0o600
    content = backup.read_bytes()
    assert content.startswith(b"age-encryption.org/v1\n")
    with pytest.raises(OSError), gzip.open(backup) as unreadable:
        unreadable.read()
    actions.do_create_class(teacher_a, "made after the backup")

    with pytest.raises(BackupError, match="is encrypted: give the file of the private key"):
        restore(backup)
    with pytest.raises(BackupError, match="cannot be decrypted with the keys of"):
        restore(backup, other_private)
    (tmp_path / "empty.txt").write_text("# nothing here\n")
    with pytest.raises(BackupError, match="holds no private key"):
        restore(backup, tmp_path / "empty.txt")
    assert SchoolClass.objects.filter(name="made after the backup").exists()  # untouched

    restored = restore(backup, private)
    assert restored.made_at == made_at(backup)
    assert not SchoolClass.objects.filter(name="made after the backup").exists()
    assert students(school["kept"]) == 4
    # Two recipients: either key restores it.
    settings.BACKUP_RECIPIENTS = [other_public, public]
    second = make_backup(folder, now=timezone.now() + timedelta(minutes=1))
    restore(second, other_private)
    assert students(school["kept"]) == 4


@pytest.mark.django_db
def test_a_wrong_recipient_refuses_the_backup_before_anything_is_written(tmp_path, settings):
    settings.BACKUP_RECIPIENTS = ["age1notakey"]
    with pytest.raises(BackupError, match=r"BACKUP_RECIPIENTS: age1notakey\.\.\. is not an age"):
        make_backup(tmp_path / "backups")
    assert not (tmp_path / "backups").exists()


@pytest.mark.django_db(transaction=True)
def test_the_restore_command_takes_the_identity_of_an_encrypted_backup(
    school, tmp_path, settings, capsys
):
    public, private = age_key(tmp_path, "it-office")
    settings.BACKUP_RECIPIENTS = [public]
    call_command("backup", to=tmp_path / "backups")
    assert "(encrypted to 1 public keys)" in capsys.readouterr().out
    (backup,) = backups(tmp_path / "backups")
    with pytest.raises(CommandError, match=r"Nothing was restored: .* is encrypted"):
        call_command("restore", str(backup), no_input=True)
    call_command("restore", str(backup), identity=private, no_input=True)
    assert "Restored the backup of" in capsys.readouterr().out
    assert students(school["kept"]) == 4


def test_a_wrong_recipient_is_a_warning_of_the_system_checks(settings):
    """Shown by manage.py check and before migrate (make run), which start all the same."""
    settings.BACKUP_RECIPIENTS = ["ssh-ed25519 AAAAnotakey"]
    (warning,) = backup_recipients()
    assert warning.id == "classroom.W001" and warning.level == checks.WARNING
    assert "is not an age public key" in warning.msg
    assert warning in checks.run_checks()
    settings.BACKUP_RECIPIENTS = [str(x25519.Identity.generate().to_public())]
    assert backup_recipients() == []
