"""The game protocol as two abstract classes (OpenSpiel style).

A game subclasses ``Game`` (static facts and the state factory) and ``State``
(one match in progress). Seats are ints ``0..n-1``; ``None`` is the referee,
which only sends the expiry actions listed by ``state.timers()``.
"""

import json


class Game:
    """Describe one game: its cards, variants, bots, and how to start a match."""

    slug = ""
    name = {}
    min_players = 2
    max_players = 2
    variants = {}
    variant_descriptions = {}
    default_variant = ""
    bots = {}

    def cards(self, variant):
        """Return the card catalogue of ``variant``: one dict per card instance."""
        raise NotImplementedError

    def new_state(self, num_players, seed, variant, options=None):
        """Return a new match, dealt from ``seed``."""
        raise NotImplementedError

    def from_json(self, data):
        """Return the state that ``state.to_json()`` produced ``data`` from."""
        raise NotImplementedError


class State:
    """One match: who moves, what is legal, what each seat sees, how it ends."""

    def to_move(self):
        """Return the seats that may act now."""
        raise NotImplementedError

    def legal_actions(self, seat):
        """Return the actions ``seat`` (or the referee, ``None``) may take now."""
        raise NotImplementedError

    def apply(self, seat, action):
        """Apply a legal action and return its events; raise IllegalAction otherwise."""
        raise NotImplementedError

    def timers(self):
        """Return the running timers as ``{"id", "seconds", "action"}`` dicts."""
        return []

    def view(self, seat):
        """Return what ``seat`` may see (``None``: the public, projector view)."""
        raise NotImplementedError

    def private_cards(self, seat):
        """Return the ids of the cards that only ``seat`` may see now."""
        raise NotImplementedError

    def zones(self):
        """Return every zone's card ids, to check that no card is created or lost."""
        raise NotImplementedError

    def is_over(self):
        """Return True once the match has ended."""
        raise NotImplementedError

    def result(self):
        """Return the ranking, scores and the tie-break level that decided (None before the end)."""
        raise NotImplementedError

    def to_json(self):
        """Return a JSON-able dict from which ``game.from_json`` rebuilds this state."""
        raise NotImplementedError

    def dumps(self):
        """Return ``to_json()`` as canonical JSON text (stable key order)."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
