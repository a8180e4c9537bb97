"""Data Thief: register the game (rules in ``rules.py``, cards in ``fixtures/``)."""

from games.data_thief.rules import DataThief
from games.registry import register

GAME = register(DataThief())
