"""Data Thief's "How to play" for students: the goal, the two roles' turns, attacks
and measures, in short plain sentences (docs/rules/data_thief.md is the full version)."""

from games.engine.base import HowToPlay
from games.engine.i18n import gettext_noop

HOW_TO_PLAY = (
    HowToPlay(
        gettext_noop("The goal"),
        (
            gettext_noop("One player is the data thief. The others are data managers."),
            gettext_noop("Managers protect their data. The thief tries to steal it."),
            gettext_noop(
                "At the end, the player with the most points wins. Each data card counts "
                "its points."
            ),
        ),
    ),
    HowToPlay(
        gettext_noop("Your turn"),
        (
            gettext_noop("Manager: draw a card, then lay one card on your paper or digital board."),
            gettext_noop("A board holds 3 cards. Its first card must be a data card."),
            gettext_noop("Security measures go face down. They protect the whole board."),
            gettext_noop("If no card fits, discard one."),
            gettext_noop("Thief: draw an attack card, then attack one board of a manager."),
            gettext_noop("The thief plays from the third round on."),
            gettext_noop("In the first two rounds, managers lay only data cards."),
        ),
    ),
    HowToPlay(
        gettext_noop("Attacks and measures"),
        (
            gettext_noop(
                "A paper attack hits a paper board. A digital attack hits a digital board."
            ),
            gettext_noop("Each attack card says which measures stop it."),
            gettext_noop("If a measure on the board stops it, the measure is turned face up."),
            gettext_noop("You may also stop it with a measure from your hand."),
            gettext_noop("A manager who stops an attack keeps the card: 10 points."),
            gettext_noop("Otherwise the thief takes the data cards the attack names."),
            gettext_noop("Some attacks steal nothing: the manager misses 1 or 2 turns instead."),
        ),
    ),
    HowToPlay(
        gettext_noop("Experts"),
        (gettext_noop("A successful attack takes every data card of one category on the board."),),
        variants=("expert",),
    ),
)
