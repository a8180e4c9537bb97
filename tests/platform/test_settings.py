"""Settings read from the environment, with safe defaults."""

import os
import secrets
import subprocess
import sys

import pytest

from config.services import BASE_DIR


def run_python(code: str, **env: str) -> str:
    """Run code in a fresh interpreter with the settings imported; return its output."""
    full_env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    full_env.update(env)
    full_env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    result = subprocess.run(
        [sys.executable, "-c", "import config.settings as settings; " + code],
        env=full_env,
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()


def test_production_mode_passes_check_deploy_without_warnings(tmp_path):
    # The browser tests' DJANGO_ALLOW_ASYNC_UNSAFE would rightly be warned about.
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update(
        PRODUCTION="1",
        SECRET_KEY=secrets.token_urlsafe(60),
        ALLOWED_HOSTS="games.school.example",
        VAR_DIR=str(tmp_path),
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        env=env,
        cwd=BASE_DIR,
        check=False,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_default_mode_fails_check_deploy(tmp_path):
    """Without PRODUCTION=1 the hardening is off, and check --deploy says so."""
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        env={**os.environ, "VAR_DIR": str(tmp_path)},
        check=False,
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert "security.W008" in result.stderr + result.stdout


def test_secret_key_is_generated_once_into_var(tmp_path):
    code = "print(settings.SECRET_KEY)"
    first = run_python(code, VAR_DIR=str(tmp_path))
    second = run_python(code, VAR_DIR=str(tmp_path))

    assert first == second
    assert len(first) >= 50
    assert (tmp_path / "secret_key").read_text().strip() == first
    assert oct((tmp_path / "secret_key").stat().st_mode & 0o777) == "0o600"


def test_defaults_are_sqlite_under_var_and_the_bundled_redis(tmp_path):
    code = (
        "d = settings.DATABASES['default'];"
        "print(d['ENGINE'], d['NAME'], settings.REDIS_URL, settings.DEBUG, settings.ALLOWED_HOSTS)"
    )
    out = run_python(code, VAR_DIR=str(tmp_path))

    assert out == (
        f"django.db.backends.sqlite3 {tmp_path / 'db.sqlite3'} redis://127.0.0.1:6399/0 "
        "False ['localhost', '127.0.0.1', '[::1]']"
    )


def test_environment_overrides_the_defaults(tmp_path):
    code = (
        "d = settings.DATABASES['default'];"
        "print(d['ENGINE'], d['NAME'], settings.REDIS_URL, settings.TIME_ZONE,"
        " settings.ALLOWED_HOSTS)"
    )
    out = run_python(
        code,
        VAR_DIR=str(tmp_path),
        DATABASE_URL="postgres://u:p@db.example:5432/games",
        REDIS_URL="redis://cache.example:6379/2",
        TIME_ZONE="Europe/Madrid",
        HOST="0.0.0.0",
    )

    assert out == "config.postgresql games redis://cache.example:6379/2 Europe/Madrid ['*']"


def test_a_retention_of_no_days_stops_the_server_at_start(tmp_path):
    """The hourly purge ends and deletes the sessions past their retention: with 0 days,
    every class playing now."""
    assert run_python("print(settings.RETENTION_DAYS)", VAR_DIR=str(tmp_path)) == "30"
    assert run_python("print(settings.RETENTION_DAYS)", RETENTION_DAYS="1") == "1"
    for days in ("0", "-5"):
        with pytest.raises(subprocess.CalledProcessError) as failure:
            run_python("print(settings.RETENTION_DAYS)", RETENTION_DAYS=days)
        assert f"RETENTION_DAYS must be at least 1, not {days}" in failure.value.stderr


def test_an_account_retention_shorter_than_a_login_stops_the_server_at_start(tmp_path):
    """A teacher logged in keeps the login two weeks: the daily purge may not delete the
    account of a teacher who is still logged in."""
    printed = "print(settings.ROSTER_DAYS, settings.ACCOUNT_DAYS, settings.ADMIN_LOG_DAYS)"
    assert run_python(printed, VAR_DIR=str(tmp_path)) == "365 730 365"
    assert run_python(printed, ACCOUNT_DAYS="30", ROSTER_DAYS="1") == "1 30 365"
    with pytest.raises(subprocess.CalledProcessError) as failure:
        run_python(printed, ACCOUNT_DAYS="29")
    assert "ACCOUNT_DAYS must be at least 30, not 29" in failure.value.stderr
    for name in ("ROSTER_DAYS", "ADMIN_LOG_DAYS"):
        with pytest.raises(subprocess.CalledProcessError) as failure:
            run_python(printed, **{name: "0"})
        assert f"{name} must be at least 1, not 0" in failure.value.stderr
