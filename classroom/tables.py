"""Split a session's students into balanced tables (pure: no database)."""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class TablePlan:
    """One table to set up: how many students sit at it and how many bots."""

    humans: int
    bots: int

    @property
    def seats(self) -> int:
        return self.humans + self.bots


class CannotSplit(ValueError):
    """The students cannot be seated: too few of them and no bots allowed."""


def split(
    students: int, size: int, bots_fill: bool, min_players: int = 2, max_players: int = 6
) -> list[TablePlan]:
    """Return the tables for this many students at tables of about ``size`` seats.

    Students are spread evenly: the numbers of students at two tables differ by at
    most one. With ``bots_fill`` every table is filled up to ``size`` with bots, so a
    single student plays against bots. Without bots no table holds fewer than
    ``min_players`` students: the fewest tables that avoid it are used, so a lone
    student joins another table (that table then has one seat more than ``size``).
    Raise CannotSplit when there are fewer students than ``min_players`` and no bots.
    """
    size = max(min_players, min(size, max_players))
    if students <= 0:
        return []
    count = math.ceil(students / size)
    if not bots_fill:
        if students < min_players:
            raise CannotSplit(students)
        count = min(count, students // min_players)
        # Never more students at a table than the game allows.
        count = max(count, math.ceil(students / max_players))
    base, extra = divmod(students, count)
    humans = [base + 1] * extra + [base] * (count - extra)
    return [TablePlan(h, max(0, size - h) if bots_fill else 0) for h in humans]
