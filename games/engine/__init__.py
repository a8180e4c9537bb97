"""The protocol every game follows: pure Python, no Django, no clock, no global random.

A game module provides a Game object (registered in ``games.registry``) and a
State; see ``games.engine.base`` for the documented interface.
"""

from games.engine.bots import Bot, RandomBot
from games.engine.errors import IllegalAction
from games.engine.i18n import Text, gettext_noop, ngettext_noop

__all__ = ["Bot", "IllegalAction", "RandomBot", "Text", "gettext_noop", "ngettext_noop"]
