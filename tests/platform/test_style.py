"""The code style the project holds to, checked on every run of the suite: ruff's lint
and format, and mypy's type check, with the project's settings (pyproject.toml).

Each check's rules are shown to bite too: a snippet that breaks a rule the style asks
for (an import inside a function, a public function with no return type, an argument
with no hint, a wrong type) is refused with the project's own settings.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from config.services import BASE_DIR

BIN = Path(sys.executable).parent


def run(tool: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """Run one of the virtual environment's tools from the project's root."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    return subprocess.run(
        [str(BIN / tool), *args],
        cwd=BASE_DIR,
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )


def test_ruff_finds_nothing():
    result = run("ruff", "check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_code_is_formatted():
    result = run("ruff", "format", "--no-cache", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("path", "code", "rule"),
    [
        ("games/snippet.py", "def f() -> None:\n    import json\n\n    json.dumps(1)\n", "PLC0415"),
        ("classroom/snippet.py", "def public(x: int):\n    return x\n", "ANN201"),
    ],
)
def test_ruff_refuses_what_the_style_forbids(path, code, rule):
    result = run("ruff", "check", "--no-cache", "--stdin-filename", path, "-", stdin=code)
    assert result.returncode == 1
    assert rule in result.stdout


@pytest.mark.slow
def test_mypy_finds_nothing():
    result = run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout


@pytest.mark.parametrize(
    ("code", "error"),
    [
        # A public function's arguments are hinted once its return type is.
        ("def public(x, y: int) -> int:\n    return y\n", "[no-untyped-def]"),
        ("def public(x: int) -> str:\n    return x\n", "[return-value]"),
    ],
)
def test_mypy_refuses_what_the_style_forbids(code, error, tmp_path):
    # A file, not ``-c``: mypy takes no command when its settings name the files.
    snippet = tmp_path / "snippet.py"
    snippet.write_text(code)
    result = run("mypy", "--no-incremental", str(snippet))
    assert result.returncode == 1, result.stdout
    assert error in result.stdout
