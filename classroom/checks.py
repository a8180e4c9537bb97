"""System checks of the classroom's settings, run by ``manage.py check`` and before
``migrate`` (so by ``make run``): a warning, which starts the platform all the same."""

from typing import Any

from django.core import checks

from classroom.backups import BackupError, recipients


def backup_recipients(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """Warn when BACKUP_RECIPIENTS holds a key that is not a public key: every backup
    would be refused until it is corrected (the health answer says late)."""
    try:
        recipients()
    except BackupError as error:
        return [
            checks.Warning(
                str(error),
                hint="Give age public keys (age1...) or SSH ones, comma-separated, or none.",
                id="classroom.W001",
            )
        ]
    return []
