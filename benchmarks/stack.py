"""What every benchmark that starts the platform does before it opens a class."""

from __future__ import annotations

import os
import subprocess
import sys

import django

from config.services import BASE_DIR


def use_database(env: dict[str, str]) -> None:
    """Migrate the benchmark's own database, then set Django up in this process on the
    same database, Redis and data folder as the services (settings come from the
    environment)."""
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        env=env,
        cwd=BASE_DIR,
        check=True,
        capture_output=True,
    )
    os.environ.update({k: env[k] for k in ("VAR_DIR", "DATABASE_URL", "REDIS_URL")})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
