"""Benchmark a backup and its restore: a school's sessions within the retention period.

    python -m benchmarks.backup [--sessions 10] [--students 30]

Sets up a throwaway SQLite database in a temporary folder (migrated, with the lesson
content), records ``--sessions`` sessions of ``--students`` students through the real
match write path (seeded heuristic bots at tables of 4, lesson moments, quiz answers),
then times ``classroom.backups.make_backup`` and ``restore`` (after a session's data and
a class were deleted, so that the restore deletes them again). Prints the database's
size, the backup's size, and the wall and CPU seconds of each (a benchmark, not a test).
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.debrief import setup


def timed(work: str, started: tuple[float, float]) -> str:
    """Return ``work`` with the wall and CPU seconds since ``started``."""
    wall, cpu = started
    return f"{work}: {time.perf_counter() - wall:.2f} s ({time.process_time() - cpu:.2f} s of CPU)"


def now() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--students", type=int, default=30)
    opts = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="backup-bench-") as tmp:
        folder = Path(tmp)
        setup(folder)
        from django.contrib.auth import get_user_model

        from classroom import actions
        from classroom.backups import make_backup, restore
        from classroom.retention import purge_session
        from tests.debrief.recorded import record_session

        teacher = get_user_model().objects.create_user("bench", password="bench-Passw0rd-long")
        started = now()
        sessions = [
            record_session(teacher, students=opts.students, seed=seed, name=f"class {seed}")
            for seed in range(opts.sessions)
        ]
        print(timed(f"recorded {opts.sessions} sessions of {opts.students} students", started))
        database = folder / "bench.sqlite3"
        print(f"database: {database.stat().st_size / 1e6:.1f} MB")

        started = now()
        backup = make_backup(folder / "backups")
        print(timed("backup", started) + f", {backup.stat().st_size / 1e6:.2f} MB compressed")

        purge_session(sessions[0])
        actions.do_delete_class(sessions[-1].school_class)
        started = now()
        restored = restore(backup)
        print(timed("restore", started) + f"; deleted again: {restored.erased_again}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
