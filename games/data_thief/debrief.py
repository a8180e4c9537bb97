"""What Data Thief adds to the teacher's debrief: each table's attacks by type, stopped
or not (each type with its lesson), and the discussion prompts drawn from them.

Pure Python like the rules: every sentence is an English template marked for
extraction; card names go as their fixture's names by language, which the platform
shows in the session's language.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from games.data_thief.cards import BY_ID, DATA
from games.engine import Text, gettext_noop, ngettext_noop
from games.engine.base import Debrief, TableSummary, Tally

if TYPE_CHECKING:
    from games.data_thief.rules import State

ATTACK_NAMES = {entry["key"]: entry["name"] for entry in DATA["attacks"]}
MEASURE_NAMES = {entry["key"]: entry["name"] for entry in DATA["measures"]}
ATTACK_ORDER = [entry["key"] for entry in DATA["attacks"]]

# The parts of an attack type's summary line, each shown only when its number is not 0.
OUTCOMES = (
    (
        "board",
        ngettext_noop(
            "stopped %(count)s time by a measure on the board",
            "stopped %(count)s times by a measure on the board",
        ),
    ),
    (
        "hand",
        ngettext_noop(
            "stopped %(count)s time by a measure from the hand",
            "stopped %(count)s times by a measure from the hand",
        ),
    ),
    ("through", ngettext_noop("got through %(count)s time", "got through %(count)s times")),
    ("stolen", ngettext_noop("%(count)s data card stolen", "%(count)s data cards stolen")),
    ("turns", ngettext_noop("%(count)s turn missed", "%(count)s turns missed")),
)


@dataclass
class Attack:
    """One attack of the thief and what came of it."""

    move: int
    event: dict  # the "attack" event (its lesson is the attack type's)
    outcome: str = ""  # "board" or "hand" (countered from there), "through", "" (pending)
    measure: str = ""  # the key of the measure that stopped it
    stolen: list[str] = field(default_factory=list)  # data card ids
    turns: int = 0

    @property
    def kind(self) -> str:
        return self.event["attack"]

    @property
    def target(self) -> int:
        return self.event["target"]


def _count(attacks: list[Attack], part: str) -> int:
    """Return one number of a summary line over ``attacks``."""
    if part == "stolen":
        return sum(len(a.stolen) for a in attacks)
    if part == "turns":
        return sum(a.turns for a in attacks)
    return sum(a.outcome == part for a in attacks)


class DataThiefDebrief(Debrief["State"]):
    """Follow each attack to its end; sum them up by type; draw the table's prompts."""

    tally_heading = gettext_noop("Attacks by type")

    def __init__(self) -> None:
        self.attacks: list[Attack] = []
        self.thief: int | None = None

    def before(self, state: State, seat: int | None, action: dict) -> None:
        """Remember which seat is the thief."""
        self.thief = state.thief

    def after(self, state: State, version: int, events: list[dict]) -> None:
        """Open an attack on its event; close it when it is countered or gets through."""
        self.thief = state.thief
        for event in events:
            kind = event["type"]
            if kind == "attack":
                self.attacks.append(Attack(move=version, event=event))
                continue
            if not self.attacks:
                continue
            current = self.attacks[-1]
            if kind == "countered":
                current.outcome, current.measure = event["source"], event["kind"]
            elif kind == "attack_succeeded":
                current.outcome = "through"
            elif kind == "stolen":  # in a steal window, one action or more after the attack
                current.stolen.extend(event["cards"])
            elif kind == "turns_lost":
                current.turns += event["turns"]

    def by_kind(self) -> dict[str, list[Attack]]:
        """Return the attacks grouped by type, the most frequent type first."""
        groups: dict[str, list[Attack]] = {}
        for attack in self.attacks:
            groups.setdefault(attack.kind, []).append(attack)
        return dict(
            sorted(groups.items(), key=lambda item: (-len(item[1]), ATTACK_ORDER.index(item[0])))
        )

    def tally(self, table: TableSummary) -> list[Tally]:
        """Return one line per attack type: how often stopped (and where), or what it took."""
        lines = []
        for kind, attacks in self.by_kind().items():
            parts = [
                Text.plural_form(forms, number, {"count": number})
                for part, forms in OUTCOMES
                if (number := _count(attacks, part))
            ]
            text = Text.plural_form(
                ngettext_noop(
                    "%(attack)s, %(count)s attack: %(outcomes)s.",
                    "%(attack)s, %(count)s attacks: %(outcomes)s.",
                ),
                len(attacks),
                {"attack": ATTACK_NAMES[kind], "count": len(attacks), "outcomes": parts},
            )
            if not parts:  # the only attack still waits for its answer
                text = Text.plural_form(
                    ngettext_noop(
                        "%(attack)s, %(count)s attack.", "%(attack)s, %(count)s attacks."
                    ),
                    len(attacks),
                    {"attack": ATTACK_NAMES[kind], "count": len(attacks)},
                )
            lines.append(Tally(text, attacks[0].event))
        return lines

    def prompts(self, table: TableSummary) -> list[Text]:
        """Return one prompt per kind of striking event at the table, the breach first."""
        prompts = [
            self._breach(table),
            self._got_through(table),
            self._paper(table),
            self._turns_lost(table),
            self._from_the_hand(table),
            self._proofs(table),
        ]
        return [prompt for prompt in prompts if prompt is not None]

    def _breach(self, table: TableSummary) -> Text | None:
        """Data stolen: a breach to notify (sensitive data named when some was taken)."""
        stolen = [card for attack in self.attacks for card in attack.stolen]
        if not stolen:
            return None
        sensitive = [c for c in stolen if BY_ID[c]["category"] == "sensitive"]
        if sensitive:
            victim = next(a.target for a in self.attacks if set(a.stolen) & set(sensitive))
            return Text(
                gettext_noop(
                    "At table %(table)s the thief stole %(cards)s from %(player)s: sensitive "
                    "data (Article 9). Whom must %(player)s tell about this breach, and how "
                    "fast (Articles 33 and 34)?"
                ),
                {
                    "table": table.number,
                    "cards": list({BY_ID[c]["data"]: BY_ID[c]["name"] for c in sensitive}.values()),
                    "player": table.name(victim),
                },
            )
        return Text.plural_form(
            ngettext_noop(
                "At table %(table)s the thief stole %(count)s data card: is that a personal "
                "data breach, and who must be told within 72 hours (Article 33)?",
                "At table %(table)s the thief stole %(count)s data cards: is that a personal "
                "data breach, and who must be told within 72 hours (Article 33)?",
            ),
            len(stolen),
            {"table": table.number, "count": len(stolen)},
        )

    def _got_through(self, table: TableSummary) -> Text | None:
        """The attack type that got through most often: which measure would have stopped it?"""
        through = Counter(a.kind for a in self.attacks if a.outcome == "through")
        if not through:
            return None
        kind = min(through, key=lambda k: (-through[k], ATTACK_ORDER.index(k)))
        return Text.plural_form(
            ngettext_noop(
                "At table %(table)s %(attack)s got through %(count)s time: which security "
                "measure would have stopped it (Article 32)?",
                "At table %(table)s %(attack)s got through %(count)s times: which security "
                "measure would have stopped it (Article 32)?",
            ),
            through[kind],
            {"table": table.number, "attack": ATTACK_NAMES[kind], "count": through[kind]},
        )

    def _paper(self, table: TableSummary) -> Text | None:
        """Data taken from a paper board: paper files are personal data too."""
        attack = next((a for a in self.attacks if a.stolen and a.event["board"] == "paper"), None)
        if attack is None:
            return None
        return Text(
            gettext_noop(
                "At table %(table)s %(attack)s took data from the paper board of %(player)s: "
                "why does the GDPR protect paper files too (Articles 2(1) and 4(6))?"
            ),
            {
                "table": table.number,
                "attack": ATTACK_NAMES[attack.kind],
                "player": table.name(attack.target),
            },
        )

    def _turns_lost(self, table: TableSummary) -> Text | None:
        """Turns missed to an attack that steals nothing: how to keep working?"""
        attack = max(self.attacks, key=lambda a: a.turns, default=None)
        if attack is None or not attack.turns:
            return None
        return Text.plural_form(
            ngettext_noop(
                "At table %(table)s %(attack)s made %(player)s miss %(count)s turn: how can a "
                "company keep its data available after an incident (Article 32(1)(c))?",
                "At table %(table)s %(attack)s made %(player)s miss %(count)s turns: how can a "
                "company keep its data available after an incident (Article 32(1)(c))?",
            ),
            attack.turns,
            {
                "table": table.number,
                "attack": ATTACK_NAMES[attack.kind],
                "player": table.name(attack.target),
                "count": attack.turns,
            },
        )

    def _from_the_hand(self, table: TableSummary) -> Text | None:
        """An attack stopped at the last moment from the hand: measures belong in place."""
        attack = next((a for a in self.attacks if a.outcome == "hand"), None)
        if attack is None:
            return None
        return Text(
            gettext_noop(
                "At table %(table)s %(player)s stopped %(attack)s with %(measure)s from the hand, "
                "at the last moment: why should security measures be in place before an "
                "attack (Articles 25 and 32)?"
            ),
            {
                "table": table.number,
                "player": table.name(attack.target),
                "attack": ATTACK_NAMES[attack.kind],
                "measure": MEASURE_NAMES[attack.measure],
            },
        )

    def _proofs(self, table: TableSummary) -> Text | None:
        """The countered attacks the managers kept: proof of what they did."""
        kept = sum(a.outcome in ("board", "hand") for a in self.attacks)
        if not kept:
            return None
        return Text.plural_form(
            ngettext_noop(
                "At table %(table)s the data managers kept %(count)s stopped attack as proof: "
                "why must a company be able to show how it protects data (Article 5(2))?",
                "At table %(table)s the data managers kept %(count)s stopped attacks as proof: "
                "why must a company be able to show how it protects data (Article 5(2))?",
            ),
            kept,
            {"table": table.number, "count": kept},
        )

    def winner_prompt(self, table: TableSummary) -> Text | None:
        """The thief's score against the best data manager's."""
        if not table.over or self.thief is None:
            return None
        thief = table.scores[self.thief]["points"]
        best_seat = max(
            (s for s in range(len(table.scores)) if s != self.thief),
            key=lambda s: (table.scores[s]["points"], -s),
        )
        best = table.scores[best_seat]["points"]
        params = {
            "table": table.number,
            "thief": table.name(self.thief),
            "points": thief,
            "manager": table.name(best_seat),
            "best": best,
        }
        if thief > best:
            return Text(
                gettext_noop(
                    "At table %(table)s the thief %(thief)s won with %(points)s points against "
                    "%(best)s for %(manager)s, the best data manager: which measures were "
                    "missing on the boards?"
                ),
                params,
            )
        stops = Counter(a.measure for a in self.attacks if a.measure)
        if stops:
            measure = min(stops, key=lambda k: (-stops[k], k))
            params["measure"] = MEASURE_NAMES[measure]
            return Text(
                gettext_noop(
                    "At table %(table)s the thief %(thief)s scored %(points)s points against "
                    "%(best)s for %(manager)s, the best data manager; %(measure)s stopped the "
                    "most attacks: which attacks does it stop, and why?"
                ),
                params,
            )
        return Text(
            gettext_noop(
                "At table %(table)s the thief %(thief)s scored %(points)s points against "
                "%(best)s for %(manager)s, the best data manager: what kept the data safe?"
            ),
            params,
        )
