"""Benchmark a debrief export: a 30-student session at 8 tables, seeded games played to the end.

    python -m benchmarks.debrief [--students 30] [--table-size 4] [--runs 3] [--profile]

Sets up a throwaway SQLite database in a temporary folder (migrated, with the lesson
content), records the session through the real match write path (seeded heuristic
bots, lesson moments, quiz answers), then times ``debrief.export.run_export``:
the body of the Celery task, which replays every match, draws the SVG charts and writes
the HTML, PDF, CSV and JSON files. Prints the wall and CPU seconds of each run (target:
under 3 s); ``--profile``: the last run under pyinstrument, and its profile.
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from pyinstrument import Profiler


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--table-size", type=int, default=4)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="profile the last run")
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
            profiler = Profiler(interval=0.001) if opts.profile and run == opts.runs else None
            if profiler is not None:
                profiler.start()
            start, cpu = time.perf_counter(), time.process_time()
            run_export(export.pk)
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
            if profiler is not None:
                profiler.stop()
            timings.append(seconds)
            export.refresh_from_db()
            sizes = ", ".join(
                f"{fmt} {(export.folder() / name).stat().st_size // 1024} KiB"
                for fmt, name in export.files.items()
            )
            print(
                f"run {run}: export {export.status} in {seconds:.2f} s, {cpu:.2f} s of CPU"
                f"{' (profiled)' if profiler else ''} ({sizes})"
            )
            if profiler is not None:
                print(profiler.output_text(unicode=True, show_all=False))
        print(
            f"debrief export, {opts.students} students, {tables} tables: best {min(timings):.2f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
