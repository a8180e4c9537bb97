"""Plain-language game-log lines for Conspiranoia events, translatable without Django.

``describe_event(event)`` returns ``(template, params)``: an English template
marked with ``gettext_noop`` (so ``makemessages`` extracts it) and its
parameters. The Django layer shows ``gettext(template) % params``; it may pass
``player_name`` and ``card_name`` to put nicknames and translated card names in.
"""

from collections.abc import Callable

from games.conspiranoia.cards import BY_ID
from games.engine.i18n import Plural, gettext_noop, ngettext_noop
from games.engine.text import namers

TEMPLATES = {
    "setup": gettext_noop(
        "A new game of Conspiranoia: %(life)s life points each; %(dealer)s deals."
    ),
    "character_chosen": gettext_noop("%(player)s chooses %(card)s."),
    "avatars_boxed": gettext_noop(
        "The Avatar cards of the characters nobody plays (%(count)s) go back in the box."
    ),
    "deal": gettext_noop(
        "Round %(round)s: %(dealer)s deals 3 cards to each player and lays 4 on the table "
        "(%(cards)s); cards left in the deck: %(deck)s."
    ),
    "turn": gettext_noop("It is %(player)s's turn."),
    "attack": gettext_noop(
        "%(player)s attacks %(target)s with %(cards)s: an Attack worth %(points)s."
    ),
    "special_attack": gettext_noop(
        "%(player)s hits %(target)s with %(cards)s: a Special Attack worth %(points)s, "
        "which no Defence stops."
    ),
    "defend": gettext_noop("%(player)s defends with %(cards)s: a Defence worth %(points)s."),
    "blocked": gettext_noop("%(player)s blocks the whole attack."),
    "damage": gettext_noop("%(player)s is hit for %(points)s (life: %(life)s)."),
    "heal": gettext_noop("%(player)s heals with three Defence cards (life: %(life)s)."),
    "discard": gettext_noop("%(player)s cannot act and discards %(card)s to the table."),
    "timeout": gettext_noop("%(player)s did not answer in time."),
    "knocked_out": gettext_noop("%(player)s has no life points left and is out of the game."),
    "dealer": gettext_noop("%(player)s is the dealer now."),
    "round_end": gettext_noop("Round %(round)s is over: every hand is empty."),
    "table_cleared": gettext_noop("The cards left on the table (%(count)s) go to the played pile."),
    "reshuffle": gettext_noop(
        "The deck is running out: the played cards (%(count)s) are shuffled under it, "
        "and %(dealer)s deals from now on."
    ),
    "round_limit": gettext_noop(
        "The round limit (%(rounds)s) is reached: the players left are ranked by life points."
    ),
}
# The lines whose words depend on a number: their two English forms, and the event's
# field that counts (a list counts its items).
PLURALS = {
    "game_over": (
        ngettext_noop(
            "The game is over. Winner: %(winners)s.", "The game is over. Winners: %(winners)s."
        ),
        "winners",
    ),
}
DOUBLED = {
    "attack": gettext_noop(
        "%(player)s attacks %(target)s with %(cards)s: an Attack worth %(points)s, "
        "doubled by an Avatar."
    ),
    "special_attack": gettext_noop(
        "%(player)s hits %(target)s with %(cards)s: a Special Attack worth %(points)s, "
        "doubled by an Avatar, which nothing stops."
    ),
    "defend": gettext_noop(
        "%(player)s defends with %(cards)s: a Defence worth %(points)s, doubled by an Avatar."
    ),
}

# The events worth a line on the teacher's dashboard and the debrief's timeline.
NOTABLE_EVENTS = frozenset(
    {
        "character_chosen",
        "attack",
        "special_attack",
        "defend",
        "blocked",
        "heal",
        "knocked_out",
        "round_limit",
        "game_over",
    }
)
# The events a lesson may be linked to, as a teacher reads them in the lesson library.
EVENT_LABELS = {
    "character_chosen": gettext_noop("a character chosen"),
    "attack": gettext_noop("an Attack (three of a kind)"),
    "special_attack": gettext_noop("a Special Attack, which no Defence stops"),
    "defend": gettext_noop("a Defence played against an Attack"),
    "blocked": gettext_noop("an Attack blocked in full"),
    "damage": gettext_noop("life points lost"),
    "heal": gettext_noop("a life point healed with three Defence cards"),
    "discard": gettext_noop("a card discarded: no action was possible"),
    "knocked_out": gettext_noop("a player out of the game"),
    "reshuffle": gettext_noop("the played pile shuffled into the deck"),
}


def describe_event(
    event: dict,
    player_name: Callable[[int], str] | None = None,
    card_name: Callable[[str], str] | None = None,
) -> tuple[str, dict]:
    """Return ``(template, params)``: the event's log line, ready for ``gettext``."""
    player, card = namers(player_name, card_name, BY_ID)
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
    if kind in PLURALS:
        forms, counted = PLURALS[kind]
        count = event[counted]
        return Plural(forms, len(count) if isinstance(count, list) else count), params
    return TEMPLATES[kind], params
