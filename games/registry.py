"""The games the platform knows, registered by slug.

Importing this module is cheap and imports no Django: the game packages are
imported on the first lookup.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.engine.base import Game

GAME_MODULES = (
    "games.conspiranoia",
    "games.data_monsters",
    "games.data_thief",
    "games.data_tycoon",
)

_games: dict[str, Game] = {}
_loaded: list[bool] = []  # [True] once the game packages are imported


def register(game: Game) -> Game:
    """Add ``game`` to the registry under ``game.slug``; return it."""
    _games[game.slug] = game
    return game


def _load():
    """Import every known game package once, so each registers itself."""
    if not _loaded:
        for module in GAME_MODULES:
            importlib.import_module(module)
        _loaded.append(True)


def get_game(slug: str) -> Game:
    """Return the game registered as ``slug``; raise KeyError if unknown."""
    _load()
    return _games[slug]


def all_games() -> list[Game]:
    """Return every registered game, in a stable order (by slug)."""
    _load()
    return [_games[slug] for slug in sorted(_games)]
