"""What Data Monsters adds to the teacher's debrief: each table's challenges completed
with or without a safeguard, the safeguards played (each with its lesson), the
interrupts played, and the discussion prompts drawn from them.

Pure Python like the rules: every sentence is an English template marked for
extraction; card names go as their fixture's names by language, which the platform
shows in the session's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from games.data_monsters.cards import BY_ID, PENALTY
from games.engine import Text, gettext_noop, ngettext_noop
from games.engine.base import Debrief, TableSummary, Tally

if TYPE_CHECKING:
    from games.data_monsters.rules import State

# The events that put a safeguard in play (a Senior Dora joins the lab by promotion).
SAFEGUARD_EVENTS = ("tool", "hack", "promoted", "hired")

# How often the safeguard was played, in the prompts below.
TIMES = ngettext_noop("%(count)s time", "%(count)s times")
# What each safeguard asks the class, with its articles.
SAFEGUARD_QUESTIONS = {
    "pseudonymisation": gettext_noop(
        "At table %(table)s the safeguard played most was %(card)s, %(times)s: is "
        "pseudonymised data still personal data, and who could put the names back "
        "(Articles 4(5) and 25)?"
    ),
    "anonymisation": gettext_noop(
        "At table %(table)s the safeguard played most was %(card)s, %(times)s: when "
        "is data truly anonymous, so that the GDPR no longer applies (Recital 26)?"
    ),
    "differential_privacy": gettext_noop(
        "At table %(table)s the safeguard played most was %(card)s, %(times)s: how "
        "does a little noise in a statistic protect each person in it (Article 25)?"
    ),
    "data_minimisation": gettext_noop(
        "At table %(table)s the safeguard played most was %(card)s, %(times)s: which "
        "data did the challenges really need, and which could have stayed uncollected "
        "(Article 5(1)(c))?"
    ),
    "dpia": gettext_noop(
        "At table %(table)s the safeguard played most was %(card)s, %(times)s: when "
        "must a company assess the risks to people before it processes their data "
        "(Article 35)?"
    ),
}
DPO_QUESTION = gettext_noop(
    "At table %(table)s the safeguard played most was %(card)s, %(times)s: what does "
    "a Data Protection Officer do in a company, and who may ask them for help "
    "(Articles 37 to 39)?"
)

# The parts of an interrupt's summary line, each shown only when its number is not 0.
INTERRUPT_OUTCOMES = (
    (
        "stopped",
        ngettext_noop(
            "%(count)s completion stopped, its TECH and SCI spent",
            "%(count)s completions stopped, their TECH and SCI spent",
        ),
    ),
    (
        "blocked",
        ngettext_noop(
            "%(count)s challenge blocked for the turn",
            "%(count)s challenges blocked for the turn",
        ),
    ),
    (
        "anyway",
        ngettext_noop(
            "%(count)s challenge completed anyway, for 1 TECH and 1 SCI more",
            "%(count)s challenges completed anyway, for 1 TECH and 1 SCI more",
        ),
    ),
)


@dataclass
class Interrupt:
    """One interrupt played against a completion, and what came of it."""

    event: dict  # the "interrupted" event (its lesson is the interrupt card's)
    outcome: str  # "stopped" (a complaint), "blocked" or "anyway" (a scope creep)

    @property
    def key(self) -> str:
        return BY_ID[self.event["card"]]["key"]


def _names(challenges: list[dict]) -> list[dict]:
    """Return the card names of the ``completed`` events, each challenge once."""
    return list({e["challenge"]: BY_ID[e["challenge"]]["name"] for e in challenges}.values())


class DataMonstersDebrief(Debrief["State"]):
    """Note each completion, safeguard and interrupt; sum them up; draw the prompts."""

    tally_heading = gettext_noop("Challenges, safeguards and interrupts")

    def __init__(self) -> None:
        self.completed: list[dict] = []  # the "completed" events
        self.safeguards: list[dict] = []  # the events that put a safeguard in play
        self.interrupts: list[Interrupt] = []

    def after(self, state: State, version: int, events: list[dict]) -> None:
        """Note the completions, the safeguards played and the interrupts' outcomes."""
        for i, event in enumerate(events):
            kind = event["type"]
            if kind == "completed":
                self.completed.append(event)
            elif kind in SAFEGUARD_EVENTS and BY_ID[event["card"]]["safeguard"]:
                self.safeguards.append(event)
            elif kind == "interrupted":
                rest = [e["type"] for e in events[i + 1 :]]
                if BY_ID[event["card"]]["interrupt"] == "complaint":
                    outcome = "stopped"
                else:
                    outcome = "anyway" if "completed" in rest else "blocked"
                self.interrupts.append(Interrupt(event, outcome))

    def _personal(self, safe: bool) -> list[dict]:
        """Return the completions of personal-data challenges, safeguarded or not."""
        return [
            e for e in self.completed if BY_ID[e["challenge"]]["personal"] and e["safe"] == safe
        ]

    def tally(self, table: TableSummary) -> list[Tally]:
        """Return the completions by safeguard, then each safeguard and interrupt played."""
        lines = []
        safe, unsafe = self._personal(True), self._personal(False)
        other = [e for e in self.completed if not BY_ID[e["challenge"]]["personal"]]
        if safe:
            text = Text.plural_form(
                ngettext_noop(
                    "%(count)s personal-data challenge completed with a safeguard: %(challenges)s.",
                    "%(count)s personal-data challenges completed with a safeguard: "
                    "%(challenges)s.",
                ),
                len(safe),
                {"count": len(safe), "challenges": _names(safe)},
            )
            lines.append(Tally(text, safe[0]))
        if unsafe:
            text = Text.plural_form(
                ngettext_noop(
                    "%(count)s personal-data challenge completed without a safeguard: "
                    "%(challenges)s; %(points)s Big Data points lost (Articles 25 and 35).",
                    "%(count)s personal-data challenges completed without a safeguard: "
                    "%(challenges)s; %(points)s Big Data points lost (Articles 25 and 35).",
                ),
                len(unsafe),
                {
                    "count": len(unsafe),
                    "challenges": _names(unsafe),
                    "points": PENALTY * len(unsafe),
                },
            )
            lines.append(Tally(text, unsafe[0]))
        if other:
            text = Text.plural_form(
                ngettext_noop(
                    "%(count)s challenge without personal data completed: %(challenges)s.",
                    "%(count)s challenges without personal data completed: %(challenges)s.",
                ),
                len(other),
                {"count": len(other), "challenges": _names(other)},
            )
            lines.append(Tally(text, other[0]))
        for events in self._safeguards_by_key().values():
            text = Text.plural_form(
                ngettext_noop(
                    "%(card)s, a safeguard played %(count)s time.",
                    "%(card)s, a safeguard played %(count)s times.",
                ),
                len(events),
                {"card": BY_ID[events[0]["card"]]["name"], "count": len(events)},
            )
            lines.append(Tally(text, events[0]))
        for interrupts in self._interrupts_by_key().values():
            parts = [
                Text.plural_form(forms, number, {"count": number})
                for outcome, forms in INTERRUPT_OUTCOMES
                if (number := sum(i.outcome == outcome for i in interrupts))
            ]
            text = Text.plural_form(
                ngettext_noop(
                    "%(card)s, %(count)s interrupt: %(outcomes)s.",
                    "%(card)s, %(count)s interrupts: %(outcomes)s.",
                ),
                len(interrupts),
                {
                    "card": BY_ID[interrupts[0].event["card"]]["name"],
                    "count": len(interrupts),
                    "outcomes": parts,
                },
            )
            lines.append(Tally(text, interrupts[0].event))
        return lines

    def _safeguards_by_key(self) -> dict[str, list[dict]]:
        """Return the safeguard events by card key, the most played first."""
        groups: dict[str, list[dict]] = {}
        for event in self.safeguards:
            groups.setdefault(BY_ID[event["card"]]["key"], []).append(event)
        return dict(sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])))

    def _interrupts_by_key(self) -> dict[str, list[Interrupt]]:
        """Return the interrupts by card key, the most played first."""
        groups: dict[str, list[Interrupt]] = {}
        for interrupt in self.interrupts:
            groups.setdefault(interrupt.key, []).append(interrupt)
        return dict(sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])))

    def prompts(self, table: TableSummary) -> list[Text]:
        """Return one prompt per kind of striking event at the table, points lost first."""
        prompts = [
            self._unsafe(table),
            self._complaint(table),
            self._scope_creep(table),
            self._safeguard(table),
            self._all_safe(table),
        ]
        return [prompt for prompt in prompts if prompt is not None]

    def _unsafe(self, table: TableSummary) -> Text | None:
        """Personal data processed without a safeguard: the richest such challenge."""
        unsafe = self._personal(False)
        if not unsafe:
            return None
        event = max(unsafe, key=lambda e: BY_ID[e["challenge"]]["points"])
        return Text.plural_form(
            ngettext_noop(
                "At table %(table)s %(player)s completed %(challenge)s without a safeguard "
                "(%(count)s personal-data challenge at the table went without one): which "
                "safeguard would have protected the people in the data, and why plan it "
                "from the start (Articles 25 and 35)?",
                "At table %(table)s %(player)s completed %(challenge)s without a safeguard "
                "(%(count)s personal-data challenges at the table went without one): which "
                "safeguard would have protected the people in the data, and why plan it "
                "from the start (Articles 25 and 35)?",
            ),
            len(unsafe),
            {
                "table": table.number,
                "player": table.name(event["seat"]),
                "challenge": BY_ID[event["challenge"]]["name"],
                "count": len(unsafe),
            },
        )

    def _complaint(self, table: TableSummary) -> Text | None:
        """A Complaint to the Authority: what a supervisory authority may do."""
        found = next((i for i in self.interrupts if i.outcome == "stopped"), None)
        if found is None:
            return None
        event = found.event
        return Text(
            gettext_noop(
                "At table %(table)s %(player)s filed a Complaint to the Authority against "
                "%(target)s for %(challenge)s: who may complain, and what can the "
                "supervisory authority do about it (Articles 77 and 58)?"
            ),
            {
                "table": table.number,
                "player": table.name(event["seat"]),
                "target": table.name(event["target"]),
                "challenge": BY_ID[event["challenge"]]["name"],
            },
        )

    def _scope_creep(self, table: TableSummary) -> Text | None:
        """Scope Creep: data used for more than its purpose."""
        found = next((i for i in self.interrupts if i.outcome != "stopped"), None)
        if found is None:
            return None
        event = found.event
        return Text(
            gettext_noop(
                "At table %(table)s %(player)s played Scope Creep on %(challenge)s of "
                "%(target)s: why may data be used only for the purpose it was collected for "
                "(Article 5(1)(b))?"
            ),
            {
                "table": table.number,
                "player": table.name(event["seat"]),
                "target": table.name(event["target"]),
                "challenge": BY_ID[event["challenge"]]["name"],
            },
        )

    def _safeguard(self, table: TableSummary) -> Text | None:
        """The safeguard played most: what it does for the people in the data."""
        groups = self._safeguards_by_key()
        if not groups:
            return None
        key, events = next(iter(groups.items()))
        return Text(
            SAFEGUARD_QUESTIONS.get(key, DPO_QUESTION),
            {
                "table": table.number,
                "card": BY_ID[events[0]["card"]]["name"],
                "times": Text.plural_form(TIMES, len(events), {"count": len(events)}),
            },
        )

    def _all_safe(self, table: TableSummary) -> Text | None:
        """Every personal-data challenge safeguarded: privacy by design, in practice."""
        safe = self._personal(True)
        if not safe or self._personal(False):
            return None
        return Text.plural_form(
            ngettext_noop(
                "At table %(table)s the %(count)s personal-data challenge was completed with a "
                "safeguard: what does privacy by design change for the people in the data "
                "(Article 25)?",
                "At table %(table)s all %(count)s personal-data challenges were completed with "
                "a safeguard: what does privacy by design change for the people in the data "
                "(Article 25)?",
            ),
            len(safe),
            {"table": table.number, "count": len(safe)},
        )

    def winner_prompt(self, table: TableSummary) -> Text | None:
        """The winner's points and how many of their personal-data challenges were safe."""
        if not table.over:
            return None
        seat = min(table.ranks, key=lambda s: (table.ranks[s], s))
        mine = [e for e in self.completed if e["seat"] == seat]
        personal = [e for e in mine if BY_ID[e["challenge"]]["personal"]]
        params = {
            "table": table.number,
            "player": table.name(seat),
            "points": table.scores[seat]["points"],
            "safe": sum(e["safe"] for e in personal),
            "count": len(personal),
        }
        if not personal:
            return Text(
                gettext_noop(
                    "At table %(table)s %(player)s won with %(points)s Big Data points and no "
                    "challenge on personal data: can a data lab avoid personal data, and when "
                    "is data personal (Article 4(1))?"
                ),
                params,
            )
        return Text.plural_form(
            ngettext_noop(
                "At table %(table)s %(player)s won with %(points)s Big Data points, "
                "%(safe)s of %(count)s personal-data challenge safeguarded: did protecting "
                "the data cost the winner points, or help?",
                "At table %(table)s %(player)s won with %(points)s Big Data points, "
                "%(safe)s of %(count)s personal-data challenges safeguarded: did protecting "
                "the data cost the winner points, or help?",
            ),
            len(personal),
            params,
        )
