"""The rules are a pure library: no Django, no clock, no global random."""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"
PURE = sorted(
    {
        *GAMES.glob("engine/*.py"),
        GAMES / "__init__.py",
        GAMES / "registry.py",
        GAMES / "simulate.py",
        GAMES / "golden.py",
        *GAMES.glob("*/rules*.py"),
        *GAMES.glob("*/cards.py"),
        *GAMES.glob("*/views.py"),
        *GAMES.glob("*/bots.py"),
        *GAMES.glob("*/search.py"),
        *GAMES.glob("*/text.py"),
        *GAMES.glob("*/debrief.py"),
        *[p / "__init__.py" for p in GAMES.glob("*/rules.py") for p in [p.parent]],
    }
)
NO_CLOCK = [
    p
    for p in PURE
    if p.name in {"rules.py", "cards.py", "views.py", "search.py"} or "engine" in p.parts
]
NO_CLOCK = [p for p in NO_CLOCK if p.name != "driver.py"]  # the driver is handed its rng


def imported_modules(path):
    """Return the top-level names of every module ``path`` imports."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", PURE, ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_modules_import_no_django(path):
    assert not imported_modules(path) & {"django", "channels", "celery", "redis"}


@pytest.mark.parametrize("path", NO_CLOCK, ids=lambda p: str(p.relative_to(ROOT)))
def test_rules_read_no_clock_and_no_global_random(path):
    assert not imported_modules(path) & {"time", "datetime", "random", "secrets", "uuid"}


def test_importing_and_playing_loads_no_django():
    code = (
        "import sys, random\n"
        "import games.registry\n"
        "assert 'games.data_tycoon' not in sys.modules, 'the registry must load games lazily'\n"
        "from games.registry import all_games\n"
        "from games.engine.driver import play\n"
        "import games.simulate, games.engine.replay\n"
        "for game in all_games():\n"
        "    state = game.new_state(game.min_players, 1, game.default_variant)\n"
        "    play(state, [game.bot(b) for b in game.bots][: game.min_players], random.Random(1))\n"
        "    __import__(type(game).__module__.rsplit('.', 1)[0] + '.text')\n"
        "banned = ('django', 'channels', 'celery')\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in banned)\n"
        "assert not bad, bad\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
