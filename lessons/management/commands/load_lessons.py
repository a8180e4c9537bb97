"""Load or refresh the shipped lesson content from fixtures/lessons/."""

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from lessons import content


class Command(BaseCommand):
    help = "Create or update the lessons, quiz questions and links from fixtures/lessons/."

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            counts = content.load()
        except (KeyError, ValueError) as error:
            raise CommandError(f"The lesson fixtures are incomplete: {error!r}") from error
        self.stdout.write(
            "Loaded {lessons} lessons, {questions} quiz questions, {links} links.".format(**counts)
        )
        self.stdout.write(
            f"Running servers use them within {settings.LESSON_LINKS_SECONDS:g} seconds."
        )
