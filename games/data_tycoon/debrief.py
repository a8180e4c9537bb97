"""What Data-Tycoon adds to the teacher's debrief: the replay's zones and notes, and the
discussion prompts drawn from what happened at a table.

Pure Python like the rules: every sentence is an English template marked for
extraction; the platform translates it in the session's language.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from games.data_tycoon.cards import SIGN
from games.engine import Text, gettext_noop, ngettext_noop
from games.engine.base import Debrief, TableSummary, Zone

if TYPE_CHECKING:
    from games.data_tycoon.rules import State

# Sensitive signs of Dataset cards, as an adjective before "data".
SIGNS = {
    "health": gettext_noop("health"),
    "genetic": gettext_noop("genetic"),
    "biometric": gettext_noop("biometric"),
    "love": gettext_noop("love life"),
    "political": gettext_noop("political opinion"),
    "religious": gettext_noop("religious belief"),
    "judicial": gettext_noop("judicial"),
}
SEAT_ZONES = (
    Zone("hands", gettext_noop("Hand")),
    Zone("reserves", gettext_noop("Reserve (face down)")),
    Zone("collections", gettext_noop("Collection")),
    Zone("frozen", gettext_noop("Frozen")),
    Zone("purposes", gettext_noop("Purposes kept")),
    Zone("consents", gettext_noop("Consents kept")),
)
TABLE_ZONES = (
    Zone("table", gettext_noop("Table")),
    Zone("pile", gettext_noop("Pile (played cards)")),
    Zone("deck", gettext_noop("Deck (top last)"), face_down=True),
)


def seat_notes(data: dict, seat: int) -> list[Text]:
    """Return the replay's notes on a seat: turns to skip, an open hand."""
    notes = []
    if data.get("skips") and data["skips"][seat]:
        turns = data["skips"][seat]
        forms = ngettext_noop("skips %(turns)s turn", "skips %(turns)s turns")
        notes.append(Text.plural_form(forms, turns, {"turns": turns}))
    if data.get("transparent") and data["transparent"][seat]:
        turns = data["transparent"][seat]
        forms = ngettext_noop("open hand for %(turns)s turn", "open hand for %(turns)s turns")
        notes.append(Text.plural_form(forms, turns, {"turns": turns}))
    return notes


def card_groups(data: dict, seat: int) -> list[dict]:
    """Return a seat's Data-Treasures: the Purpose card and the Dataset cards in it."""
    return [
        {
            "title": gettext_noop("Data-Treasure: %(label)s"),
            "label": treasure["label"],
            "cards": list(treasure["cards"]),
        }
        for treasure in data.get("treasures", [])[seat]
    ]


def _signs_text(signs: list[str]) -> list[Text]:
    """Return the (at most three) most frequent sensitive signs (shown joined by commas)."""
    counts = Counter(signs)
    ordered = sorted(counts, key=lambda sign: (-counts[sign], sign))[:3]
    return [Text(SIGNS.get(sign, sign)) for sign in ordered]


class DataTycoonDebrief(Debrief["State"]):
    """Note the sensitive signs each lost treasure held; give the table's prompts."""

    def __init__(self) -> None:
        self.signs: dict[int, list[str]] = {}
        self.losses: list[dict] = []

    def before(self, state: State, seat: int | None, action: dict) -> None:
        """Remember the sensitive signs in every seat's treasures, before they may go."""
        self.signs = {
            s: [SIGN[c] for treasure in state.treasures[s] for c in treasure["cards"] if SIGN[c]]
            for s in range(state.n)
        }

    def after(self, state: State, version: int, events: list[dict]) -> None:
        """Keep each loss of treasures with the signs the lost cards carried."""
        for event in events:
            if event["type"] == "treasures_lost":
                self.losses.append(
                    {
                        "move": version,
                        "seat": event.get("seat"),
                        "cause": event.get("cause"),
                        "treasures": event.get("treasures", 0),
                        # dict.get takes any key (typeshed wants an int): no seat, no signs
                        "signs": self.signs.get(event.get("seat"), []),  # type: ignore[arg-type]
                    }
                )

    def prompts(self, table: TableSummary) -> list[Text]:
        """Return one prompt per kind of striking event at the table."""
        prompts = [self._sanction(table)]
        number = table.number
        hidden = table.first("databreach_discovered")
        if hidden:
            prompts.append(
                Text(
                    gettext_noop(
                        "At table %(table)s %(player)s kept a data breach quiet and it came "
                        "out anyway: why does Article 33 ask for a report within 72 hours, and "
                        "what did hiding it cost?"
                    ),
                    {"table": number, "player": table.name(hidden.get("seat"))},
                )
            )
        reported = table.first("databreach_called")
        if reported and not hidden:
            prompts.append(
                Text(
                    gettext_noop(
                        "At table %(table)s %(player)s reported a data breach at once: which "
                        "security measures (Article 32) would have stopped it from happening?"
                    ),
                    {"table": number, "player": table.name(reported.get("seat"))},
                )
            )
        complaint = table.first("datasets_returned", cause="complaint")
        if complaint:
            prompts.append(
                Text(
                    gettext_noop(
                        "At table %(table)s a Complaint cost %(player)s %(count)s Dataset "
                        "cards: what can a person do when a company misuses their data "
                        "(Articles 17 and 77)?"
                    ),
                    {
                        "table": number,
                        "player": table.name(complaint.get("seat")),
                        "count": complaint.get("count", 0),
                    },
                )
            )
        minimization = table.first("datasets_returned", cause="minimization")
        if minimization:
            prompts.append(
                Text(
                    gettext_noop(
                        "At table %(table)s Minimization sent all of %(player)s's loose "
                        "Dataset cards back: which of that data did the company really need "
                        "(Article 5(1)(c))?"
                    ),
                    {"table": number, "player": table.name(minimization.get("seat"))},
                )
            )
        time_up = table.first("time_up")
        if time_up:
            prompts.append(
                Text(
                    gettext_noop(
                        "At table %(table)s a Time deadline ran out for %(player)s: how long "
                        "may a company keep personal data (Article 5(1)(e)), and who decides?"
                    ),
                    {"table": number, "player": table.name(time_up.get("seat"))},
                )
            )
        consent = table.first("treasure_split") or table.first("countered", kind="consent")
        if consent:
            prompts.append(
                Text(
                    gettext_noop(
                        "At table %(table)s %(player)s used Consent: what makes a consent "
                        "valid (Article 7), and can it be taken back?"
                    ),
                    {"table": number, "player": table.name(consent.get("seat"))},
                )
            )
        lawyer = table.first("countered", kind="lawyer")
        if lawyer:
            prompts.append(
                Text(
                    gettext_noop(
                        "At table %(table)s a Lawyer saved %(player)s: what must a company be "
                        "able to prove to the authority (Article 5(2), accountability)?"
                    ),
                    {"table": number, "player": table.name(lawyer.get("seat"))},
                )
            )
        transparency = table.first("transparency")
        if transparency:
            prompts.append(
                Text(
                    gettext_noop(
                        "At table %(table)s %(player)s had to play with an open hand: what "
                        "must a company tell people about their data (Articles 13 and 14)?"
                    ),
                    {"table": number, "player": table.name(transparency.get("seat"))},
                )
            )
        return [prompt for prompt in prompts if prompt is not None]

    def _sanction(self, table: TableSummary) -> Text | None:
        """A Sanction wiped treasures: ask about sensitive data and what prevents a fine."""
        losses = [loss for loss in self.losses if loss["cause"] == "sanction"]
        if not losses:
            return None
        loss = max(losses, key=lambda item: (len(item["signs"]), item["treasures"]))
        count = loss["treasures"]
        params = {"table": table.number, "count": count}
        if loss["signs"]:
            params["signs"] = _signs_text(loss["signs"])
            return Text.plural_form(
                ngettext_noop(
                    # Judicial data is protected by Article 10, the other signs by
                    # Article 9: the question leaves the students to find which applies.
                    "At table %(table)s a Sanction wiped %(count)s Data-Treasure built from "
                    "%(signs)s data: which GDPR articles protect such data, and what could have "
                    "prevented the fine?",
                    "At table %(table)s a Sanction wiped %(count)s Data-Treasures built from "
                    "%(signs)s data: which GDPR articles protect such data, and what could "
                    "have prevented the fine?",
                ),
                count,
                params,
            )
        return Text.plural_form(
            ngettext_noop(
                "At table %(table)s a Sanction wiped %(count)s Data-Treasure: what could the "
                "company have done to avoid the fine (Articles 58 and 83)?",
                "At table %(table)s a Sanction wiped %(count)s Data-Treasures: what could the "
                "company have done to avoid the fine (Articles 58 and 83)?",
            ),
            count,
            params,
        )

    def winner_prompt(self, table: TableSummary) -> Text | None:
        """The winner's tally: was it fair play?"""
        if not table.over or not table.winners:
            return None
        best = min(table.ranks, key=lambda seat: table.ranks[seat])
        score = table.scores[best]
        return Text.plural_form(
            ngettext_noop(
                "At table %(table)s %(player)s won with %(treasures)s Data-Treasure and "
                "%(sensitive)s sensitive cards: would a data protection authority agree it was "
                "all lawful?",
                "At table %(table)s %(player)s won with %(treasures)s Data-Treasures and "
                "%(sensitive)s sensitive cards: would a data protection authority agree it was "
                "all lawful?",
            ),
            score["treasures"],
            {
                "table": table.number,
                "player": ", ".join(table.winners),
                "treasures": score["treasures"],
                "sensitive": score["sensitive"],
            },
        )
