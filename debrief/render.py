"""Write a debrief report as files: HTML (the teacher's view), PDF (WeasyPrint, A4, from
the same template), CSV (one row per student) and JSON (the session's raw data)."""

from __future__ import annotations

import csv
import gc
import io
import json
from pathlib import Path
from typing import TYPE_CHECKING

from django.contrib.staticfiles import finders
from django.db.models import Prefetch
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from weasyprint import HTML

from classroom.models import ClassSession, Seat, Table
from debrief import charts
from games.describe import translate
from games.models import MatchAction
from games.registry import get_game
from lessons.models import LessonMoment, Quiz, QuizAnswer, QuizQuestion

# The CSV's columns: these, with the game's score columns after "rank".
if TYPE_CHECKING:
    from debrief.data import Report, StudentLine

CSV_FIRST = ["nickname", "table", "rank"]
CSV_LAST = ["quiz_score", "lessons_seen"]


def draw_charts(report: Report) -> None:
    """Draw the report's charts (concepts, articles, each table's scores) as SVG."""
    top = report.lesson_counts.most_common(15)
    if top:
        report.concepts_chart = charts.bar_chart(
            [report.lessons.get(slug, {}).get("title", slug) for slug, _n in top],
            [times for _slug, times in top],
            _("How often each GDPR lesson came up"),
            _("events"),
        )
    articles = sorted(report.article_counts.items(), key=lambda item: (-item[1], item[0]))[:15]
    if articles:
        report.articles_chart = charts.bar_chart(
            [_("Article %(number)s") % {"number": number} for number, _n in articles],
            [times for _number, times in articles],
            _("How often each GDPR article came up"),
            _("events"),
        )
    columns = [c for c in get_game(report.game).score_columns if c.chart]
    score_charts = charts.ScoreCharts()
    for table in report.tables:
        if len(table.progression) < 2 or not columns:
            continue
        moves = [move for move, _scores in table.progression]
        panels = [
            charts.Panel(
                label=translate(column.label),
                style=column.chart,
                series={
                    player.name: [
                        scores[player.seat][column.key] for _m, scores in table.progression
                    ]
                    for player in table.players
                },
            )
            for column in columns
        ]
        table.chart = score_charts.draw(
            panels,
            moves,
            _("Table %(number)s: scores move by move") % {"number": table.number},
            _("move"),
        )
        table.chart_img = charts.as_img(table.chart)
        table.legend = charts.legend([player.name for player in table.players])
    report.concepts_chart_img = charts.as_img(report.concepts_chart)
    report.articles_chart_img = charts.as_img(report.articles_chart)


def stylesheet() -> str:
    """Return the report's CSS, inlined so that the HTML file stands alone."""
    path = finders.find("css/report.css")
    return Path(path).read_text(encoding="utf-8") if path else ""


def render_html(report: Report, for_pdf: bool = False) -> str:
    """Return the report as one self-contained HTML document."""
    context = {"report": report, "css": stylesheet(), "for_pdf": for_pdf}
    return render_to_string("debrief/report.html", context)


def write_pdf(html: str, path: Path) -> None:
    """Write the PDF of the report's HTML (A4, from the same template) to ``path``."""
    # WeasyPrint makes hundreds of thousands of objects, and the cycle collector kept
    # walking them: without it the PDF takes about a tenth less time, for the same peak
    # memory (whatever it would have found is collected on its next pass).
    enabled = gc.isenabled()
    gc.disable()
    try:
        HTML(string=html, base_url=str(path.parent)).write_pdf(path)
    finally:
        if enabled:
            gc.enable()


def csv_text(report: Report) -> str:
    """Return the CSV: one row per student, nickname only."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_FIRST + [key for key, _heading in report.score_columns] + CSV_LAST)
    for line in report.students_lines:
        writer.writerow(
            [
                _safe(line.nickname),
                _blank(line.table),
                _blank(line.rank),
                *(_blank(value) for value in line.scores),
                quiz_score(line),
                line.lessons_seen,
            ]
        )
    return buffer.getvalue()


def quiz_score(line: StudentLine) -> str:
    """Return a student's quiz score as "right/answered", or "" for a student who
    answered no question (never took the quiz: "0/0" would read as a score)."""
    if not line.quiz_answered:
        return ""
    return f"{line.quiz_correct}/{line.quiz_answered}"


def _blank(value):
    return "" if value is None else value


def _safe(text: str) -> str:
    """Keep a spreadsheet from reading a nickname as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def raw_data(session: ClassSession, report: Report) -> dict:
    """Return the session's raw data: matches with their action logs, events, quiz answers.

    Students appear by nickname only (no device id, no internal id).
    """
    # A removed student's nickname is left out: their seat's nickname is null.
    # Looked up by a seat's participant_id: None (a bot's seat) finds no nickname.
    nickname: dict[int | None, str] = dict(
        session.active_participants().values_list("pk", "nickname")
    )
    # The seats, actions and quiz questions of the whole session in one query each, not
    # one query per table, match or quiz.
    rows = (
        Table.objects.filter(session=session)
        .select_related("match")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.order_by("number")),
            Prefetch("match__actions", queryset=MatchAction.objects.order_by("version")),
        )
        .order_by("number")
    )
    quizzes = list(Quiz.objects.filter(session=session, participant__kicked=False))
    questions = QuizQuestion.objects.select_related("lesson").in_bulk(
        {pk for quiz in quizzes for pk in quiz.question_ids}
    )
    tables = []
    for table in rows:
        match = table.match
        tables.append(
            {
                "number": table.number,
                "seats": [
                    {
                        "seat": seat.number,
                        "nickname": nickname.get(seat.participant_id),
                        "bot": seat.bot_kind or None,
                    }
                    for seat in table.seats.all()
                ],
                "match": {
                    "game": match.game,
                    "variant": match.variant,
                    "seed": match.seed,
                    "num_seats": match.num_seats,
                    "options": match.options,
                    "version": match.version,
                    "status": match.status,
                    "result": match.result,
                    "actions": [
                        {
                            "version": action.version,
                            "seat": action.seat,
                            "action": action.action,
                            "events": action.events,
                            "time": action.created_at.isoformat(),
                        }
                        for action in match.actions.all()
                    ],
                },
            }
        )
    return {
        "format": "dataprotect-debrief/1",
        "session": {
            "game": session.game,
            "variant": session.variant,
            "language": session.language,
            "created_at": _iso(session.created_at),
            "started_at": _iso(session.started_at),
            "ended_at": _iso(session.ended_at),
            "students": sorted(nickname.values(), key=str.casefold),
        },
        "tables": tables,
        "lesson_moments": [
            {
                "table": moment.table,
                "seat": moment.seat,
                "lesson": moment.lesson.slug,
                "event": moment.details,
                "time": moment.created_at.isoformat(),
            }
            for moment in LessonMoment.objects.filter(session=session).select_related("lesson")
        ],
        "quizzes": [
            {
                "nickname": nickname.get(quiz.participant_id),
                "table": quiz.table,
                "questions": [
                    f"{questions[pk].lesson.slug}#{questions[pk].number}"
                    for pk in quiz.question_ids
                    if pk in questions  # as Quiz.questions(): a deleted question is left out
                ],
                "finished_at": _iso(quiz.finished_at),
            }
            for quiz in quizzes
        ],
        "quiz_answers": [
            {
                "nickname": nickname.get(answer.participant_id),
                "question": f"{answer.question.lesson.slug}#{answer.question.number}",
                "chosen": answer.chosen,
                "correct": answer.correct,
                "time": answer.answered_at.isoformat(),
            }
            for answer in QuizAnswer.objects.filter(
                session=session, participant__kicked=False
            ).select_related("question__lesson")
        ],
        "lesson_counts": dict(report.lesson_counts),
    }


def _iso(value):
    return value.isoformat() if value else None


def json_text(session: ClassSession, report: Report) -> str:
    """Return the raw data as JSON text."""
    return json.dumps(raw_data(session, report), ensure_ascii=False, indent=1)
