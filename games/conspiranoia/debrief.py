"""What Conspiranoia adds to the teacher's debrief: discussion prompts drawn from what
happened at a table, each tied to the lesson its cards and characters open.

Pure Python like the rules: every sentence is an English template marked for
extraction; the platform translates it in the session's language.
"""

from __future__ import annotations

from collections import Counter

from games.engine import Text, gettext_noop, ngettext_noop
from games.engine.base import Debrief, TableSummary

# A player attacked this often became the table's target: a prompt on profiling.
TARGETED = 3


class ConspiranoiaDebrief(Debrief):
    """Give the table's prompts: micro-targeting, profiling, objection, the characters."""

    def prompts(self, table: TableSummary) -> list[Text]:
        """Return one prompt per kind of striking event at the table."""
        found = [
            self._special_attack(table),
            self._most_targeted(table),
            self._blocked(table),
            self._investigators(table),
            self._men_in_black(table),
        ]
        return [prompt for prompt in found if prompt is not None]

    def _special_attack(self, table: TableSummary) -> Text | None:
        """A Special Attack nothing stops: political opinions and micro-targeting."""
        hit = table.first("special_attack")
        if hit is None:
            return None
        return Text(
            gettext_noop(
                "At table %(table)s %(player)s hit %(target)s with a Special Attack that no "
                "Defence stops: why are political opinions special data (Article 9), and what "
                "made the Cambridge Analytica micro-targeting unlawful?"
            ),
            {
                "table": table.number,
                "player": table.name(hit.get("seat")),
                "target": table.name(hit.get("target")),
            },
        )

    def _most_targeted(self, table: TableSummary) -> Text | None:
        """One player attacked again and again: profiling and automated decisions."""
        targets = Counter(
            event["target"]  # the filter below asks for a target that is not None
            for _version, event in table.events
            if event["type"] in ("attack", "special_attack") and event.get("target") is not None
        )
        if not targets:
            return None
        target, times = max(targets.items(), key=lambda item: (item[1], -item[0]))
        if times < TARGETED:
            return None
        return Text.plural_form(
            ngettext_noop(
                "At table %(table)s %(player)s was attacked %(count)s time: when a company "
                "picks people out by profiling (Article 4(4)), which decisions may it never "
                "leave to a machine alone (Article 22)?",
                "At table %(table)s %(player)s was attacked %(count)s times: when a company "
                "picks people out by profiling (Article 4(4)), which decisions may it never "
                "leave to a machine alone (Article 22)?",
            ),
            times,
            {"table": table.number, "player": table.name(target), "count": times},
        )

    def _blocked(self, table: TableSummary) -> Text | None:
        """An attack blocked in full: objecting and erasing."""
        blocked = table.first("blocked")
        if blocked is None:
            return None
        return Text(
            gettext_noop(
                "At table %(table)s %(player)s blocked a whole attack: in real life, when may "
                "you say stop to a use of your data (Article 21), and when must it be erased "
                "(Article 17)?"
            ),
            {"table": table.number, "player": table.name(blocked.get("seat"))},
        )

    def _investigators(self, table: TableSummary) -> Text | None:
        """The Investigators want the truth: the right of access."""
        chosen = table.first("character_chosen", character="investigators")
        if chosen is None:
            return None
        return Text(
            gettext_noop(
                "At table %(table)s %(player)s played the Investigators, who want the truth: "
                "what may anyone ask a company about their own data (Article 15), and how "
                "quickly must it answer?"
            ),
            {"table": table.number, "player": table.name(chosen.get("seat"))},
        )

    def _men_in_black(self, table: TableSummary) -> Text | None:
        """The Men in Black hide information: transparency."""
        chosen = table.first("character_chosen", character="men_in_black")
        if chosen is None:
            return None
        return Text(
            gettext_noop(
                "At table %(table)s %(player)s played the Men in Black, who hide what they "
                "know: what must a company tell people about the data it collects "
                "(Articles 12 to 14)?"
            ),
            {"table": table.number, "player": table.name(chosen.get("seat"))},
        )

    def winner_prompt(self, table: TableSummary) -> Text | None:
        """The last one standing: alliances, and false stories that spread."""
        if not table.over or not table.winners:
            return None
        best = min(table.ranks, key=lambda seat: table.ranks[seat])
        life = table.scores[best]["life"]
        return Text.plural_form(
            ngettext_noop(
                "At table %(table)s %(player)s was the last one standing, with %(count)s life "
                "point left: did players gang up on one target, and how can a false story "
                "about a person be corrected (Articles 5(1)(d) and 16)?",
                "At table %(table)s %(player)s was the last one standing, with %(count)s life "
                "points left: did players gang up on one target, and how can a false story "
                "about a person be corrected (Articles 5(1)(d) and 16)?",
            ),
            life,
            {"table": table.number, "player": ", ".join(table.winners), "count": life},
        )
