"""Delete what is due for deletion now, as Celery beat's retention tasks do; or, with
``--dry-run``, list it and delete nothing.

For an IT administrator: to see what the next purges will take, or to purge at once
(after lowering a retention setting, or on a machine whose beat was stopped). What is
due is what classroom.retention finds: sessions past ``RETENTION_DAYS`` (their student
data), join requests that expired unanswered, failed-login records past
``LOGIN_ATTEMPT_HOURS``, rosters of classes unused for ``ROSTER_DAYS``, teacher accounts
with no login for ``ACCOUNT_DAYS``, admin log entries older than ``ADMIN_LOG_DAYS`` and
erasure records older than ``BACKUP_DAYS`` (classroom.erasures).
"""

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db.models import Count
from django.utils import timezone

from classroom import retention, tasks
from classroom.erasures import old_erasures


class Command(BaseCommand):
    help = (
        "Delete the student data, join requests, failed-login records, rosters, teacher "
        "accounts and admin log entries past their retention (--dry-run: list them only)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dry-run", action="store_true", help="list what is due, delete nothing"
        )
        parser.add_argument(
            "--ahead",
            type=int,
            default=0,
            metavar="DAYS",
            help="list what will be due DAYS days from now (a dry run), e.g. to warn the "
            "teachers whose accounts will go",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(
            f"Retention: RETENTION_DAYS={settings.RETENTION_DAYS}, "
            f"LOGIN_ATTEMPT_HOURS={settings.LOGIN_ATTEMPT_HOURS}, "
            f"ROSTER_DAYS={settings.ROSTER_DAYS}, ACCOUNT_DAYS={settings.ACCOUNT_DAYS}, "
            f"ADMIN_LOG_DAYS={settings.ADMIN_LOG_DAYS}, BACKUP_DAYS={settings.BACKUP_DAYS}."
        )
        if options["ahead"] > 0:
            self.stdout.write(
                f"Due {options['ahead']} days from now, if nothing is used meanwhile:"
            )
            self.list_due(timezone.now() + timedelta(days=options["ahead"]))
            self.stdout.write("Nothing was deleted (--ahead is a dry run).")
            return
        self.list_due()
        if options["dry_run"]:
            self.stdout.write("Nothing was deleted (--dry-run).")
            return
        # The beat tasks' own bodies, so that this deletes exactly what they would.
        participants = tasks.purge_expired_sessions()
        unused = tasks.purge_unused_records()
        self.stdout.write(
            self.style.SUCCESS(
                f"Deleted: the student data of {participants} participants, "
                f"{unused['rosters']} rosters emptied, {unused['accounts']} teacher accounts, "
                f"{unused['log_entries']} admin log entries, {unused['erasures']} erasure "
                "records; the expired join requests and failed-login records listed above."
            )
        )

    def list_due(self, when: datetime | None = None) -> None:
        """Write what is due for deletion at ``when`` (now by default), one line a kind,
        with what it is."""
        sessions = retention.expired_sessions(settings.RETENTION_DAYS, when).annotate(
            students=Count("participants")
        )
        self.stdout.write(f"Sessions whose student data is due: {sessions.count()}")
        for session in sessions.select_related("school_class__teacher").order_by("pk"):
            ended = f"ended {session.ended_at:%Y-%m-%d}" if session.ended_at else "never ended"
            self.stdout.write(
                f"  - {session.school_class.name} · {session.join_code} "
                f"({session.school_class.teacher.get_username()}): "
                f"created {session.created_at:%Y-%m-%d}, {ended}, "
                f"{session.students} participants"
            )
        self.stdout.write(
            f"Join requests expired unanswered: {retention.expired_join_requests(when).count()}"
        )
        self.stdout.write(f"Failed-login records: {retention.old_login_attempts(when).count()}")
        rosters = retention.unused_rosters(settings.ROSTER_DAYS, when).select_related("teacher")
        self.stdout.write(f"Rosters of unused classes: {rosters.count()}")
        for school_class in rosters.order_by("pk"):
            self.stdout.write(
                f"  - {school_class.name} ({school_class.teacher.get_username()}), "
                f"last edited {school_class.updated_at:%Y-%m-%d}"
            )
        accounts = retention.unused_accounts(settings.ACCOUNT_DAYS, when)
        self.stdout.write(f"Unused teacher accounts: {accounts.count()}")
        for user in accounts.order_by("pk"):
            seen = user.last_login or user.date_joined
            what = "last login" if user.last_login else "signed up, never logged in,"
            self.stdout.write(f"  - {user.get_username()}, {what} {seen:%Y-%m-%d}")
        entries = retention.old_log_entries(settings.ADMIN_LOG_DAYS, when)
        self.stdout.write(f"Admin log entries: {entries.count() if entries is not None else 0}")
        erasures = old_erasures(settings.BACKUP_DAYS, when).count()
        self.stdout.write(f"Erasure records older than every backup: {erasures}")
