"""Backups of the database, kept no longer than ``BACKUP_DAYS``, and their restore.

A backup is one file in ``BACKUP_DIR`` named ``dp-backup-<UTC time>`` and, on SQLite,
``.sqlite3.gz``: a copy made by SQLite's online backup (consistent while the platform
runs), compressed; on PostgreSQL, ``.pgdump``: pg_dump's custom format. The exported
debrief files are not in it (a teacher exports them again), nor the secret key
(docs/ops.md). With ``BACKUP_RECIPIENTS`` set, each backup is encrypted with age to
those public keys (``.age`` after its name): the platform cannot read its own backups,
and a restore needs a matching private key.

A backup holds students' data out of the purges' reach, so each is deleted
``BACKUP_DAYS`` after it was made (``prune``): a session's deleted data lives on in a
copy that long at most. Restoring one would bring back what was deleted after it was
made: ``restore`` deletes again every account, class, session and participant, and
purges again every session's student data, that the database recorded as erased since
(classroom.erasures), then purges what is past its retention by now, as the hourly and
daily purges would.
"""

from __future__ import annotations

import gzip
import os
import shutil
import sqlite3
import subprocess
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import DatabaseError, connection
from django.utils import timezone
from pyrage import (
    DecryptError,
    EncryptError,
    IdentityError,
    RecipientError,
    decrypt_file,
    encrypt_file,
    ssh,
    x25519,
)

from classroom import actions, retention
from classroom.erasures import erasures_since
from classroom.models import ClassSession, Erasure, Participant, SchoolClass

PREFIX = "dp-backup-"
STAMP = "%Y%m%dT%H%M%SZ"
SQLITE_SUFFIX = ".sqlite3.gz"
POSTGRES_SUFFIX = ".pgdump"
ENCRYPTED_SUFFIX = ".age"
SUFFIXES = tuple(
    suffix + encrypted
    for suffix in (SQLITE_SUFFIX, POSTGRES_SUFFIX)
    for encrypted in (ENCRYPTED_SUFFIX, "")
)
# An erasure committed while a backup was being made may be in it or not: those of a
# few minutes before its start are deleted again too (deleting again changes nothing).
ERASURE_MARGIN = timedelta(minutes=5)
# Beat asks hourly whether a backup is due (``backup_due``); a backup made this much less
# than BACKUP_HOURS ago counts as due, so that the hour's drift of each check does not
# put a whole check between two backups.
DUE_MARGIN = timedelta(minutes=30)


class BackupError(Exception):
    """A backup could not be made or restored: the message says why."""


def is_sqlite() -> bool:
    return connection.vendor == "sqlite"


def backup_path(folder: Path, made_at: datetime) -> Path:
    """Return the file a backup made at ``made_at`` goes to."""
    suffix = SQLITE_SUFFIX if is_sqlite() else POSTGRES_SUFFIX
    if settings.BACKUP_RECIPIENTS:
        suffix += ENCRYPTED_SUFFIX
    return folder / f"{PREFIX}{made_at.astimezone(UTC).strftime(STAMP)}{suffix}"


def recipients() -> list[x25519.Recipient | ssh.Recipient]:
    """Return the public keys of ``BACKUP_RECIPIENTS``; raise BackupError naming one that
    is not an age or SSH public key."""
    found = []
    for key in settings.BACKUP_RECIPIENTS:
        try:
            kind = ssh.Recipient if key.startswith("ssh-") else x25519.Recipient
            found.append(kind.from_str(key))
        except RecipientError as error:
            raise BackupError(
                f"BACKUP_RECIPIENTS: {key[:20]}... is not an age public key (age1...) "
                f"or an SSH one (ssh-ed25519 ...): {error}"
            ) from error
    return found


def identities(path: Path) -> list[x25519.Identity | ssh.Identity]:
    """Return the private keys in the file ``path``: age's ``AGE-SECRET-KEY-1...`` lines
    (age-keygen's file), or one unencrypted SSH private key."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise BackupError(f"the identity file {path} cannot be read: {error}") from error
    try:
        if "PRIVATE KEY-----" in text:
            return [ssh.Identity.from_buffer(text.encode())]
        keys = [line.strip() for line in text.splitlines() if line.startswith("AGE-SECRET-KEY-")]
        found = [x25519.Identity.from_str(key) for key in keys]
    except IdentityError as error:
        raise BackupError(
            f"the identity file {path} holds no usable private key: {error}"
        ) from error
    if not found:
        raise BackupError(f"the identity file {path} holds no private key (AGE-SECRET-KEY-1...)")
    return found


def made_at(path: Path) -> datetime:
    """Return when the backup ``path`` was made, from its name; raise BackupError for a
    file that is not one of the platform's backups."""
    name = path.name
    for suffix in SUFFIXES:
        if name.startswith(PREFIX) and name.endswith(suffix):
            stamp = name[len(PREFIX) : -len(suffix)]
            try:
                return datetime.strptime(stamp, STAMP).replace(tzinfo=UTC)
            except ValueError:
                break
    raise BackupError(f"{name} is not a backup of the platform (named {PREFIX}<time>)")


def backups(folder: Path) -> list[Path]:
    """Return the platform's backups in ``folder``, oldest first (no other file)."""
    if not folder.is_dir():
        return []
    found = []
    for path in folder.iterdir():
        try:
            found.append((made_at(path), path))
        except BackupError:
            continue
    return [path for _when, path in sorted(found)]


def backup_due(folder: Path | None = None, now: datetime | None = None) -> bool:
    """Tell whether a backup is due in ``folder`` (``BACKUP_DIR``): none there yet, or
    the newest made ``BACKUP_HOURS`` ago (less ``DUE_MARGIN``) or more.

    Asked at each of beat's hourly checks rather than counted from beat's start: a
    platform stopped every evening, or started for the first time, still gets its
    backup within the hour, where a daily timer restarted with it might never fire."""
    found = backups(Path(settings.BACKUP_DIR if folder is None else folder))
    if not found:
        return True
    every = timedelta(hours=settings.BACKUP_HOURS)
    return (now or timezone.now()) - made_at(found[-1]) >= every - DUE_MARGIN


def make_backup(folder: Path | None = None, now: datetime | None = None) -> Path:
    """Back the database up into ``folder`` (``BACKUP_DIR``); return the new file.

    The file appears whole or not at all: it is written under another name first. With
    ``BACKUP_RECIPIENTS``, the copy is encrypted to them and the plain one deleted."""
    keys = recipients()  # a wrong key refuses the backup before anything is written
    folder = Path(settings.BACKUP_DIR if folder is None else folder)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    target = backup_path(folder, now or timezone.now())
    partial = target.with_name(target.name + ".part")
    plain = target.with_name(target.name + ".plain") if keys else partial
    try:
        for path in {partial, plain}:
            # Students' data: readable by the platform's user only, from the first byte.
            path.unlink(missing_ok=True)
            path.touch(mode=0o600)
        if is_sqlite():
            _sqlite_backup(folder, plain)
        else:
            _postgres_backup(plain)
        if keys:
            try:
                encrypt_file(str(plain), str(partial), keys)
            except EncryptError as error:
                raise BackupError(f"the backup could not be encrypted: {error}") from error
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
        plain.unlink(missing_ok=True)
    return target


def prune(
    folder: Path | None = None, days: int | None = None, now: datetime | None = None
) -> list[Path]:
    """Delete the backups in ``folder`` made more than ``days`` (``BACKUP_DAYS``) ago;
    return them."""
    folder = Path(settings.BACKUP_DIR if folder is None else folder)
    days = settings.BACKUP_DAYS if days is None else days
    cutoff = (now or timezone.now()) - timedelta(days=days)
    old = [path for path in backups(folder) if made_at(path) < cutoff]
    for path in old:
        path.unlink(missing_ok=True)
    return old


def running_platform() -> int | None:
    """Return the process id of this machine's `make run` (its supervisord, whose pid file
    config.run keeps in VAR_DIR) while it runs, else None. A pid file left by a
    supervisord killed outright names a process that is gone: not running."""
    try:
        pid = int((Path(settings.VAR_DIR) / "supervisor" / "supervisord.pid").read_text())
        os.kill(pid, 0)
    except (OSError, ValueError):
        return None
    return pid


@dataclass
class Restored:
    """What ``restore`` did: the backup's time, the erasures it made again (by kind) and
    what the purge deleted."""

    made_at: datetime
    erased_again: dict[str, int] = field(default_factory=dict)
    purged_participants: int = 0
    journal_read: bool = True


def restore(path: Path, identity: Path | None = None) -> Restored:
    """Put the backup ``path`` in the database's place, then delete again what was erased
    since it was made and purge what is past its retention now. An encrypted backup is
    decrypted with the private key in the file ``identity``.

    The platform must be stopped (its processes keep what they read in memory). The
    erasures are read from the database before it is replaced: when it cannot be read
    (it is the database that was lost), ``journal_read`` is False and the erasures made
    after the backup are not known."""
    path = Path(path)
    when = made_at(path)
    if not path.is_file():
        raise BackupError(f"{path} does not exist")
    plain_name = path.name.removesuffix(ENCRYPTED_SUFFIX)
    if plain_name.endswith(SQLITE_SUFFIX) != is_sqlite():
        made_on, runs_on = ("PostgreSQL", "SQLite") if is_sqlite() else ("SQLite", "PostgreSQL")
        raise BackupError(f"{path.name} is a backup of {made_on}: this platform runs on {runs_on}")
    if plain_name == path.name:
        return _restore(path, when)
    if identity is None:
        raise BackupError(
            f"{path.name} is encrypted: give the file of the private key it was encrypted "
            "to (--identity FILE)"
        )
    keys = identities(identity)
    with tempfile.TemporaryDirectory(prefix="dp-restore-") as folder:  # the user's only
        plain = Path(folder) / plain_name
        try:
            decrypt_file(str(path), str(plain), keys)
        except DecryptError as error:
            raise BackupError(
                f"{path.name} cannot be decrypted with the keys of {identity}: {error}"
            ) from error
        return _restore(plain, when)


def _restore(path: Path, when: datetime) -> Restored:
    """Restore the unencrypted backup ``path``, made at ``when`` (``restore``)."""
    try:
        erased = [
            (erasure.kind, erasure.object_id, erasure.erased_at)
            for erasure in erasures_since(when - ERASURE_MARGIN)
        ]
        journal_read = True
    except DatabaseError:
        erased, journal_read = [], False
    connection.close()
    if is_sqlite():
        _sqlite_restore(path)
    else:
        _postgres_restore(path)
    connection.close()
    # A backup of an older release: its tables brought up to this one's.
    call_command("migrate", interactive=False, verbosity=0)
    result = Restored(made_at=when, journal_read=journal_read)
    for kind, object_id, erased_at in erased:
        if _erase_again(kind, object_id):
            result.erased_again[kind] = result.erased_again.get(kind, 0) + 1
        # The record itself, for a restore of an older backup later on.
        Erasure.objects.update_or_create(
            kind=kind, object_id=object_id, defaults={"erased_at": erased_at}
        )
    retention.purge_login_attempts()
    result.purged_participants = retention.purge_expired(settings.RETENTION_DAYS)
    retention.purge_unused(
        settings.ROSTER_DAYS,
        settings.ACCOUNT_DAYS,
        settings.ADMIN_LOG_DAYS,
        backup_days=settings.BACKUP_DAYS,
    )
    return result


def _erase_again(kind: str, object_id: int) -> bool:
    """Delete again one erased row, or purge again a session's student data, if the
    restored database holds it; tell whether it did."""
    if kind == Erasure.Kind.ACCOUNT:
        user = get_user_model().objects.filter(pk=object_id).first()
        if user is None:
            return False
        retention.delete_account(user)
    elif kind == Erasure.Kind.SCHOOL_CLASS:
        school_class = SchoolClass.objects.filter(pk=object_id).first()
        if school_class is None:
            return False
        actions.do_delete_class(school_class)
    elif kind == Erasure.Kind.SESSION:
        session = ClassSession.objects.filter(pk=object_id).first()
        if session is None:
            return False
        if session.purged_at is None:
            retention.purge_session(session)  # its export files too
        session.delete()
    elif kind == Erasure.Kind.SESSION_DATA:
        session = ClassSession.objects.filter(pk=object_id, purged_at__isnull=True).first()
        if session is None:
            return False
        retention.purge_session(session)
    else:
        return Participant.objects.filter(pk=object_id).delete()[0] > 0
    return True


# SQLite


def _sqlite_name() -> str:
    return str(connection.settings_dict["NAME"])


def _sqlite_backup(folder: Path, target: Path) -> None:
    """Copy the database with SQLite's online backup into a file beside ``target``, then
    compress it into ``target``."""
    with tempfile.NamedTemporaryFile(dir=folder, suffix=".sqlite3", delete=False) as copy:
        copy_path = Path(copy.name)
    try:
        _sqlite_copy(_sqlite_name(), copy_path)
        with copy_path.open("rb") as source, gzip.open(target, "wb", compresslevel=6) as out:
            shutil.copyfileobj(source, out)
    finally:
        copy_path.unlink(missing_ok=True)


def _sqlite_restore(path: Path) -> None:
    """Check the backup, then copy it into the database with SQLite's backup (the
    database's own file and its write-ahead log stay consistent)."""
    with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".sqlite3", delete=False) as copy:
        copy_path = Path(copy.name)
    try:
        try:
            with gzip.open(path, "rb") as source, copy_path.open("wb") as out:
                shutil.copyfileobj(source, out)
        except (OSError, EOFError) as error:
            raise BackupError(f"{path.name} cannot be read: {error}") from error
        checked = sqlite3.connect(copy_path)
        try:
            verdict = checked.execute("PRAGMA integrity_check").fetchone()[0]
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{path.name} is not an SQLite database: {error}") from error
        finally:
            checked.close()
        if verdict != "ok":
            raise BackupError(f"{path.name} is damaged: {verdict}")
        _sqlite_copy(str(copy_path), Path(_sqlite_name()))
    finally:
        copy_path.unlink(missing_ok=True)


def _sqlite_copy(source_name: str, target: Path) -> None:
    source = sqlite3.connect(source_name, timeout=30)
    target_db = sqlite3.connect(target, timeout=30)
    try:
        source.backup(target_db)
    finally:
        target_db.close()
        source.close()


# PostgreSQL


def _postgres_environment() -> dict[str, str]:
    """Return the environment that points pg_dump and pg_restore at the database."""
    db = connection.settings_dict
    environment = dict(os.environ)
    for variable, value in (
        ("PGHOST", db.get("HOST")),
        ("PGPORT", db.get("PORT")),
        ("PGUSER", db.get("USER")),
        ("PGPASSWORD", db.get("PASSWORD")),
        ("PGDATABASE", db.get("NAME")),
        ("PGSSLMODE", db.get("OPTIONS", {}).get("sslmode")),
    ):
        if value:
            environment[variable] = str(value)
    return environment


def postgres_program(name: str) -> str:
    """Return the path of PostgreSQL's client program ``name`` (pg_dump, pg_restore): on
    PATH, as Debian's postgresql-client installs it (its wrapper runs the newest one)."""
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is missing: install PostgreSQL's client programs")
    return found


def _postgres_backup(target: Path) -> None:
    _run([postgres_program("pg_dump"), "--format=custom", "--no-owner", "--file", str(target)])


def _postgres_restore(path: Path) -> None:
    """Replace the database's tables by the backup's, all or nothing."""
    pg_restore = postgres_program("pg_restore")
    _run([pg_restore, "--list", str(path)])  # a readable archive, before anything is dropped
    _run(
        [
            pg_restore,
            "--clean",
            "--if-exists",
            "--no-owner",
            "--single-transaction",
            "--exit-on-error",
            "--dbname",
            str(connection.settings_dict["NAME"]),
            str(path),
        ]
    )


def _run(command: list[str]) -> None:
    done = subprocess.run(
        command, env=_postgres_environment(), capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        name = Path(command[0]).name
        raise BackupError(f"{name} failed: {done.stderr.strip() or done.returncode}")
