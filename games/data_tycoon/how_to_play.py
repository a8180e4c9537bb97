"""Data-Tycoon's "How to play" for students: the goal, a turn, DATA! and the special
cards, in short plain sentences (docs/rules/data_tycoon.md is the full version)."""

from games.engine.base import HowToPlay, Line
from games.engine.i18n import gettext_noop

# The cards a player may set aside, face down, to counter an attack later.
SET_ASIDE_KINDS = ("lawyer", "cybersecurity", "consent", "minimization", "time", "transparency")

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
            gettext_noop("A Dataset card that matches nothing is laid on the table."),
            gettext_noop(
                "You may lay a card like this only when none of your cards can capture or be "
                "played."
            ),
        ),
    ),
    HowToPlay(
        gettext_noop("DATA!"),
        (
            gettext_noop("Got a Purpose card? Press DATA! at the start of your turn."),
            gettext_noop(
                "Then it is yours: keep it for a Data-Treasure, or play it to freeze 3 cards of "
                "another player."
            ),
            gettext_noop("Too slow? The Purpose card goes to the pile, unused."),
        ),
    ),
    HowToPlay(
        gettext_noop("Attacks and defences"),
        (
            Line(gettext_noop("Sanction: a player loses all their Data-Treasures."), ("sanction",)),
            Line(gettext_noop("A Lawyer stops a Sanction."), ("sanction", "lawyer")),
            Line(
                gettext_noop(
                    "Transparency: a player shows their hand for 3 turns. A Transparency stops it."
                ),
                ("transparency",),
            ),
            Line(
                gettext_noop("Set a card aside, face down, to stop an attack later."),
                any_of=SET_ASIDE_KINDS,
            ),
        ),
        variants=("lawyers", "standard", "expert"),
    ),
    HowToPlay(
        gettext_noop("Data breaches"),
        (
            Line(
                gettext_noop(
                    "Databreach: say DATABREACH! at once and lose your turn. Hide it and you "
                    "lose more."
                ),
                ("databreach",),
            ),
            Line(
                gettext_noop("A Cybersecurity card saves you from a Databreach."),
                ("databreach", "cybersecurity"),
            ),
        ),
        variants=("standard", "expert"),
    ),
    HowToPlay(
        gettext_noop("Expert cards"),
        (
            Line(
                gettext_noop(
                    "Complaint: a player loses 3 Dataset cards that are not in a Data-Treasure."
                ),
                ("complaint",),
            ),
            Line(gettext_noop("A Lawyer stops a Complaint."), ("complaint", "lawyer")),
            Line(gettext_noop("A Consent stops a Complaint."), ("complaint", "consent")),
            Line(
                gettext_noop(
                    "Minimization: a player loses every Dataset card that is not in a "
                    "Data-Treasure. A Minimization stops it."
                ),
                ("minimization",),
            ),
            Line(
                gettext_noop(
                    "Time: a player must soon give up 6 Dataset cards or a Data-Treasure. "
                    "A Time card stops it."
                ),
                ("time",),
            ),
            Line(gettext_noop("Consent: split one Data-Treasure into two."), ("consent",)),
        ),
        variants=("expert",),
    ),
)
