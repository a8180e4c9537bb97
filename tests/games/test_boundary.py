"""A game is one package: no platform module imports a game's package or names it.

The platform (classroom, live play, lessons, the debrief, config, templates, the board
client) knows a game only through the registry and the game protocol. Only the two
registries may name a game: ``games/registry.py`` (its package) and
``static/js/play/main.js`` (its renderer).
"""

import re
from pathlib import Path

import pytest

from games.engine.base import Game
from games.registry import all_games

ROOT = Path(__file__).resolve().parents[2]
PLATFORM = ("classroom", "config", "games", "live", "lessons", "debrief", "templates", "static")
SUFFIXES = {".py", ".html", ".js", ".css", ".txt"}
REGISTRIES = {ROOT / "games" / "registry.py", ROOT / "static" / "js" / "play" / "main.js"}


def own_files(slug: str) -> set[Path]:
    """Return the files that belong to the game ``slug``."""
    package = ROOT / "games" / slug
    return {
        *package.rglob("*"),
        ROOT / "static" / "js" / "play" / f"{slug}.js",
        ROOT / "static" / "css" / "play" / f"{slug}.css",
    }


def platform_files() -> list[Path]:
    """Return every source file of the platform (games' packages included, for now)."""
    files = []
    for top in PLATFORM:
        files += [
            path
            for path in (ROOT / top).rglob("*")
            if path.suffix in SUFFIXES and "migrations" not in path.parts
        ]
    return sorted(files)


def names(game: Game) -> set[str]:
    """Return what names a game: its slug, its package, its names in every language."""
    return {game.slug, f"games.{game.slug}", *(n for n in game.name.values() if len(n) > 3)}


GAMES = [pytest.param(game, id=game.slug) for game in all_games()]


def test_there_are_platform_files_and_games():
    assert len(platform_files()) > 50
    assert len(GAMES) >= 2


@pytest.mark.parametrize("game", GAMES)
def test_no_platform_file_names_a_game(game):
    pattern = re.compile("|".join(re.escape(name) for name in sorted(names(game))), re.IGNORECASE)
    allowed = own_files(game.slug) | REGISTRIES
    found = []
    for path in platform_files():
        if path in allowed:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:90]}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("game", GAMES)
def test_the_registries_name_the_game(game):
    assert f'"games.{game.slug}"' in (ROOT / "games" / "registry.py").read_text()
