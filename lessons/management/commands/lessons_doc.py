"""Write docs/lessons.md: every card link and event link with its lesson and articles."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from lessons import docgen


class Command(BaseCommand):
    help = "Generate docs/lessons.md from the lesson links and lessons in the database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--output", default=str(docgen.DOC_PATH), help="Where to write (default: %(default)s)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = docgen.write(Path(options["output"]))
        self.stdout.write(f"Wrote {path}")
