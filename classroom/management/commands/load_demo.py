"""Load demo data: a teacher whose login this prints, with one class and a small roster.

The password is random, made on the first run and kept in ``VAR_DIR/demo_login`` (mode
0600): on a classroom LAN a well-known demo password would let any student log in as
the teacher. Later runs print the same login and leave the teacher's changes alone.
"""

import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.db import transaction

from classroom.actions import do_create_class

DEMO_USERNAME = "demo-teacher"
DEMO_CLASS = "Demo class"
DEMO_ROSTER = "\n".join(["Blue Fox", "Green Owl", "Red Panda", "Gold Lynx", "Silver Seal"])


def demo_login_file() -> Path:
    """Return where the demo teacher's password is kept."""
    return Path(settings.VAR_DIR) / "demo_login"


def demo_password(user: User, created: bool) -> str | None:
    """Return the demo password on record; None once the teacher has changed it."""
    path = demo_login_file()
    if created or not user.has_usable_password():
        password = secrets.token_urlsafe(12)
        user.set_password(password)
        user.save(update_fields=["password"])
        path.write_text(password + "\n")
        path.chmod(0o600)
        return password
    if path.exists() and user.check_password(path.read_text().strip()):
        return path.read_text().strip()
    return None


class Command(BaseCommand):
    help = "Create the demo teacher with one class if missing; print the demo login."

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            user, created = get_user_model().objects.get_or_create(username=DEMO_USERNAME)
            password = demo_password(user, created)
            if created:
                do_create_class(user, DEMO_CLASS, DEMO_ROSTER)
        verb = "created" if created else "ready"
        if password is None:
            self.stdout.write(
                f"Demo teacher {verb}: log in as {DEMO_USERNAME} with the password you set"
            )
        else:
            self.stdout.write(
                f"Demo teacher {verb}: log in as {DEMO_USERNAME} with password {password}"
            )
