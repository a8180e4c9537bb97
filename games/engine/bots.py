"""The bot interface: a bot sees one seat's view and its legal actions, nothing more.

A bot is made by its game (``game.bot(name)``), so a bot that thinks ahead can ask the
game to imagine the cards it cannot see (``game.sample_state``) without importing it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from games.engine.i18n import gettext_noop

if TYPE_CHECKING:
    from games.engine.base import Game
    from games.engine.rng import RandomSource

# The levels a teacher chooses from, the same words for every game: a game's bot that
# declares a ``level`` plays the seats of a session launched at that level. Each
# description follows its name after a dash in the launch form: it starts in lower case.
LEVELS = {
    "friendly": (
        gettext_noop("Friendly"),
        gettext_noop("plays the best move it sees, one at a time: a fair opponent for beginners"),
    ),
    "strong": (
        gettext_noop("Strong"),
        gettext_noop(
            "thinks several moves ahead, guessing the cards it cannot see: for students who "
            "know the game well"
        ),
    ),
}


class Scorer(Protocol):
    """What ``ScoringBot.context`` returns: it rates one legal action (higher is better)."""

    def score(self, action: dict) -> float: ...


class Bot:
    """Choose an action for one seat.

    ``needs_view`` tells a driver whether to build the view at all: a bot that
    ignores it (the random bot) lets simulations skip that work.
    """

    name = "bot"
    needs_view = True
    level = ""  # a key of LEVELS when teachers may choose this bot, else ""

    def __init__(self, game: Game | None = None) -> None:
        self.game = game

    def choose(self, view: dict | None, legal_actions: list[dict], rng: RandomSource) -> dict:
        """Return one element of ``legal_actions`` (``rng`` is a ``random.Random``)."""
        raise NotImplementedError


class RandomBot(Bot):
    """Pick uniformly among the legal actions."""

    name = "random"
    needs_view = False

    def choose(self, view: dict | None, legal_actions: list[dict], rng: RandomSource) -> dict:
        """Return a uniformly random legal action: the one ``rng.choice`` would (the same
        draws), without its two Python calls, since a simulation asks on every move.

        ``random.Random`` chooses by drawing ``getrandbits`` of the list length's bit
        length until the number is below the length: the same draws are made here."""
        n = len(legal_actions)
        if n == 1:  # a forced move, often: one bit is drawn until it is 0, as choice does
            while rng.getrandbits(1):
                pass
            return legal_actions[0]
        k = n.bit_length()
        r = rng.getrandbits(k)
        while r >= n:
            if not n:  # as rng.choice: no number is below 0 (asked only on a redraw)
                raise IndexError("no legal action to choose from")
            r = rng.getrandbits(k)
        return legal_actions[r]


class ScoringBot(Bot):
    """Play the legal action a game's scoring rates best (ties broken by ``rng``).

    A game's heuristic bot gives ``context(view)``: an object whose ``score(action)``
    rates one action, built once per choice from what the seat sees.
    """

    def context(self, view: dict) -> Scorer:
        """Return what the bot derives once from ``view`` to score each action."""
        raise NotImplementedError

    def choose(self, view: dict | None, legal_actions: list[dict], rng: RandomSource) -> dict:
        """Return the best-scoring legal action (ties broken by ``rng``); raise IndexError
        if there is none, as ``RandomBot`` does."""
        # needs_view is True: a driver passes a view, never None (a check costs every move)
        ctx = self.context(view)  # type: ignore[arg-type]
        # the first score always replaces legal_actions[0] (best_score is None): it only
        # makes an empty list raise IndexError, not return None for an action
        best, best_score = legal_actions[0], None
        for action in legal_actions:
            score = ctx.score(action) + rng.random() * 0.01
            if best_score is None or score > best_score:
                best, best_score = action, score
        return best
