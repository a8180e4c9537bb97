"""Data-Tycoon: register the game (rules in ``rules.py``, deck in ``fixtures/``)."""

from games.data_tycoon.rules import DataTycoon
from games.registry import register

GAME = register(DataTycoon())
