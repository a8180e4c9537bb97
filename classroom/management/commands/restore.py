"""Put a backup in the database's place (classroom.backups.restore): stop the platform
first (refused while this machine's `make run` runs). What was erased after the backup
was made is deleted again, then what is past its retention now."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from classroom.backups import BackupError, made_at, restore, running_platform


class Command(BaseCommand):
    help = (
        "Replace the database by a backup of manage.py backup (stop the platform first); "
        "deletions made since the backup are made again."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("backup", type=Path, help="a dp-backup-... file")
        parser.add_argument(
            "--identity",
            type=Path,
            help="for an encrypted backup (.age): the file of a private key it was encrypted to",
        )
        parser.add_argument("--no-input", action="store_true", help="do not ask for confirmation")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["backup"]
        try:
            when = made_at(path)
        except BackupError as error:
            raise CommandError(str(error)) from error
        running = running_platform()
        if running is not None:
            raise CommandError(
                f"The platform is running (make run, supervisord {running}): stop it first, "
                "then restore. Nothing was restored."
            )
        if not options["no_input"]:
            answer = input(
                f"Replace the whole database by the backup of {when:%Y-%m-%d %H:%M} UTC? "
                "Everything written since is lost. Is the platform stopped? Type 'yes': "
            )
            if answer.strip().lower() != "yes":
                raise CommandError("Nothing was restored.")
        try:
            restored = restore(path, options["identity"])
        except (BackupError, OSError) as error:
            raise CommandError(f"Nothing was restored: {error}") from error
        self.stdout.write(self.style.SUCCESS(f"Restored the backup of {when:%Y-%m-%d %H:%M} UTC."))
        if not restored.journal_read:
            self.stderr.write(
                "The database in place could not be read: the deletions made after the "
                "backup are not known. Ask the teachers to delete again what they deleted "
                "since."
            )
        erased = ", ".join(f"{count} {kind}" for kind, count in restored.erased_again.items())
        self.stdout.write(f"Deleted again (erased after the backup): {erased or 'nothing'}.")
        self.stdout.write(
            f"Purged: the student data of {restored.purged_participants} participants past "
            "their retention."
        )
