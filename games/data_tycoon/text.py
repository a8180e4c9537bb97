"""Plain-language game-log lines for Data-Tycoon events, translatable without Django.

``describe_event(event)`` returns ``(template, params)``: an English template
marked with ``gettext_noop`` (so ``makemessages`` extracts it) and its
parameters. The Django layer shows ``gettext(template) % params``; it may pass
``player_name`` and ``card_name`` to put nicknames and translated card names in.
"""

from collections.abc import Callable

from games.data_tycoon.cards import BY_ID
from games.engine.i18n import Plural, gettext_noop, ngettext_noop
from games.engine.text import namers

TEMPLATES = {
    "setup": gettext_noop(
        "The deck is shuffled; %(table)s cards are laid on the table, "
        "%(specials)s special cards among them stay out of play."
    ),
    "deal": gettext_noop("Cards are dealt; %(deck)s cards are left in the deck."),
    "turn": gettext_noop("It is %(player)s's turn."),
    "turn_skipped": gettext_noop("%(player)s skips this turn."),
    "turn_ended": gettext_noop("%(player)s ends their turn."),
    "data_called": gettext_noop("%(player)s calls DATA!"),
    "data_missed": gettext_noop(
        "%(player)s did not call DATA! in time: %(cards)s goes to the pile, unused."
    ),
    "databreach_called": gettext_noop("%(player)s calls DATABREACH! (%(cards)s)"),
    "breach_skip": gettext_noop("The data breach costs %(player)s this turn."),
    "breach_skip_next": gettext_noop("Another data breach: %(player)s will skip their next turn."),
    "databreach_unreported": gettext_noop(
        "%(player)s did not call DATABREACH!: the breach will come out at the end of the turn."
    ),
    "play_forfeited": gettext_noop(
        "%(player)s loses the card play of this turn: %(card)s goes to the pile."
    ),
    "databreach_discovered": gettext_noop(
        "%(player)s hid a data breach (%(cards)s): it comes out now!"
    ),
    "capture": gettext_noop("%(player)s plays %(card)s and captures %(captured)s."),
    "lay": gettext_noop("%(player)s lays %(card)s on the table."),
    "keep": gettext_noop("%(player)s places %(card)s beside their collection."),
    "set_aside": gettext_noop("%(player)s sets a card aside, face down."),
    "discard": gettext_noop("%(player)s throws %(card)s on the table without effect."),
    "attack": gettext_noop("%(player)s plays %(card)s against %(target)s."),
    "transparency": gettext_noop("%(player)s must play with an open hand for %(turns)s turns."),
    "time_started": gettext_noop(
        "Time card: %(player)s must give up 6 Dataset cards or a Data-Treasure "
        "unless they draw a Purpose or Consent card in time."
    ),
    "time_lifted": gettext_noop(
        "%(player)s drew a Purpose or Consent card: the Time card is lifted."
    ),
    "time_up": gettext_noop("Time is up for %(player)s."),
    "frozen": gettext_noop("%(player)s freezes %(card)s: it counts but can join no treasure."),
    "treasure_built": gettext_noop("%(player)s builds a Data-Treasure for %(card)s."),
    "treasure_split": gettext_noop("%(player)s uses %(card)s to split a Data-Treasure in two."),
    "skips": gettext_noop("%(player)s cannot pay and will skip %(turns)s turns."),
    "timeout": gettext_noop("%(player)s did not answer in time."),
}
# The lines whose words depend on a number: their two English forms, and the event's
# field that counts (a list counts its items).
PLURALS = {
    "treasures_lost": (
        ngettext_noop(
            "%(player)s loses %(treasures)s Data-Treasure: %(count)s cards go back to the deck.",
            "%(player)s loses %(treasures)s Data-Treasures: %(count)s cards go back to the deck.",
        ),
        "treasures",
    ),
    "game_over": (
        ngettext_noop(
            "The game is over. Winner: %(winners)s.", "The game is over. Winners: %(winners)s."
        ),
        "winners",
    ),
}
RETURNED = {
    "complaint": gettext_noop("Complaint: %(player)s returns %(count)s Dataset cards to the deck."),
    "minimization": gettext_noop(
        "Minimization: %(player)s returns all %(count)s loose Dataset cards to the deck."
    ),
    "time": gettext_noop("Time card: %(player)s returns %(count)s Dataset cards to the deck."),
    "databreach": gettext_noop("Data breach: %(player)s loses %(count)s Dataset cards."),
}
COUNTERED = {
    "sanction": gettext_noop("%(player)s answers with %(card)s: the Sanction has no effect."),
    "complaint": gettext_noop("%(player)s answers with %(card)s: the Complaint has no effect."),
    "minimization": gettext_noop(
        "%(player)s answers with %(card)s: the Minimization has no effect."
    ),
    "transparency": gettext_noop(
        "%(player)s answers with %(card)s: the Transparency card has no effect."
    ),
    "time": gettext_noop("%(player)s answers with %(card)s: the Time card has no effect."),
    "databreach": gettext_noop("%(player)s answers with %(card)s: the data breach is contained."),
    "hidden_breach": gettext_noop(
        "%(player)s answers with %(card)s: the breach is contained, but it was reported too "
        "late: %(player)s will skip a turn."
    ),
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
    if event.get("seat") is not None:
        params["player"] = player(event["seat"])
    if "target" in event:
        params["target"] = player(event["target"])
    for key in ("card", "captured"):
        if key in event:
            params[key] = card(event[key])
    if kind == "treasure_built":
        params["card"] = card(event["purpose"])
    if kind == "treasure_split":
        params["card"] = card(event["consent"])
    if "cards" in event:
        params["cards"] = ", ".join(card(c) for c in event["cards"])
    for key in ("count", "treasures", "turns", "deck"):
        if key in event and event[key] is not None:
            params[key] = event[key]
    if kind == "setup":
        params["table"] = len(event["table"]) + len(event["pile"])
        params["specials"] = len(event["pile"])
    if kind == "game_over":
        params["winners"] = ", ".join(player(s) for s in event["winners"])
    if kind == "datasets_returned":
        return RETURNED[event["cause"]], params
    if kind == "countered":
        return COUNTERED[event["attack"]], params
    if kind in PLURALS:
        forms, counted = PLURALS[kind]
        count = event[counted]
        return Plural(forms, len(count) if isinstance(count, list) else count), params
    return TEMPLATES[kind], params


# The events worth a line on the teacher's dashboard and the debrief's timeline.
NOTABLE_EVENTS = frozenset(
    {
        "treasure_built",
        "treasure_split",
        "treasures_lost",
        "attack",
        "countered",
        "databreach_called",
        "databreach_discovered",
        "breach_skip",
        "breach_skip_next",
        "databreach_unreported",
        "play_forfeited",
        "datasets_returned",
        "frozen",
        "skips",
        "time_started",
        "time_lifted",
        "time_up",
        "transparency",
        "game_over",
    }
)
# The events a lesson may be linked to, as a teacher reads them in the lesson library.
EVENT_LABELS = {
    "attack": gettext_noop("a card played as an attack"),
    "capture": gettext_noop("a Dataset card captured"),
    "countered": gettext_noop("an attack countered"),
    "data_called": gettext_noop("DATA! called"),
    "databreach_called": gettext_noop("DATABREACH! called: the breach is reported"),
    "data_missed": gettext_noop("DATA! not called in time: the Purpose cards are lost"),
    "databreach_discovered": gettext_noop("a hidden Databreach discovered"),
    "datasets_returned": gettext_noop("Dataset cards returned to the deck"),
    "frozen": gettext_noop("cards frozen"),
    "keep": gettext_noop("a Purpose or Consent card kept beside the collection"),
    "time_lifted": gettext_noop("a Time deadline lifted by a Purpose or Consent card"),
    "time_started": gettext_noop("a Time deadline started"),
    "time_up": gettext_noop("a Time deadline reached"),
    "transparency": gettext_noop("a hand made transparent"),
    "treasure_built": gettext_noop("a Data-Treasure built"),
    "treasure_split": gettext_noop("a Data-Treasure split with Consent"),
    "treasures_lost": gettext_noop("Data-Treasures lost"),
}
