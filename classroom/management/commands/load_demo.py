"""Load demo data: a teacher whose login this prints, with one class and a small roster."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from classroom.actions import do_create_class, do_update_class

DEMO_USERNAME = "demo-teacher"
DEMO_PASSWORD = "demo-classroom-2024"
DEMO_CLASS = "Demo class"
DEMO_ROSTER = "\n".join(["Blue Fox", "Green Owl", "Red Panda", "Gold Lynx", "Silver Seal"])


class Command(BaseCommand):
    help = "Create (or refresh) a demo teacher with one class; print the demo login."

    def handle(self, *args, **options):
        with transaction.atomic():
            user, created = get_user_model().objects.get_or_create(username=DEMO_USERNAME)
            user.set_password(DEMO_PASSWORD)
            user.save()
            school_class = user.school_classes.filter(name=DEMO_CLASS).first()
            if school_class is None:
                do_create_class(user, DEMO_CLASS, DEMO_ROSTER)
            else:
                do_update_class(school_class, DEMO_CLASS, DEMO_ROSTER)
        verb = "created" if created else "ready"
        self.stdout.write(
            f"Demo teacher {verb}: log in as {DEMO_USERNAME} with password {DEMO_PASSWORD}"
        )
