"""Back the database up now, as Celery beat does every ``BACKUP_HOURS``, and delete the
backups older than ``BACKUP_DAYS`` (classroom.backups); or, with ``--list``, list them."""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from classroom.backups import BackupError, backups, made_at, make_backup, prune


class Command(BaseCommand):
    help = (
        "Back the database up into BACKUP_DIR (or --to) and delete the backups there older "
        "than BACKUP_DAYS (--list: list them only)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--to", type=Path, metavar="FOLDER", help="default: BACKUP_DIR")
        parser.add_argument("--list", action="store_true", help="list the backups, make none")

    def handle(self, *args: Any, **options: Any) -> None:
        folder = options["to"] or Path(settings.BACKUP_DIR)
        if not options["list"]:
            try:
                made = make_backup(folder)
            except (BackupError, OSError) as error:
                raise CommandError(f"No backup was made: {error}") from error
            encrypted = len(settings.BACKUP_RECIPIENTS)
            self.stdout.write(
                self.style.SUCCESS(
                    f"Backup made: {made}"
                    + (f" (encrypted to {encrypted} public keys)" if encrypted else "")
                )
            )
            for path in prune(folder):
                self.stdout.write(f"Deleted (older than {settings.BACKUP_DAYS} days): {path.name}")
        found = backups(folder)
        self.stdout.write(
            f"{len(found)} backups in {folder}, each kept {settings.BACKUP_DAYS} days "
            "(BACKUP_DAYS):"
        )
        for path in found:
            self.stdout.write(
                f"  {path.name}  {path.stat().st_size / 1e6:.1f} MB, "
                f"made {made_at(path):%Y-%m-%d %H:%M} UTC"
            )
