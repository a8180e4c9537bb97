"""Readable names for what opens a lesson: a card of a game, or an engine event."""

import re

from django.utils import translation
from django.utils.translation import gettext as _

from games.describe import translate
from games.registry import get_game
from lessons.links import game_catalogue
from lessons.models import LessonLink

_COLOUR_SUFFIX = re.compile(r"\s*\([^)]*\)$")


def event_label(game: str, event_type: str) -> str:
    """Return what an event type means, in the active language (its type if unknown)."""
    try:
        label = get_game(game).event_labels.get(event_type)
    except KeyError:
        label = None
    return translate(label) if label else event_type


def _card_name(card: dict, language: str) -> str:
    """Return a card's name in ``language`` without its colour."""
    names = card.get("name") or {}
    name = names.get(language) or names.get("en") or card["kind"]
    return _COLOUR_SUFFIX.sub("", name) if card.get("colour") else name


def card_label(game: str, kind: str, attributes: dict | None = None, language: str = "en") -> str:
    """Return the name of the cards a card link matches, read from the game's catalogue."""
    attributes = attributes or {}
    try:
        rules = get_game(game)
    except KeyError:
        rules = None
    group = rules.link_name(kind, attributes) if rules else None
    if group is not None:  # the game's own name for a group of cards
        with translation.override(language):
            return translate(group)
    cards = list(game_catalogue(game).values()) if rules else []
    names = rules.link_attributes if rules else ()
    # The attributes the link names; a link naming none wants a card with none of them.
    wanted = {k: v for k, v in attributes.items() if v} or {name: "" for name in names}
    for card in cards:
        if card["kind"] == kind and all((card.get(k) or "") == v for k, v in wanted.items()):
            return _card_name(card, language)
    for card in cards:
        if card["kind"] == kind:  # a link for every card of a kind: "Purpose: x" gives "Purpose"
            return _card_name(card, language).split(":")[0].strip()
    return ":".join([kind, *(str(v) for _k, v in sorted(attributes.items()))])


def link_label(link: LessonLink, language: str = "en") -> str:
    """Return what a link matches, in words."""
    if not link.event:
        return card_label(link.game, link.kind, link.attributes, language)
    label = event_label(link.game, link.event)
    if link.qualifier:
        qualifier = card_label(link.game, link.qualifier, language=language)
        if qualifier == link.qualifier:  # a cause that is not a card kind
            qualifier = qualifier.replace("_", " ")
        label = f"{label} ({qualifier})"
    if link.card_field:
        label = _("%(event)s: the lesson of the card") % {"event": label}
    return label
