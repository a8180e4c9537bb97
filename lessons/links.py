"""Which lesson a card or an event opens, read from the links stored as data.

A game plugs in its own lessons with a link file in fixtures/lessons/links/; the
code here knows no game. ``game`` is a registered game object or its slug.
"""

from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from django.conf import settings

from classroom.kept import Kept
from games.engine.base import Game
from games.registry import get_game
from lessons.models import Lesson, LessonLink


def _slug(game: Game | str) -> str:
    """Return the game's slug, whether given the game or its slug."""
    return game if isinstance(game, str) else game.slug


@cache
def game_catalogue(slug: str) -> dict[str, dict]:
    """Return every card of every variant of the game, by card id."""
    game = get_game(slug)
    cards = {}
    for variant in game.variants:
        for card in game.cards(variant):
            cards[card["id"]] = card
    return cards


def _key(attributes: dict) -> tuple:
    """Return a link's attributes as a comparable key."""
    return tuple(sorted(attributes.items()))


def card_link(game: Game | str, card: dict) -> LessonLink | None:
    """Return the most specific link that matches the card, or None."""
    slug = _slug(game)
    candidates = LessonLink.objects.filter(game=slug, kind=card["kind"], event="")
    links = {_key(link.attributes): link for link in candidates.select_related("lesson")}
    return _most_specific(slug, card, links)


def _most_specific(slug: str, card: dict, links: dict[tuple, LessonLink]) -> LessonLink | None:
    """Return the most specific of a card kind's links (by attributes) that fits the card."""
    try:
        keys = get_game(slug).link_keys(card)
    except KeyError:  # a game not registered here: only its links by card kind apply
        keys = [{}]
    for attributes in keys:
        link = links.get(_key(attributes))
        if link is not None:
            return link
    return None


def lesson_for_card(game: Game | str, card: dict | str) -> Lesson | None:
    """Return the lesson a card opens (a card dict, or a card id of the game), or None."""
    if isinstance(card, str):
        found = game_catalogue(_slug(game)).get(card)
        if found is None:
            return None
        card = found
    link = card_link(game, card)
    return link.lesson if link else None


def event_qualifier(event: dict) -> str:
    """Return what narrows an event's link: its card kind, else its cause."""
    return event.get("kind") or event.get("cause") or ""


def event_links(game: Game | str, types: Iterable[str]) -> dict[str, dict[str, LessonLink]]:
    """Return the links of the event types ``types``, by type then qualifier, read at
    once (an action's events: one query, not one per event)."""
    found: dict[str, dict[str, LessonLink]] = {event_type: {} for event_type in types}
    links = LessonLink.objects.filter(game=_slug(game), event__in=list(found))
    for link in links.select_related("lesson"):
        found[link.event][link.qualifier] = link
    return found


def event_link(
    game: Game | str, event: dict, links: dict[str, dict[str, LessonLink]] | None = None
) -> LessonLink | None:
    """Return the link of an event: the one for its qualifier first, then the plain one.

    ``links``: the links of the event's type as ``event_links`` read them, if read.
    """
    if links is None or event["type"] not in links:
        links = event_links(game, [event["type"]])
    return _qualified(links[event["type"]], event)


def _qualified(by_qualifier: dict[str, LessonLink], event: dict) -> LessonLink | None:
    """Return, of an event type's links, the one for the event's qualifier, else the plain one."""
    return by_qualifier.get(event_qualifier(event)) or by_qualifier.get("")


def link_lesson(
    game: Game | str,
    link: LessonLink,
    event: dict,
    card_lesson: Callable[[str], Lesson | None] | None = None,
) -> Lesson | None:
    """Return the lesson that ``link`` opens for ``event``.

    A link with a ``card_field`` opens the lesson of the card the event names there, or
    its own lesson when that card opens none. ``card_lesson(card_id)``: how to find a
    card's lesson (default: ``lesson_for_card``, which reads the card's links).
    """
    if link.card_field:
        card_id = event.get(link.card_field)
        if not isinstance(card_id, str):
            return link.lesson
        found = card_lesson(card_id) if card_lesson else lesson_for_card(game, card_id)
        return found or link.lesson
    return link.lesson


def lesson_for_event(game: Game | str, event: dict) -> Lesson | None:
    """Return the lesson an engine event opens, or None when no link names it."""
    link = event_link(game, event)
    return link_lesson(game, link, event) if link is not None else None


def lesson_about_event(game: Game | str, event: dict) -> Lesson | None:
    """Return the lesson a report links an event to: the link's own lesson when it names
    one (what the event is about, whichever card it names), else the lesson of the card
    the event names."""
    link = event_link(game, event)
    if link is None:
        return None
    return link.lesson or link_lesson(game, link, event)


class GameLinks:
    """Every lesson link of one game, read in one query, and the lessons they open: for a
    report that asks about hundreds of events (``lesson_about_event`` reads the links of
    each event it is asked about)."""

    def __init__(self, game: Game | str) -> None:
        self.slug = _slug(game)
        self.events: dict[str, dict[str, LessonLink]] = {}  # type -> qualifier -> link
        self.cards: dict[str, dict[tuple, LessonLink]] = {}  # kind -> attributes -> link
        for link in LessonLink.objects.filter(game=self.slug).select_related("lesson"):
            if link.event:
                self.events.setdefault(link.event, {})[link.qualifier] = link
            else:
                self.cards.setdefault(link.kind, {})[_key(link.attributes)] = link

    def event_link(self, event: dict) -> LessonLink | None:
        """Return the link of an event, as ``event_link`` finds it."""
        return _qualified(self.events.get(event["type"], {}), event)

    def card_lesson(self, card_id: str) -> Lesson | None:
        """Return the lesson a card of the game opens, as ``lesson_for_card`` finds it."""
        card = game_catalogue(self.slug).get(card_id)
        if card is None:
            return None
        link = _most_specific(self.slug, card, self.cards.get(card["kind"], {}))
        return link.lesson if link else None

    def lesson_for_event(self, event: dict) -> Lesson | None:
        """Return the lesson an engine event opens, as ``lesson_for_event`` finds it."""
        link = self.event_link(event)
        return link_lesson(self.slug, link, event, self.card_lesson) if link is not None else None

    def lesson_about_event(self, event: dict) -> Lesson | None:
        """Return the lesson a report links an event to, as ``lesson_about_event`` does."""
        link = self.event_link(event)
        if link is None:
            return None
        return link.lesson or link_lesson(self.slug, link, event, self.card_lesson)


# Live play asks for the links at nearly every move: each process keeps each game's links
# (and the lessons they open, with the texts read for them) for LESSON_LINKS_SECONDS.
# A change saved in this process (the admin, ``content.load``) forgets them at once;
# one made by another process reaches this one within that time.
_kept: Kept[GameLinks] = Kept(lambda: settings.LESSON_LINKS_SECONDS)


def kept_links(game: Game | str) -> GameLinks:
    """Return the game's links as this process keeps them (read again once expired)."""
    slug = _slug(game)
    return _kept.get(slug, lambda: GameLinks(slug))


def forget_kept_links(**kwargs: Any) -> None:
    """Forget the links this process keeps (a signal receiver: a lesson, its text or a
    link was saved or deleted)."""
    _kept.forget()


def lesson_after_card(link: LessonLink) -> Lesson | None:
    """Return the lesson a link opens once its card's lesson was shown at the table: its
    own lesson when it names one besides its ``card_field``, else None."""
    return link.lesson if link.card_field else None


def is_frequent(link: LessonLink) -> bool:
    """Tell whether a link's lesson is a frequent one, shown once per table (see
    ``once_per_table``)."""
    return bool(link.card_field or link.once_per_table)


def once_per_table(game: Game | str, event: dict) -> bool:
    """Tell whether an event's lesson is a frequent one, shown once per table.

    A link that takes its lesson from a card the event names (a capture: the captured
    card's lesson) fires on most turns, and a link file marks other frequent events
    (``"once_per_table": true``); live play shows such a lesson once per table.
    """
    link = event_link(game, event)
    return link is not None and is_frequent(link)
