"""Data Monsters' "How to play" for students: the goal, a turn, the lab, tools and
personal data, in short plain sentences (docs/rules/data_monsters.md is the full version)."""

from games.engine.base import HowToPlay
from games.engine.i18n import gettext_noop

HOW_TO_PLAY = (
    HowToPlay(
        gettext_noop("The goal"),
        (
            gettext_noop(
                "You run a data lab full of monsters. Complete challenges to win Big Data points."
            ),
            gettext_noop("A challenge is worth 5 points plus its circles."),
            gettext_noop("The game ends when the last challenge is completed. Most points wins."),
        ),
    ),
    HowToPlay(
        gettext_noop("Your turn"),
        (
            gettext_noop("First your lab's start-of-turn effects happen. Then draw cards."),
            gettext_noop("With more than 6 cards in hand, recycle cards down to 6."),
            gettext_noop("Then play cards in any order, and end your turn."),
            gettext_noop(
                "Tools add TECH and SCI to your build. Unused points are lost at the end."
            ),
            gettext_noop("Complete a market challenge when your build has its TECH and SCI."),
        ),
    ),
    HowToPlay(
        gettext_noop("Your lab"),
        (
            gettext_noop("Monsters and equipment stay in your lab and help every turn."),
            gettext_noop(
                "A Senior replaces the Junior of the same name. A Chief replaces the Senior."
            ),
            gettext_noop("Some cards need a monster of a class in your lab."),
            gettext_noop("Hacks work once, then go to the recycle bin."),
        ),
    ),
    HowToPlay(
        gettext_noop("Special words"),
        (
            gettext_noop("Limit: only one limit card per turn."),
            gettext_noop("Global: the card changes challenges for everyone until your next turn."),
            gettext_noop("Component: it counts only with another component in the same build."),
            gettext_noop("Stack: play it after the components its recipe names."),
            gettext_noop("Interrupt: play it when another player completes a challenge."),
        ),
    ),
    HowToPlay(
        gettext_noop("Personal data"),
        (
            gettext_noop("Some challenges use personal data. They need a safeguard."),
            gettext_noop(
                "Safeguards: pseudonymisation, anonymisation, a DPIA, a data protection officer."
            ),
            gettext_noop("Without a safeguard, the challenge gives 3 points less."),
        ),
    ),
)
