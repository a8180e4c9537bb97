"""A game's words in the player's language: card names, event lines, its Text sentences.

The one place where the platform turns what a game declares (English templates marked
with ``gettext_noop``, :class:`~games.engine.i18n.Text`) into translated sentences.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.utils.translation import get_language, gettext, ngettext

from games.engine import Text
from games.engine.i18n import Plural
from games.registry import get_game

logger = logging.getLogger(__name__)
LANGUAGE_CODES = {code for code, _name in settings.LANGUAGES}


def translate(text: Text | str) -> str:
    """Return ``text`` in the active language (a Text's parameters translated first)."""
    if isinstance(text, str):
        return gettext(text) if text else ""
    params = {key: _param(value) for key, value in text.params.items()}
    if text.plural:
        return ngettext(text.message, text.plural, text.count) % params
    return gettext(text.message) % params if params else gettext(text.message)


def _param(value):
    """Return a Text parameter ready for ``%``: Texts translated, lists joined."""
    if isinstance(value, Text):
        return translate(value)
    if isinstance(value, list):
        return ", ".join(str(_param(item)) for item in value)
    if isinstance(value, dict):  # names by language, as the game's fixture gives them
        return value.get((get_language() or "en").split("-")[0]) or value.get("en", "")
    return value


def how_to_play(game_slug: str, variant: str, options: dict | None = None) -> list[dict]:
    """Return a game's "How to play" for ``variant`` (and the session's ``options``: the
    cards a teacher left out) in the active language: ``{"heading", "lines"}`` per
    section (none for a game not registered)."""
    try:
        game = get_game(game_slug)
    except KeyError:
        return []
    kinds = game.dealt_kinds(variant, options)
    shown = []
    for section in game.how_to_play:
        lines = section.lines_for(kinds) if section.applies_to(variant) else []
        if lines:
            shown.append(
                {"heading": translate(section.heading), "lines": [translate(x) for x in lines]}
            )
    return shown


# Bounded: a deck is a game, a variant and the kinds its session deals (a variant with
# nine special kinds a teacher may leave out makes 512 decks alone), and a catalogue
# weighs a few hundred KB.
@lru_cache(maxsize=32)
def catalogue(game_slug: str, variant: str, kinds: frozenset[str] | None = None) -> dict[str, dict]:
    """Return ``{card id: card dict}`` of a game's variant, its texts worded for a deck
    of ``kinds`` (default: the variant's whole deck)."""
    return {card["id"]: card for card in get_game(game_slug).cards(variant, kinds)}


def dealt_kinds(game_slug: str, variant: str, options: dict | None) -> frozenset[str]:
    """Return the card kinds a match of ``variant`` with ``options`` deals."""
    return _dealt_kinds(game_slug, variant, json.dumps(options or {}, sort_keys=True))


@lru_cache(maxsize=256)  # a game may list its whole catalogue to tell: once per session
def _dealt_kinds(game_slug: str, variant: str, options: str) -> frozenset[str]:
    return frozenset(get_game(game_slug).dealt_kinds(variant, json.loads(options)))


@lru_cache(maxsize=128)
def catalogue_in(
    game_slug: str, variant: str, language: str, kinds: frozenset[str] | None = None
) -> dict[str, dict]:
    """Return the catalogue with each of a card's texts (``{language code: text}``) in
    ``language`` only, or in English where it has none: what a ``hello`` carries, a
    third of the catalogue in every language (a socket shows one language; a page that
    switches language opens a new socket)."""
    return {
        card_id: {field: card_text_in(value, language) for field, value in card.items()}
        for card_id, card in catalogue(game_slug, variant, kinds).items()
    }


def card_text_in(value: Any, language: str) -> Any:
    """Return ``value`` in ``language`` alone if it is a text in every language."""
    if not isinstance(value, dict) or "en" not in value or not set(value) <= LANGUAGE_CODES:
        return value
    return {language: value[language]} if language in value else {"en": value["en"]}


def card_namer(game_slug: str, variant: str, language: str) -> Callable[[str], str]:
    """Return a function giving a card's name in ``language`` (its id if unknown)."""
    cards = catalogue(game_slug, variant)

    def card_name(card_id: str) -> str:
        names = cards.get(card_id, {}).get("name") or {}
        return names.get(language) or names.get("en") or str(card_id)

    return card_name


def event_line(
    game_slug: str,
    event: dict,
    player_name: Callable[[int], str] | None,
    card_name: Callable[[str], str] | None,
) -> str | None:
    """Return an event's log line in the active language, or None if the game has none."""
    try:
        template, params = get_game(game_slug).describe_event(event, player_name, card_name)
    except (KeyError, TypeError, ValueError, NotImplementedError):
        logger.warning("no log line for event %r", event)
        return None
    if isinstance(template, Plural):
        return ngettext(template.singular, template.plural, template.count) % params
    return gettext(template) % params
