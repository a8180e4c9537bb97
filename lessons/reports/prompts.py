"""Discussion prompts drawn from what actually happened in a session.

Every template goes through gettext, so the prompts come out in the language active
when :func:`discussion_prompts` runs (the export runs it in the session's language).
A table gives at most one prompt of each kind, for its most striking event.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

# Sensitive signs of Dataset cards, as an adjective before "data".
SIGNS = {
    "health": gettext_lazy("health"),
    "genetic": gettext_lazy("genetic"),
    "biometric": gettext_lazy("biometric"),
    "love": gettext_lazy("love life"),
    "political": gettext_lazy("political opinion"),
    "religious": gettext_lazy("religious belief"),
    "judicial": gettext_lazy("judicial"),
}
# At most this many prompts in a report: a debrief lasts one lesson.
MAX_PROMPTS = 12


def _signs(signs: list[str]) -> str:
    """Return the (at most three) most frequent sensitive signs as a readable list."""
    ordered = sorted(set(signs), key=lambda sign: (-signs.count(sign), sign))[:3]
    return ", ".join(str(SIGNS.get(sign, sign)) for sign in ordered)


def _sanction(table) -> str | None:
    """A Sanction wiped treasures: ask about sensitive data and what prevents a fine."""
    losses = [loss for loss in table.sensitive_lost if loss["cause"] == "sanction"]
    if not losses:
        return None
    loss = max(losses, key=lambda item: (len(item["signs"]), item["treasures"]))
    count = loss["treasures"]
    if loss["signs"]:
        return ngettext(
            # Judicial data is protected by Article 10, the other signs by Article 9:
            # the question leaves the students to find which applies.
            "At table %(table)s a Sanction wiped a Data-Treasure built from %(signs)s data: "
            "which GDPR articles protect such data, and what could have prevented the fine?",
            "At table %(table)s a Sanction wiped %(count)s Data-Treasures built from "
            "%(signs)s data: which GDPR articles protect such data, and what could have "
            "prevented the fine?",
            count,
        ) % {"table": table.number, "count": count, "signs": _signs(loss["signs"])}
    return ngettext(
        "At table %(table)s a Sanction wiped a Data-Treasure: what could the company "
        "have done to avoid the fine (Articles 58 and 83)?",
        "At table %(table)s a Sanction wiped %(count)s Data-Treasures: what could the "
        "company have done to avoid the fine (Articles 58 and 83)?",
        count,
    ) % {"table": table.number, "count": count}


def _first(table, event_type, **match):
    """Return the table's first timeline item of ``event_type`` whose event matches ``match``."""
    for item in table.timeline:
        if item.type == event_type and all(item.event.get(k) == v for k, v in match.items()):
            return item
    return None


def _name(table, seat) -> str:
    for player in table.players:
        if player.seat == seat:
            return player.name
    return _("Player %(number)s") % {"number": (seat or 0) + 1}


def _table_prompts(table) -> list[str]:
    """Return the prompts one table's game gives."""
    out = []
    sanction = _sanction(table)
    if sanction:
        out.append(sanction)
    hidden = _first(table, "databreach_discovered")
    if hidden:
        out.append(
            _(
                "At table %(table)s %(player)s kept a data breach quiet and it came out "
                "anyway: why does Article 33 ask for a report within 72 hours, and what did "
                "hiding it cost?"
            )
            % {"table": table.number, "player": _name(table, hidden.seat)}
        )
    reported = _first(table, "databreach_called")
    if reported and not hidden:
        out.append(
            _(
                "At table %(table)s %(player)s reported a data breach at once: which "
                "security measures (Article 32) would have stopped it from happening?"
            )
            % {"table": table.number, "player": _name(table, reported.seat)}
        )
    complaint = _first(table, "datasets_returned", cause="complaint")
    if complaint:
        out.append(
            _(
                "At table %(table)s a Complaint cost %(player)s %(count)s Dataset cards: "
                "what can a person do when a company misuses their data (Articles 17 and 77)?"
            )
            % {
                "table": table.number,
                "player": _name(table, complaint.seat),
                "count": complaint.event.get("count", 0),
            }
        )
    minimization = _first(table, "datasets_returned", cause="minimization")
    if minimization:
        out.append(
            _(
                "At table %(table)s Minimization sent all of %(player)s's loose Dataset "
                "cards back: which of that data did the company really need (Article 5(1)(c))?"
            )
            % {"table": table.number, "player": _name(table, minimization.seat)}
        )
    time_up = _first(table, "time_up")
    if time_up:
        out.append(
            _(
                "At table %(table)s a Time deadline ran out for %(player)s: how long may a "
                "company keep personal data (Article 5(1)(e)), and who decides?"
            )
            % {"table": table.number, "player": _name(table, time_up.seat)}
        )
    consent = _first(table, "treasure_split") or _first(table, "countered", kind="consent")
    if consent:
        out.append(
            _(
                "At table %(table)s %(player)s used Consent: what makes a consent valid "
                "(Article 7), and can it be taken back?"
            )
            % {"table": table.number, "player": _name(table, consent.seat)}
        )
    lawyer = _first(table, "countered", kind="lawyer")
    if lawyer:
        out.append(
            _(
                "At table %(table)s a Lawyer saved %(player)s: what must a company be able to "
                "prove to the authority (Article 5(2), accountability)?"
            )
            % {"table": table.number, "player": _name(table, lawyer.seat)}
        )
    transparency = _first(table, "transparency")
    if transparency:
        out.append(
            _(
                "At table %(table)s %(player)s had to play with an open hand: what must a "
                "company tell people about their data (Articles 13 and 14)?"
            )
            % {"table": table.number, "player": _name(table, transparency.seat)}
        )
    return out


def _winner_prompt(table) -> str | None:
    """The winner's tally: was it fair play?"""
    if not table.over or not table.winners:
        return None
    best = min(table.ranks, key=lambda seat: table.ranks[seat])
    score = table.scores[best]
    return ngettext(
        "At table %(table)s %(player)s won with %(treasures)s Data-Treasure and %(sensitive)s "
        "sensitive cards: would a data protection authority agree it was all lawful?",
        "At table %(table)s %(player)s won with %(treasures)s Data-Treasures and "
        "%(sensitive)s sensitive cards: would a data protection authority agree it was all "
        "lawful?",
        score["treasures"],
    ) % {
        "table": table.number,
        "player": ", ".join(table.winners),
        "treasures": score["treasures"],
        "sensitive": score["sensitive"],
    }


def _quiz_prompt(report) -> str | None:
    """The quiz question the class found hardest."""
    answered = [result for result in report.questions if result.answers]
    if not answered:
        return None
    hardest = min(answered, key=lambda result: (result.share, -result.answers))
    if hardest.share >= 80:
        return None
    return _(
        'Only %(share)s%% of the class answered "%(question)s" correctly: let us go over it '
        "together. What is the right answer, and why?"
    ) % {"share": hardest.share, "question": hardest.text}


def discussion_prompts(report) -> list[str]:
    """Return the report's discussion prompts, in the active language."""
    prompts = []
    quiz = _quiz_prompt(report)
    if quiz:
        prompts.append(quiz)
    per_table = [_table_prompts(table) for table in report.tables]
    # Round robin over tables, so that every table is discussed before any gets a second.
    depth = max((len(items) for items in per_table), default=0)
    for level in range(depth):
        prompts.extend(items[level] for items in per_table if level < len(items))
    for table in report.tables:
        winner = _winner_prompt(table)
        if winner:
            prompts.append(winner)
    return prompts[:MAX_PROMPTS]
