"""Data-Tycoon's "How to play" for students: the goal, a turn, DATA! and the special
cards, in short plain sentences (docs/rules/data_tycoon.md is the full version)."""

from games.engine.base import HowToPlay
from games.engine.i18n import gettext_noop

HOW_TO_PLAY = (
    HowToPlay(
        gettext_noop("The goal"),
        (
            gettext_noop("Build the most Data-Treasures."),
            gettext_noop(
                "A Data-Treasure is one Purpose card and six Dataset cards of one colour "
                "(or six sensitive cards)."
            ),
            gettext_noop(
                "The game ends when the deck and every hand are empty. In a tie, the "
                "player with more sensitive cards wins."
            ),
        ),
    ),
    HowToPlay(
        gettext_noop("Your turn"),
        (
            gettext_noop("You play one card. Before or after it, you may build a Data-Treasure."),
            gettext_noop(
                "A Dataset card takes one table card of the same colour or the same "
                "sensitive sign. Both go to your collection."
            ),
            gettext_noop("If it matches nothing, it stays on the table."),
            gettext_noop("You may do that only when no card of yours can capture or be used."),
        ),
    ),
    HowToPlay(
        gettext_noop("DATA!"),
        (
            gettext_noop("Got a Purpose card? Press DATA! at the start of your turn."),
            gettext_noop("If you are too slow, you lose the Purpose card."),
            gettext_noop(
                "Then keep it for a Data-Treasure, or play it to freeze 3 cards of another player."
            ),
        ),
    ),
    HowToPlay(
        gettext_noop("Sanction and Lawyer"),
        (
            gettext_noop("Sanction: a player loses all their Data-Treasures. A Lawyer stops it."),
            gettext_noop("Set a card aside, face down, to stop an attack later."),
        ),
        variants=("lawyers", "standard", "expert"),
    ),
    HowToPlay(
        gettext_noop("Transparency and data breaches"),
        (
            gettext_noop(
                "Transparency: a player shows their hand for 3 turns. A Transparency stops it."
            ),
            gettext_noop(
                "Databreach: say DATABREACH! at once and lose your turn (a Cybersecurity "
                "card saves it). Hide it and you lose more."
            ),
        ),
        variants=("standard", "expert"),
    ),
    HowToPlay(
        gettext_noop("Expert cards"),
        (
            gettext_noop(
                "Complaint: a player loses 3 Dataset cards that are not in a Data-Treasure. "
                "A Lawyer or a Consent stops it."
            ),
            gettext_noop(
                "Minimization: a player loses every Dataset card that is not in a "
                "Data-Treasure. A Minimization stops it."
            ),
            gettext_noop(
                "Time: a player must soon give up 6 Dataset cards or a Data-Treasure. "
                "A Time card stops it."
            ),
            gettext_noop("Consent: split one Data-Treasure into two."),
        ),
        variants=("expert",),
    ),
)
