"""Plain-language game-log lines for Data Monsters events, translatable without Django.

``describe_event(event)`` returns ``(template, params)``: an English template marked
with ``gettext_noop`` (or a ``Plural``) and its parameters; the Django layer shows
``gettext(template) % params`` with nicknames and translated card names.
"""

from collections.abc import Callable

from games.data_monsters.cards import BY_ID
from games.engine.i18n import Plural, gettext_noop, ngettext_noop
from games.engine.text import namers

TEMPLATES = {
    "setup": gettext_noop("A new game of Data Monsters: %(player)s plays first."),
    "turn": gettext_noop("Round %(round)s: it is %(player)s's turn."),
    "reshuffle": gettext_noop(
        "%(player)s's lab deck is empty: the recycle bin (%(count)s cards) is shuffled."
    ),
    "hired": gettext_noop("%(player)s hires %(card)s into the lab."),
    "promoted": gettext_noop("%(player)s promotes a monster: %(card)s takes over."),
    "equipped": gettext_noop("%(player)s installs %(card)s in the lab."),
    "hack": gettext_noop("%(player)s plays the hack %(card)s."),
    "tool": gettext_noop("%(player)s adds %(card)s to the build (+%(tech)s TECH, +%(sci)s SCI)."),
    "global_on": gettext_noop("%(player)s plays the global tool %(card)s: it affects everyone."),
    "global_off": gettext_noop("%(card)s leaves the global zone."),
    "window": gettext_noop("%(player)s completes %(challenge)s: the other players may interrupt."),
    "interrupted": gettext_noop("%(player)s interrupts %(target)s with %(card)s!"),
    "passed": gettext_noop("%(player)s does not interrupt."),
    "timeout": gettext_noop("Nobody interrupted in time."),
    "completed": gettext_noop("%(player)s completes %(challenge)s: %(points)s Big Data points."),
    "completed_unsafe": gettext_noop(
        "%(player)s completes %(challenge)s without a safeguard for personal data: only "
        "%(points)s Big Data points."
    ),
    "market": gettext_noop("A new challenge opens on the market: %(challenge)s."),
    "turn_end": gettext_noop("%(player)s ends the turn."),
}
PLURALS = {
    "draw": (
        ngettext_noop("%(player)s draws %(count)s card.", "%(player)s draws %(count)s cards."),
        "count",
    ),
    "discard": (
        ngettext_noop(
            "%(player)s recycles a card face down (%(hand)s card left in hand).",
            "%(player)s recycles a card face down (%(hand)s cards left in hand).",
        ),
        "hand",
    ),
    "game_over": (
        ngettext_noop(
            "The game is over. Winner: %(winners)s.", "The game is over. Winners: %(winners)s."
        ),
        "winners",
    ),
}
# The events worth a line on the teacher's dashboard and the debrief's timeline.
NOTABLE_EVENTS = frozenset({"promoted", "interrupted", "completed", "global_on", "game_over"})
# The events a lesson may be linked to, as a teacher reads them in the lesson library.
EVENT_LABELS = {
    "completed": gettext_noop("a challenge completed"),
    "interrupted": gettext_noop("a completion interrupted"),
    "promoted": gettext_noop("a monster promoted"),
    "global_on": gettext_noop("a global tool played"),
    "hack": gettext_noop("a hack played"),
    "tool": gettext_noop("a tool added to the build"),
    "equipped": gettext_noop("lab equipment installed"),
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
    for field, name in (("seat", "player"), ("target", "target")):
        if event.get(field) is not None:
            params[name] = player(event[field])
    for field in ("card", "challenge"):
        if event.get(field):
            params[field] = card(event[field])
    for field in ("points", "count", "round", "tech", "sci", "hand"):
        if field in event:
            params[field] = event[field]
    if kind == "game_over":
        params["winners"] = ", ".join(player(s) for s in event["winners"])
    if kind == "completed" and not event["safe"]:
        return TEMPLATES["completed_unsafe"], params
    if kind in PLURALS:
        forms, counted = PLURALS[kind]
        count = event[counted]
        return Plural(forms, len(count) if isinstance(count, list) else count), params
    return TEMPLATES[kind], params
