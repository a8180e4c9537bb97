"""The games a teacher may launch, read from games.registry."""

from django.utils.translation import get_language, gettext

from games.engine.base import Game
from games.engine.bots import LEVELS
from games.registry import all_games


def available_games() -> list[Game]:
    """Return the registered games a teacher may launch: those whose board exists
    (``Game.in_class``)."""
    games = all_games()
    if isinstance(games, dict):
        games = games.values()
    return [game for game in games if getattr(game, "in_class", True)]


def bot_for_level(game: Game, level: str) -> str | None:
    """Return the kind of the game's bot that plays at ``level`` (games.engine.bots.LEVELS),
    or None when the game has no bot of that level."""
    for kind, bot in getattr(game, "bots", {}).items():
        if getattr(bot, "level", "") == level:
            return kind
    return None


def bot_levels(game: Game) -> list[str]:
    """Return the levels the game's bots offer, in the order of LEVELS."""
    return [level for level in LEVELS if bot_for_level(game, level)]


def find_game(slug: str) -> Game | None:
    """Return the game a teacher may launch with this slug, or None."""
    for game in available_games():
        if game.slug == slug:
            return game
    return None


def deck_games() -> list[Game]:
    """Return the registered games with deck building (``Game.deck_option``), offered on
    the session form or not yet: a teacher may build decks before the board exists."""
    games = all_games()
    games = games.values() if isinstance(games, dict) else games
    return [game for game in games if getattr(game, "deck_option", "")]


def find_deck_game(slug: str) -> Game | None:
    """Return the game with deck building registered as ``slug``, or None."""
    for game in deck_games():
        if game.slug == slug:
            return game
    return None


def _registered(slug: str) -> Game | None:
    """Return the registered game with this slug, offered on the form or not, or None."""
    games = all_games()
    for game in games.values() if isinstance(games, dict) else games:
        if game.slug == slug:
            return game
    return None


def localized(labels: str | dict[str, str], language: str | None = None) -> str:
    """Return a {language: label} mapping's label in the language, else English."""
    if isinstance(labels, str):
        return labels
    language = (language or get_language() or "en")[:2]
    return labels.get(language) or labels.get("en") or next(iter(labels.values()), "")


def game_name(slug: str, language: str | None = None) -> str:
    """Return a game's name in the language, or its slug when it is not registered."""
    game = _registered(slug) or find_game(slug)
    return localized(game.name, language) if game else slug


def bot_level_label(slug: str, kind: str) -> str:
    """Return the level of a game's bot kind as a teacher reads it ("Strong"), or ""."""
    game = find_game(slug)
    level = getattr(game.bots.get(kind), "level", "") if game is not None else ""
    return gettext(LEVELS[level][0]) if level in LEVELS else ""


def variant_label(slug: str, variant: str, language: str | None = None) -> str:
    """Return a variant's label in the language, or its slug."""
    game = _registered(slug) or find_game(slug)
    if game is None or variant not in game.variants:
        return variant
    return localized(game.variants[variant], language)
