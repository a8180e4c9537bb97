"""Conspiranoia: register the game (rules in ``rules.py``, deck in ``fixtures/``)."""

from games.conspiranoia.rules import Conspiranoia
from games.registry import register

GAME = register(Conspiranoia())
