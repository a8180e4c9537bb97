"""Conspiranoia's "How to play" for students: the goal, a turn, defending and the
special cards, in short plain sentences (docs/rules/conspiranoia.md is the full version)."""

from games.engine.base import HowToPlay
from games.engine.i18n import gettext_noop

HOW_TO_PLAY = (
    HowToPlay(
        gettext_noop("The goal"),
        (
            gettext_noop("Be the last player with life points."),
            gettext_noop("First choose a character. Only you can use its Avatar cards."),
        ),
    ),
    HowToPlay(
        gettext_noop("Your turn"),
        (
            gettext_noop(
                "Play 3 cards of the same kind, from your hand and the table. At least "
                "one must come from your hand."
            ),
            gettext_noop("3 Attack cards hit a player for 3 points."),
            gettext_noop("3 Special Attack cards hit for 6 points. Nobody can stop them."),
            gettext_noop("3 Defence cards heal you by 1 point."),
            gettext_noop("If you cannot attack, put one card on the table."),
        ),
    ),
    HowToPlay(
        gettext_noop("When you are attacked"),
        (
            gettext_noop(
                "Answer with 3 Defence cards: they stop 3 points of an Attack. Or take the hit."
            ),
        ),
    ),
    HowToPlay(
        gettext_noop("Special cards"),
        (
            gettext_noop("Bonus: counts as an Attack card (2 points) or a Defence card (1 point)."),
            gettext_noop("Avatar: add one of your Avatar cards to double an attack or a defence."),
        ),
    ),
    HowToPlay(
        gettext_noop("Rounds"),
        (
            gettext_noop("Each round, everyone gets 3 cards and 4 cards go on the table."),
            gettext_noop("When your hand is empty, wait for the next round."),
        ),
    ),
)
