"""The debrief is built on the other apps, never the other way round: no module of the
classroom, games or lessons app imports the debrief app (the retention purge learns about
the exports from the debrief itself, in DebriefConfig.ready())."""

import ast
from pathlib import Path

import pytest

from classroom import retention
from debrief.models import DebriefExport

ROOT = Path(__file__).resolve().parents[2]
BELOW = ("classroom", "games", "live", "lessons")


def imported_modules(path: Path) -> set[str]:
    """Return every module that a Python file imports, at any depth of the file."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


@pytest.mark.parametrize("app", BELOW)
def test_the_apps_below_do_not_import_the_debrief(app):
    offenders = [
        f"{path.relative_to(ROOT)}: {module}"
        for path in sorted((ROOT / app).rglob("*.py"))
        for module in sorted(imported_modules(path))
        if module == "debrief" or module.startswith("debrief.")
    ]
    assert not offenders, "\n".join(offenders)


def test_the_debrief_registers_its_exports_with_the_retention_purge():
    assert retention.REGISTERED["debrief_exports"] == (DebriefExport._meta.label, "session")
    assert "debrief.DebriefExport" not in retention.STUDENT_DATA
