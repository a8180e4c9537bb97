"""Data Monsters: register the game (rules in ``rules.py``, cards in ``fixtures/``)."""

from games.data_monsters.rules import DataMonsters
from games.registry import register

GAME = register(DataMonsters())
