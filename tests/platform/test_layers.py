"""The apps are layers, each importing only the ones below it: games (the engine and
match persistence) < classroom (sessions, tables, seats) < live (live play) < lessons <
debrief, and config (the project: settings, routes, the Celery app) above them all.

An app below learns of what happens above it through signals and hooks registered from
the upper app's AppConfig.ready(), never by importing it, even inside a function: such
an import would hide an import cycle, which is a design problem.
"""

import ast
from collections import defaultdict
from pathlib import Path

from classroom.forms import SESSION_FIELDS, SessionForm
from classroom.signals import session_created, tables_changed
from lessons.results import dashboard_section
from live.dashboard import SECTIONS

ROOT = Path(__file__).resolve().parents[2]
# Lowest first; an app may import the ones before it.
LAYERS = ("games", "classroom", "live", "lessons", "debrief", "config")


def app_imports() -> dict[str, dict[str, list[str]]]:
    """Return ``{app: {imported app: ["path: module", ...]}}`` for every import of another
    app, at module level or inside a function (migrations excluded: Django writes them)."""
    graph: dict[str, dict[str, list[str]]] = {app: defaultdict(list) for app in LAYERS}
    for app in LAYERS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    modules = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    modules = [node.module]
                else:
                    continue
                for module in modules:
                    target = module.split(".")[0]
                    if target in LAYERS and target != app:
                        graph[app][target].append(f"{path.relative_to(ROOT)}: {module}")
    return graph


def test_every_app_is_scanned():
    assert all((ROOT / app / "__init__.py").exists() for app in LAYERS)


def test_no_app_imports_an_app_above_it():
    graph = app_imports()
    upward = [
        line
        for app, targets in graph.items()
        for target, lines in targets.items()
        if LAYERS.index(target) > LAYERS.index(app)
        for line in lines
    ]
    assert not upward, "imports of an upper layer:\n" + "\n".join(upward)


def test_the_app_import_graph_has_no_cycle():
    graph = {app: set(targets) for app, targets in app_imports().items()}
    visiting, done, cycles = set(), set(), []

    def visit(app: str, trail: list[str]) -> None:
        if app in visiting:
            cycles.append(" -> ".join([*trail[trail.index(app) :], app]))
            return
        if app in done:
            return
        visiting.add(app)
        for target in sorted(graph[app]):
            visit(target, [*trail, app])
        visiting.discard(app)
        done.add(app)

    for app in LAYERS:
        visit(app, [])
    assert not cycles, "import cycles between the apps:\n" + "\n".join(cycles)


def test_the_games_import_no_other_app():
    assert not app_imports()["games"]


def test_the_upper_apps_plug_in_from_their_ready():
    """What replaced the lower apps' calls up: signals and hooks, connected at start."""

    def uids(signal):
        return {entry[0][0] for entry in signal.receivers}

    assert "live.on_tables_changed" in uids(tables_changed)
    assert "lessons.on_session_created" in uids(session_created)
    assert dashboard_section in SECTIONS
    assert "lesson_mode" in SESSION_FIELDS
    assert "lesson_mode" in SessionForm().fields
