"""``manage.py simulate``: the bot simulator of ``games.simulate``, no database needed."""

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import simulate


class Command(BaseCommand):
    help = "Simulate games between bots and print win rates and card statistics."

    def add_arguments(self, parser: CommandParser) -> None:
        """Add the simulator's own arguments."""
        simulate.add_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        """Run the simulation and write the report."""
        try:
            stats = simulate.simulate(options, progress=not options["quiet"])
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            json.dumps(stats, indent=2) if options["json"] else simulate.format_stats(stats)
        )
