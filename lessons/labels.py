"""Readable names for what opens a lesson: a card of a game, or an engine event."""

import re

from django.utils.translation import gettext_lazy as _

from lessons.links import game_catalogue
from lessons.models import LessonLink

# Engine event types named in link files, with the words a reader sees.
EVENT_LABELS = {
    "attack": _("a card played as an attack"),
    "capture": _("a Dataset card captured"),
    "countered": _("an attack countered"),
    "data_called": _("DATA! called"),
    "databreach_called": _("DATABREACH! called: the breach is reported"),
    "databreach_discovered": _("a hidden Databreach discovered"),
    "datasets_returned": _("Dataset cards returned to the deck"),
    "frozen": _("cards frozen"),
    "time_started": _("a Time deadline started"),
    "time_up": _("a Time deadline reached"),
    "transparency": _("a hand made transparent"),
    "treasure_built": _("a Data-Treasure built"),
    "treasure_split": _("a Data-Treasure split with Consent"),
    "treasures_lost": _("Data-Treasures lost"),
}

_COLOUR_SUFFIX = re.compile(r"\s*\([^)]*\)$")


def game_name(slug: str, language: str) -> str:
    """Return a registered game's name in ``language``, else its slug."""
    from games.registry import get_game

    try:
        names = get_game(slug).name
    except KeyError:
        return slug
    return names.get(language) or names.get("en") or slug


def _card_name(card: dict, language: str) -> str:
    """Return a card's name in ``language`` without its colour."""
    names = card.get("name") or {}
    name = names.get(language) or names.get("en") or card["kind"]
    return _COLOUR_SUFFIX.sub("", name) if card.get("colour") else name


def card_label(game: str, kind: str, purpose: str = "", sign: str = "", language="en") -> str:
    """Return the name of the cards a card link matches, read from the game's catalogue."""
    try:
        cards = list(game_catalogue(game).values())
    except KeyError:
        cards = []
    for card in cards:
        if (card["kind"], card.get("purpose") or "", card.get("sign") or "") == (
            kind,
            purpose,
            sign,
        ):
            return _card_name(card, language)
    for card in cards:
        if card["kind"] == kind:  # a link for every card of a kind: "Purpose: x" gives "Purpose"
            return _card_name(card, language).split(":")[0].strip()
    return ":".join(part for part in (kind, purpose, sign) if part)


def link_label(link: LessonLink, language: str = "en") -> str:
    """Return what a link matches, in words."""
    if not link.event:
        return card_label(link.game, link.kind, link.purpose, link.sign, language)
    label = str(EVENT_LABELS.get(link.event, link.event))
    if link.qualifier:
        qualifier = card_label(link.game, link.qualifier, language=language)
        if qualifier == link.qualifier:  # a cause that is not a card kind
            qualifier = qualifier.replace("_", " ")
        label = f"{label} ({qualifier})"
    if link.card_field:
        label = f"{label}: {_('the lesson of the card')}"
    return label
