"""Seeded games of one game with the lessons they open: what the reachability tests of
every game share."""

import random
from collections.abc import Callable

from games.engine.base import Game
from games.engine.driver import play
from lessons.models import LessonLink
from lessons.moments import lessons_opened

# The search bot is slow and opens no lesson the others do not.
BOT_NAMES = ("heuristic", "random")


def linked_lessons(game: Game) -> set[str]:
    """Return the slugs of every lesson a link of ``game`` names."""
    links = LessonLink.objects.filter(game=game.slug).select_related("lesson")
    return {link.lesson.slug for link in links if link.lesson is not None}


def play_tables(
    game: Game, games: int, expire: float, options: Callable[[int], dict] | None = None
) -> tuple[dict[str, int], set[str]]:
    """Play ``games`` seeded games over every variant and table size; return how often
    each lesson opened (once per table at most), and the event types that opened one.

    ``expire``: the share of moves before which the referee fires a timer;
    ``options(i)``: the options of game ``i``.
    """
    shown: dict[str, int] = {}
    events_seen: set[str] = set()
    variants = list(game.variants)
    for i in range(games):
        variant = variants[i % len(variants)]
        players = game.min_players + i % (game.max_players - game.min_players + 1)
        state = game.new_state(players, i, variant, options(i) if options else None)
        bots = [game.bot(BOT_NAMES[(s + i) % len(BOT_NAMES)]) for s in range(players)]
        seen: set[int] = set()

        def on_step(seat, action, events, seen=seen):
            for lesson, event, _seats in lessons_opened(game, events, lambda x: x.pk in seen):
                seen.add(lesson.pk)
                shown[lesson.slug] = shown.get(lesson.slug, 0) + 1
                events_seen.add(event["type"])

        play(state, bots, random.Random(i), expire=expire, on_step=on_step)
    return shown, events_seen
