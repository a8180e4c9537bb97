"""Plain-language game-log lines for Conspiranoia events, translatable without Django.

``describe_event(event)`` returns ``(template, params)``: an English template
marked with ``gettext_noop`` (so ``makemessages`` extracts it) and its
parameters. The Django layer shows ``gettext(template) % params``; it may pass
``player_name`` and ``card_name`` to put nicknames and translated card names in.
"""

from games.conspiranoia.cards import BY_ID
from games.engine.i18n import gettext_noop

TEMPLATES = {
    "setup": gettext_noop(
        "A new game of Conspiranoia: %(life)s life points each; %(dealer)s deals."
    ),
    "character_chosen": gettext_noop("%(player)s chooses %(card)s."),
    "avatars_boxed": gettext_noop(
        "The %(count)s Avatar cards of the characters nobody plays go back in the box."
    ),
    "deal": gettext_noop(
        "Round %(round)s: %(dealer)s deals 3 cards to each player and lays 4 on the table "
        "(%(cards)s); %(deck)s cards are left in the deck."
    ),
    "turn": gettext_noop("It is %(player)s's turn."),
    "attack": gettext_noop("%(player)s attacks %(target)s for %(points)s points with %(cards)s."),
    "special_attack": gettext_noop(
        "%(player)s hits %(target)s with a Special Attack of %(points)s points (%(cards)s): "
        "no Defence stops it."
    ),
    "defend": gettext_noop("%(player)s defends with %(points)s points (%(cards)s)."),
    "blocked": gettext_noop("%(player)s blocks the whole attack."),
    "damage": gettext_noop("%(player)s loses %(points)s life points and has %(life)s left."),
    "heal": gettext_noop(
        "%(player)s uses three Defence cards to heal 1 life point and has %(life)s now."
    ),
    "discard": gettext_noop("%(player)s cannot act and discards %(card)s to the table."),
    "timeout": gettext_noop("%(player)s did not answer in time."),
    "knocked_out": gettext_noop("%(player)s has no life points left and is out of the game."),
    "dealer": gettext_noop("%(player)s is the dealer now."),
    "round_end": gettext_noop("Round %(round)s is over: every hand is empty."),
    "table_cleared": gettext_noop("The %(count)s cards left on the table go to the played pile."),
    "reshuffle": gettext_noop(
        "The deck is running out: the %(count)s played cards are shuffled under it, "
        "and %(dealer)s deals from now on."
    ),
    "round_limit": gettext_noop(
        "The round limit (%(rounds)s) is reached: the players left are ranked by life points."
    ),
    "game_over": gettext_noop("The game is over. Winner(s): %(winners)s."),
}
DOUBLED = {
    "attack": gettext_noop(
        "%(player)s attacks %(target)s for %(points)s points, doubled by an Avatar, with %(cards)s."
    ),
    "special_attack": gettext_noop(
        "%(player)s hits %(target)s with a Special Attack of %(points)s points, doubled by an "
        "Avatar (%(cards)s): nothing stops it."
    ),
    "defend": gettext_noop(
        "%(player)s defends with %(points)s points, doubled by an Avatar (%(cards)s)."
    ),
}


def _default_player(seat):
    """Return a neutral name for ``seat`` (seats count from 1 for people)."""
    return f"Player {seat + 1}"


def _default_card(card_id):
    """Return the English name of a card."""
    return BY_ID[card_id]["name"]["en"]


def describe_event(event, player_name=None, card_name=None):
    """Return ``(template, params)``: the event's log line, ready for ``gettext``."""
    player = player_name or _default_player
    card = card_name or _default_card
    kind = event["type"]
    params = {}
    for key, name in (("seat", "player"), ("target", "target"), ("dealer", "dealer")):
        if event.get(key) is not None:
            params[name] = player(event[key])
    if "card" in event:
        params["card"] = card(event["card"])
    for key in ("cards", "table"):
        if key in event:
            params["cards"] = ", ".join(card(c) for c in event[key])
    for key in ("points", "life", "count", "round", "rounds", "deck"):
        if key in event:
            params[key] = event[key]
    if kind == "dealer":
        params["player"] = player(event["seat"])
    if kind == "game_over":
        params["winners"] = ", ".join(player(s) for s in event["winners"])
    if event.get("doubled"):
        return DOUBLED[kind], params
    return TEMPLATES[kind], params
