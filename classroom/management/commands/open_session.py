"""Open a session from a terminal and print its join code."""

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from classroom.actions import ActionRefused, do_create_class, do_create_session
from classroom.forms import SessionForm, option_field_name
from classroom.models import SchoolClass
from games.engine.bots import LEVELS


class Command(BaseCommand):
    help = "Open a session for a teacher's class and print its join code."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--teacher", required=True, help="the teacher's username")
        parser.add_argument("--game", required=True, help="a registered game's slug")
        parser.add_argument("--variant", default="", help="the variant (default: the game's)")
        parser.add_argument("--table-size", type=int, required=True)
        parser.add_argument("--bots", action="store_true", help="bots fill empty seats")
        parser.add_argument(
            "--bot-level",
            default="friendly",
            choices=sorted(LEVELS),
            help="how the bots play (default: friendly)",
        )
        parser.add_argument("--language", default=settings.LANGUAGE_CODE)
        parser.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help=(
                "one of the game's options (repeatable), e.g. --option life_points=15; "
                "a list with commas: --option left_out=sanction,time; each game's options "
                "are in its docs/rules/<game>.md"
            ),
        )
        parser.add_argument(
            "--class",
            dest="class_name",
            default="",
            help="the class's name (created if missing; default: the teacher's first class)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        teacher = get_user_model().objects.filter(username=options["teacher"]).first()
        if teacher is None:
            raise CommandError(f"no teacher named {options['teacher']!r}")
        data = {
            "game": options["game"],
            "variant": options["variant"],
            "language": options["language"],
            "table_size": options["table_size"],
            "bots_fill": options["bots"],
            "bot_level": options["bot_level"],
        }
        fields = SessionForm(teacher=teacher).fields
        for pair in options["option"]:
            key, equals, value = pair.partition("=")
            if not equals:
                raise CommandError(f"--option takes KEY=VALUE, not {pair!r}")
            name = option_field_name(options["game"], key.strip())
            if isinstance(fields.get(name), forms.MultipleChoiceField):  # KEY=a,b
                data[name] = [item.strip() for item in value.split(",") if item.strip()]
            else:
                data[name] = value.strip()
        form = SessionForm(data, teacher=teacher)
        unknown = sorted(key.rsplit("__", 1)[-1] for key in set(data) - set(form.fields))
        if unknown:
            raise CommandError(f"{options['game']} has no option {unknown[0]!r}")
        if not form.is_valid():
            problems = "; ".join(f"{k}: {' '.join(map(str, v))}" for k, v in form.errors.items())
            raise CommandError(problems)
        classes = teacher.school_classes.filter(archived_at__isnull=True)
        school_class: SchoolClass | None
        if options["class_name"]:
            school_class = classes.filter(name=options["class_name"]).first() or do_create_class(
                teacher, options["class_name"]
            )
        else:
            school_class = classes.first()
            if school_class is None:
                raise CommandError("this teacher has no class: pass --class NAME to create one")
        try:
            session = do_create_session(school_class, **form.cleaned_data)
        except ActionRefused as refusal:
            raise CommandError(refusal.message) from refusal
        self.stdout.write(session.join_code)
