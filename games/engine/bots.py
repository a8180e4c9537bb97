"""The bot interface: a bot sees one seat's view and its legal actions, nothing more."""


class Bot:
    """Choose an action for one seat.

    ``needs_view`` tells a driver whether to build the view at all: a bot that
    ignores it (the random bot) lets simulations skip that work.
    """

    name = "bot"
    needs_view = True

    def choose(self, view, legal_actions, rng):
        """Return one element of ``legal_actions`` (``rng`` is a ``random.Random``)."""
        raise NotImplementedError


class RandomBot(Bot):
    """Pick uniformly among the legal actions."""

    name = "random"
    needs_view = False

    def choose(self, view, legal_actions, rng):
        """Return a uniformly random legal action."""
        return legal_actions[rng.randrange(len(legal_actions))]
