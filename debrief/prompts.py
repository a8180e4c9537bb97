"""Discussion prompts drawn from what actually happened in a session.

Each game gives its tables' prompts (``game.debrief()``, translated when the report is
built); the quiz adds the question the class found hardest. A table gives at most one
prompt of each kind, for its most striking event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import ngettext

if TYPE_CHECKING:
    from debrief.data import Report

# At most this many prompts in a report: a debrief lasts one lesson.
MAX_PROMPTS = 12
# A question fewer students answered says nothing of the class ("only 0% of the class"
# was one student's answer).
MIN_QUIZ_ANSWERS = 3


def _quiz_prompt(report: Report) -> str | None:
    """The quiz question the class found hardest, among those enough students answered."""
    answered = [result for result in report.questions if result.answers >= MIN_QUIZ_ANSWERS]
    if not answered:
        return None
    hardest = min(answered, key=lambda result: (result.share, -result.answers))
    if hardest.share >= 80:
        return None
    return ngettext(
        'Only %(correct)s of %(answers)s student answered "%(question)s" correctly: let us '
        "go over it together. What is the right answer, and why?",
        'Only %(correct)s of %(answers)s students answered "%(question)s" correctly: let us '
        "go over it together. What is the right answer, and why?",
        hardest.answers,
    ) % {"correct": hardest.correct, "answers": hardest.answers, "question": hardest.text}


def discussion_prompts(report: Report) -> list[str]:
    """Return the report's discussion prompts, in the active language."""
    prompts = []
    quiz = _quiz_prompt(report)
    if quiz:
        prompts.append(quiz)
    per_table = [table.prompts for table in report.tables]
    # Round robin over tables, so that every table is discussed before any gets a second.
    depth = max((len(items) for items in per_table), default=0)
    for level in range(depth):
        prompts.extend(items[level] for items in per_table if level < len(items))
    prompts.extend(table.winner_prompt for table in report.tables if table.winner_prompt)
    return prompts[:MAX_PROMPTS]
