"""Plain-language game-log lines for Data Thief events, translatable without Django.

``describe_event(event)`` returns ``(template, params)``: an English template marked
with ``gettext_noop`` (or a ``Plural``) and its parameters. The Django layer shows
``gettext(template) % params``, with nicknames and translated card names when it
passes ``player_name`` and ``card_name``. A line that names a board has one template
per board, since a parameter is not translated.
"""

from collections.abc import Callable

from games.data_thief.cards import BY_ID
from games.engine.i18n import Plural, gettext_noop, ngettext_noop
from games.engine.text import namers

TEMPLATES = {
    "setup": gettext_noop(
        "A new game of Data Thief: %(player)s is the thief, who enters on the third "
        "round; %(rounds)s rounds."
    ),
    "turn": gettext_noop("Round %(round)s: it is %(player)s's turn."),
    "draw": gettext_noop("%(player)s draws a card."),
    "discard": gettext_noop("%(player)s cannot play and discards %(card)s face up."),
    "countered": gettext_noop(
        "%(player)s counters %(card)s with %(measure)s and keeps the attack card (10 points)."
    ),
    "measure_discarded": gettext_noop("The board is full: %(card)s goes to the discard pile."),
    "attack_succeeded": gettext_noop("The attack %(card)s on %(target)s succeeds."),
    "stolen": gettext_noop("%(player)s steals %(cards)s from %(target)s (%(points)s points)."),
    "timeout": gettext_noop("%(player)s did not answer in time."),
    "round_end": gettext_noop("Round %(round)s is over."),
    "reshuffle": gettext_noop("A pile is empty: its discard pile (%(count)s cards) is shuffled."),
}
BOARD_TEMPLATES = {
    "data_laid": {
        "paper": gettext_noop("%(player)s lays %(card)s on the paper board."),
        "digital": gettext_noop("%(player)s lays %(card)s on the digital board."),
    },
    "measure_laid": {
        "paper": gettext_noop("%(player)s lays a security measure face down on the paper board."),
        "digital": gettext_noop(
            "%(player)s lays a security measure face down on the digital board."
        ),
    },
    "attack": {
        "paper": gettext_noop("%(player)s attacks the paper board of %(target)s with %(card)s."),
        "digital": gettext_noop(
            "%(player)s attacks the digital board of %(target)s with %(card)s."
        ),
    },
    "measure_kept": {
        "paper": gettext_noop("%(card)s now stays face up on the paper board of %(player)s."),
        "digital": gettext_noop("%(card)s now stays face up on the digital board of %(player)s."),
    },
    "board_cleared": {
        "paper": gettext_noop(
            "No data is left on the paper board of %(player)s: its measures are discarded."
        ),
        "digital": gettext_noop(
            "No data is left on the digital board of %(player)s: its measures are discarded."
        ),
    },
}
# The lines whose words depend on a number: their two English forms, and the event's
# field that counts (a list counts its items).
PLURALS = {
    "turns_lost": (
        ngettext_noop(
            "%(player)s must deal with the attack and will miss %(turns)s turn.",
            "%(player)s must deal with the attack and will miss %(turns)s turns.",
        ),
        "turns",
    ),
    "turn_skipped": (
        ngettext_noop(
            "%(player)s misses this turn (%(left)s more turn to miss).",
            "%(player)s misses this turn (%(left)s more turns to miss).",
        ),
        "left",
    ),
    "game_over": (
        ngettext_noop(
            "The game is over. Winner: %(winners)s.", "The game is over. Winners: %(winners)s."
        ),
        "winners",
    ),
}
NOTHING_LEFT = gettext_noop("%(player)s misses this turn.")

# The events worth a line on the teacher's dashboard and the debrief's timeline.
NOTABLE_EVENTS = frozenset(
    {
        "attack",
        "countered",
        "attack_succeeded",
        "stolen",
        "turns_lost",
        "board_cleared",
        "game_over",
    }
)
# The events a lesson may be linked to, as a teacher reads them in the lesson library.
EVENT_LABELS = {
    "data_laid": gettext_noop("a data card laid on a board"),
    "measure_laid": gettext_noop("a security measure laid face down"),
    "attack": gettext_noop("an attack by the data thief"),
    "countered": gettext_noop("an attack countered by a security measure"),
    "attack_succeeded": gettext_noop("an attack that succeeded"),
    "stolen": gettext_noop("data stolen by the thief"),
    "turns_lost": gettext_noop("turns lost to an attack that steals nothing"),
    "board_cleared": gettext_noop("a board left without data"),
}


def describe_event(
    event: dict,
    player_name: Callable[[int], str] | None = None,
    card_name: Callable[[str], str] | None = None,
) -> tuple[str, dict]:
    """Return ``(template, params)``: the event's log line, ready for ``gettext``."""
    player, card = namers(player_name, card_name, BY_ID)
    kind = event["type"]
    params: dict[str, object] = {}
    for key, name in (("seat", "player"), ("target", "target"), ("thief", "player")):
        if event.get(key) is not None:
            params.setdefault(name, player(event[key]))
    for key in ("card", "measure"):
        if key in event:
            params[key] = card(event[key])
    if "cards" in event:
        params["cards"] = ", ".join(card(c) for c in event["cards"])
    for key in ("points", "count", "round", "rounds", "turns", "left"):
        if key in event:
            params[key] = event[key]
    if kind == "game_over":
        params["winners"] = ", ".join(player(s) for s in event["winners"])
    if kind == "turn_skipped" and not event["left"]:
        return NOTHING_LEFT, params
    if kind in BOARD_TEMPLATES:
        return BOARD_TEMPLATES[kind][event["board"]], params
    if kind in PLURALS:
        forms, counted = PLURALS[kind]
        count = event[counted]
        return Plural(forms, len(count) if isinstance(count, list) else count), params
    return TEMPLATES[kind], params
