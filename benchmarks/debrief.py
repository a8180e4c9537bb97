"""Benchmark a debrief export: a 30-student session at 8 tables, seeded games played to the end.

    python -m benchmarks.debrief [--students 30] [--table-size 4] [--runs 3]

Sets up a throwaway SQLite database in a temporary folder (migrated, with the lesson
content), records the session through the real match write path (seeded heuristic
bots, lesson moments, quiz answers), then times ``debrief.export.run_export``:
the body of the Celery task, which replays every match, draws the SVG charts and writes
the HTML, PDF, CSV and JSON files. Prints the seconds of each run (target: under 10 s).
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path


def setup(folder: Path) -> None:
    """Point Django at a fresh database and media folder under ``folder``; migrate."""
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'bench.sqlite3'}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.MEDIA_ROOT = folder / "media"
    call_command("migrate", verbosity=0, interactive=False)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--table-size", type=int, default=4)
    parser.add_argument("--runs", type=int, default=3)
    opts = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="debrief-bench-") as tmp:
        setup(Path(tmp))
        from django.contrib.auth import get_user_model

        from debrief.export import run_export
        from debrief.models import DebriefExport
        from tests.debrief.recorded import record_session

        teacher = get_user_model().objects.create_user("bench", password="bench-Passw0rd-long")
        start = time.perf_counter()
        session = record_session(teacher, students=opts.students, table_size=opts.table_size)
        tables = session.tables.count()
        moves = sum(t.match.version for t in session.tables.select_related("match"))
        print(
            f"recorded: {opts.students} students, {tables} tables, {moves} moves "
            f"in {time.perf_counter() - start:.1f} s (set-up, not measured)"
        )
        timings = []
        for run in range(1, opts.runs + 1):
            export = DebriefExport.objects.create(session=session, requested_by=teacher)
            start = time.perf_counter()
            run_export(export.pk)
            seconds = time.perf_counter() - start
            timings.append(seconds)
            export.refresh_from_db()
            sizes = ", ".join(
                f"{fmt} {(export.folder() / name).stat().st_size // 1024} KiB"
                for fmt, name in export.files.items()
            )
            print(f"run {run}: export {export.status} in {seconds:.2f} s ({sizes})")
        print(
            f"debrief export, {opts.students} students, {tables} tables: best {min(timings):.2f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
