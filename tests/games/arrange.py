"""Build Data-Tycoon positions for unit tests through the public JSON format."""

from games.registry import get_game

GAME = get_game("data_tycoon")


class Picker:
    """Hand out distinct card ids matching attributes, from a variant's catalogue."""

    def __init__(self, variant="expert"):
        self.cards = GAME.cards(variant)
        self.used = set()

    def __call__(self, kind="dataset", **attrs):
        """Return one unused id of ``kind`` whose fields equal ``attrs``."""
        for card in self.cards:
            fits = all(card[k] == v for k, v in attrs.items())
            if card["kind"] == kind and card["id"] not in self.used and fits:
                self.used.add(card["id"])
                return card["id"]
        raise LookupError(f"no more {kind} cards with {attrs}")

    def many(self, count, kind="dataset", **attrs):
        """Return ``count`` unused ids."""
        return [self(kind, **attrs) for _ in range(count)]


def arrange(players=2, variant="expert", options=None, deck=None, **zones):
    """Return a state in stage "play" with the given zones; the rest of the cards form the deck.

    ``zones`` keys: the per-seat zones as ``{seat: [ids]}`` (hands, reserves,
    collections, frozen, purposes, consents, undeclared, hidden), ``treasures`` as
    ``{seat: [(label, [ids])]}``, ``table``, ``pile``, and any scalar field of the
    JSON (turn, stage, windows, threats, skips, transparent).
    """
    d = GAME.new_state(players, 1, variant, options).to_json()
    placed = []
    for name in ("hands", "reserves", "collections", "frozen", "purposes", "consents"):
        given = zones.pop(name, {})
        d[name] = [list(given.get(s, [])) for s in range(players)]
        placed += [c for seat_zone in d[name] for c in seat_zone]
    for name in ("undeclared", "hidden"):
        given = zones.pop(name, {})
        d[name] = [list(given.get(s, [])) for s in range(players)]
    treasures = zones.pop("treasures", {})
    d["treasures"] = [
        [{"label": label, "cards": list(cards)} for label, cards in treasures.get(s, [])]
        for s in range(players)
    ]
    placed += [c for seat in d["treasures"] for tr in seat for c in [tr["label"], *tr["cards"]]]
    d["table"] = list(zones.pop("table", []))
    d["pile"] = list(zones.pop("pile", []))
    placed += d["table"] + d["pile"]
    if deck is None:
        deck = [c["id"] for c in GAME.cards(variant) if c["id"] not in set(placed)]
    d["deck"] = list(deck)
    d.update({"stage": "play", "turn": 0, "windows": [], "threats": [], "last_events": []})
    d["skips"], d["transparent"] = [0] * players, [0] * players
    d.update(zones)
    return GAME.from_json(d)


def types(events):
    """Return the event types of ``events``."""
    return [e["type"] for e in events]
