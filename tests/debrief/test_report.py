"""The report's contents, built in-process from a recorded session (no worker needed)."""

import csv
import io
import json
import os
import re
import subprocess
import sys
from html import unescape
from pathlib import Path
from types import SimpleNamespace

import pytest

# Imported for its side effect: it changes ElementTree's namespace prefixes, which the
# PDF's charts must not depend on.
import weasyprint.pdf.metadata  # noqa: F401
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import translation
from pypdf import PageObject, PdfReader

from classroom import actions
from classroom.identity import new_device_id
from classroom.models import Participant
from config.services import BASE_DIR
from debrief import charts, data, glossary, prompts, render
from games.data_monsters.cards import CHALLENGES
from games.matches import replay_match
from games.registry import get_game
from lessons.content import read_lessons
from lessons.models import Lesson, LessonLink, Quiz, QuizAnswer
from lessons.results import QuestionResult
from lessons.texts import article_number
from tests.debrief.recorded import record_session


def found(pattern: str, text: str, group: int = 0) -> str:
    """Return ``group`` of the first match of ``pattern`` in ``text`` (there is one)."""
    match = re.search(pattern, text)
    assert match is not None, (pattern, text)
    return match[group]


@pytest.fixture(scope="module")
def recorded(django_db_setup, django_db_blocker):
    """The conftest's recorded session, recorded once for the module: its tests only read
    it. It is kept in a transaction of the module's own, rolled back at its end; each
    test's own changes are rolled back to it (its transaction is a savepoint in this one)."""
    with django_db_blocker.unblock(), transaction.atomic():
        teacher = get_user_model().objects.create_user(username="teacher-report")
        yield record_session(teacher, students=10, table_size=4)
        transaction.set_rollback(True)


@pytest.fixture
def report(recorded):
    """The recorded session's report with its charts, as an export draws them."""
    with translation.override(recorded.language):
        built = data.build(recorded)
        render.draw_charts(built)
    return built


@pytest.mark.django_db
def test_summary_and_tables(recorded, report):
    assert report.game_name == "Data-Tycoon"
    assert report.students == 10
    assert [table.number for table in report.tables] == [1, 2, 3]
    assert report.duration_minutes == 50
    for table in report.tables:
        match = recorded.tables.get(number=table.number).match
        assert table.replay_matches
        assert table.moves == match.version
        assert table.over
        assert sorted(table.winners) == sorted(
            next(p.name for p in table.players if p.seat == seat)
            for seat in match.result["winners"]
        )
        assert table.scores == match.result["scores"]


@pytest.mark.django_db
def test_timeline_links_each_event_to_its_lesson(report):
    items = [item for table in report.tables for item in table.timeline]
    assert items
    types = {item.type for item in items}
    assert {"treasure_built", "attack", "countered"} <= types
    built = next(item for item in items if item.type == "treasure_built")
    assert built.lesson == "records-of-processing"
    assert built.lesson_title
    assert all(item.text and "%(" not in item.text for item in items)


@pytest.mark.django_db
def test_concepts_count_lessons_and_articles(report):
    assert report.lesson_counts["records-of-processing"] >= 1
    assert report.article_counts[30] >= report.lesson_counts["records-of-processing"]
    assert report.concept_rows[0]["times"] == max(report.lesson_counts.values())
    assert report.moment_counts  # the recorded lesson moments


@pytest.mark.django_db
def test_score_progression_follows_the_replay(recorded, report):
    assert len(report.tables) == 3
    for table in report.tables:
        match = recorded.tables.get(number=table.number).match
        assert table.progression[0][0] == 0
        assert table.progression[-1] == (match.version, replay_match(match).scores())
        moves = [move for move, _scores in table.progression]
        assert moves == sorted(moves)


@pytest.mark.django_db
def test_charts_are_svg(report):
    render.draw_charts(report)
    for svg in [report.concepts_chart, report.articles_chart, *(t.chart for t in report.tables)]:
        assert svg.startswith("<svg ") and 'role="img"' in svg
        assert not re.search(r'(href|src)="https?:', svg)  # nothing from another origin
        assert "<metadata>" not in svg
    ids = re.findall(r'\bid="([^"]+)"', render.render_html(report))
    assert len(ids) == len(set(ids)), "two charts share an id"
    # the note above the charts names their panels, the game's charted scores
    assert "one panel a score, from the top: Treasures, Dataset cards." in render.render_html(
        report
    )


@pytest.mark.django_db
def test_the_players_names_are_the_pages_text_beside_their_chart(report):
    """A score chart's legend is HTML: WeasyPrint lays out an SVG's text letter by letter,
    which would break a nickname in Arabic or Devanagari in the PDF."""
    render.draw_charts(report)
    html = render.render_html(report)
    tables = [table for table in report.tables if table.chart]
    assert tables
    # each chart's legend in the page: (swatch colour, name) per item, in order
    item = re.compile(r'<li><svg class="swatch"[^>]*><rect [^>]*fill="(#\w+)"/></svg> ([^<]*)</li>')
    shown = [item.findall(ul) for ul in re.findall(r'<ul class="chart-legend">(.*?)</ul>', html)]
    assert len(shown) == len(tables)
    for table, items in zip(tables, shown, strict=True):
        names = [player.name for player in table.players]
        assert names
        drawn = re.findall(r">([^<>]+)</text>", table.chart)
        assert [name for name in names if name in drawn] == [], "a name is drawn in the chart"
        assert [name for name, _colour in table.legend] == names
        # each swatch has the colour of its player's line, in the chart's first panel
        lines = re.findall(r'<path d="[^"]*" clip-path="[^"]*"[^>]* stroke="(#\w+)"', table.chart)
        swatches = [colour for _name, colour in table.legend]
        assert lines[: len(names)] == swatches
        assert len(set(swatches)) == min(len(names), len(charts.COLOURS))
        assert items == [(colour, name) for name, colour in table.legend]


def test_score_charts_drawn_on_one_figure_are_those_of_new_figures():
    """The figure kept from table to table leaves nothing of one table in the next."""
    tables = [
        (
            [
                charts.Panel("Treasures", "step", {"Ada": [0, 1, 1, 4], "Bao": [0, 0, 2, 2]}),
                charts.Panel("Cards", "line", {"Ada": [0, 9, 3, 120], "Bao": [1, 2, 3, 4]}),
            ],
            [0, 5, 9, 30],
        ),
        (
            [
                charts.Panel("Treasures", "step", {"Cleo": [0, 2], "Dani": [0, 0], "Eli": [1, 1]}),
                charts.Panel("Cards", "line", {"Cleo": [3, 4], "Dani": [0, 7], "Eli": [2, 2]}),
            ],
            [0, 200],
        ),
        ([charts.Panel("Points", "line", {"Fay": [5, 1, 0]})], [0, 1, 2]),
    ]
    kept = charts.ScoreCharts()
    for panels, moves in tables * 2:
        title = f"{len(moves)} moves"
        drawn, new = (
            kept.draw(panels, moves, title, "move"),
            charts.score_chart(panels, moves, title, "move"),
        )
        assert re.sub(r"\bc\d+-", "", drawn) == re.sub(r"\bc\d+-", "", new)


def test_a_panel_label_longer_than_its_panel_takes_two_lines():
    """A step panel is half a line panel's height: "Attaques réussies ou contrées", on one
    line, ran past the figure's foot (the French, Spanish and Russian Data Thief reports)."""
    long = "Attaques réussies ou contrées"
    svg = charts.score_chart(
        [
            charts.Panel("Points", "line", {"Ann": [0, 10, 20], "Bob": [0, 5, 30]}),
            charts.Panel(long, "step", {"Ann": [0, 1, 2], "Bob": [0, 0, 1]}),
        ],
        [0, 1, 2],
        "Table 1",
        "Coups",
    )
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    assert "Points" in texts and long not in texts
    assert "Attaques réussies" in texts and "ou contrées" in texts


@pytest.mark.django_db
def test_the_print_version_of_a_chart_draws_the_same_in_fewer_elements(report):
    """The PDF's charts keep every word, line and colour, with fewer groups and no <use>."""
    render.draw_charts(report)
    for svg in [report.concepts_chart, report.articles_chart, *(t.chart for t in report.tables)]:
        printed = charts.print_svg(svg)
        assert re.findall(r">([^<>]+)</text>", printed) == re.findall(r">([^<>]+)</text>", svg)
        assert set(re.findall(r'(?:fill|stroke)="(#\w+)"', printed)) == set(
            re.findall(r'(?:fill|stroke)="(#\w+)"', svg)
        )
        lines = [d.split() for d in re.findall(r'<path d="([^"]*)" clip-path', svg)]
        assert (
            lines
            and [d.split() for d in re.findall(r'<path d="([^"]*)" clip-path', printed)] == lines
        )
        assert "<use" not in printed and "text-anchor" not in printed
        assert printed.count("<g") < svg.count("<g") / 4
        assert 'aria-label="' in printed
        assert printed.startswith('<svg xmlns="http://www.w3.org/2000/svg" ')


@pytest.mark.django_db
def test_quiz_results_and_student_lines(recorded, report):
    assert report.questions and all(0 <= q.share <= 100 for q in report.questions)
    lines = {line.nickname: line for line in report.students_lines}
    assert len(lines) == 10
    assert set(lines) == set(recorded.participants.values_list("nickname", flat=True))
    for line in lines.values():
        assert line.table in (1, 2, 3)
        assert line.rank >= 1
        assert line.quiz_answered >= 3
        assert 0 <= line.quiz_correct <= line.quiz_answered


@pytest.mark.django_db
def test_prompts_come_from_what_happened_in_the_session_language(teacher_a):
    session = record_session(teacher_a, students=8, language="fr", seed=11)
    with translation.override("fr"):
        report = data.build(session)
    assert report.prompts
    assert any(prompt.startswith("À la table") or "table" in prompt for prompt in report.prompts)
    tables = {str(table.number) for table in report.tables}
    assert any(any(f" {n} " in prompt for n in tables) for prompt in report.prompts)


@pytest.mark.django_db
def test_the_french_report_puts_a_space_before_every_colon(teacher_a):
    """French writes "Gagnant : Hugo" (as its catalogue does), never "Gagnant: Hugo"."""
    session = record_session(teacher_a, students=8, language="fr", seed=11)
    with translation.override("fr"):
        report = data.build(session)
        page = render.render_html(report)
    assert re.search("Gagnants?\u00a0: <strong>", page)
    text = re.sub(r"<(style|svg|script)\b.*?</\1>", "", page, flags=re.S)
    text = unescape(re.sub(r"<[^>]+>", "", text))
    assert not re.findall(r"\S{0,20}[^\s\d]:(?=\s)", text)


@pytest.mark.django_db
def test_sanction_prompt_names_the_sensitive_data(report):
    sanctions = [
        item
        for t in report.tables
        for item in t.timeline
        if item.type == "treasures_lost" and item.event["cause"] == "sanction"
    ]
    assert sanctions, "the recorded games hold a Sanction"
    assert any("Sanction" in prompt for prompt in report.prompts)


@pytest.mark.django_db
def test_csv_has_one_row_per_student(recorded, report):
    rows = list(csv.reader(io.StringIO(render.csv_text(report))))
    assert rows[0] == [
        "nickname", "table", "rank", "treasures", "sensitive", "datasets", "quiz_score",
        "lessons_seen",
    ]  # fmt: skip
    assert len(rows) == 1 + 10
    nicknames = {row[0] for row in rows[1:]}
    assert nicknames == set(recorded.participants.values_list("nickname", flat=True))
    for row in rows[1:]:
        assert row[1] in {"1", "2", "3"} and int(row[2]) >= 1
        assert re.fullmatch(r"\d+/\d+", row[6])
        assert row[3].isdigit() and row[4].isdigit() and row[5].isdigit()


@pytest.mark.django_db
def test_json_holds_the_raw_data(recorded, report):
    raw = json.loads(render.json_text(recorded, report))
    assert raw["format"] == "dataprotect-debrief/1"
    assert len(raw["tables"]) == 3
    for table in raw["tables"]:
        moves = table["match"]["actions"]
        assert moves, table["number"]
        assert [a["version"] for a in moves] == list(range(1, len(moves) + 1))
        assert all({"seat", "action", "events"} <= set(a) for a in moves)
    assert raw["quiz_answers"] and {"nickname", "question", "correct"} <= set(
        raw["quiz_answers"][0]
    )
    assert raw["lesson_moments"]
    assert "device" not in json.dumps(raw)  # no device id leaves the server


def test_glossary_covers_every_article_any_lesson_cites():
    cited = {article_number(a) for lesson in read_lessons() for a in lesson["articles"]}
    entries = glossary.articles()
    assert len(cited) >= 20
    assert cited <= set(entries)
    for number in cited:
        assert number is not None
        for language in ("en", "es", "fr", "ru"):
            text = entries[number][language]
            assert text["title"].strip() and text["text"].strip(), (number, language)


@pytest.mark.django_db
def test_glossary_of_a_report_lists_the_cited_articles(report):
    numbers = [entry["number"] for entry in report.glossary]
    assert numbers == sorted(numbers)
    cited = {a for slug in report.lessons for a in Lesson.objects.get(slug=slug).articles}
    assert {c for entry in report.glossary for c in entry["citations"]} == cited


@pytest.mark.django_db
def test_a_student_without_a_seat_gets_an_empty_line(recorded):
    Participant.objects.create(
        session=recorded, nickname="Late", nickname_key="late", device_id=new_device_id()
    )
    report = data.build(recorded)
    late = next(line for line in report.students_lines if line.nickname == "Late")
    assert (late.table, late.rank, late.lessons_seen) == (None, None, 0)
    assert late.scores == [None, None, None]
    rows = list(csv.reader(io.StringIO(render.csv_text(report))))
    # No quiz taken: an empty score, never "0/0" (which reads as a score of none right).
    assert ["Late", "", "", "", "", "", "", "0"] in rows


@pytest.mark.django_db
def test_a_seated_student_who_never_took_the_quiz_has_no_score(recorded):
    student = recorded.participants.order_by("pk").first()
    QuizAnswer.objects.filter(participant=student).delete()
    Quiz.objects.filter(participant=student).delete()
    with translation.override(recorded.language):
        report = data.build(recorded)
    line = next(line for line in report.students_lines if line.nickname == student.nickname)
    assert line.table is not None and line.quiz_answered == 0
    assert render.quiz_score(line) == ""
    rows = {row[0]: row for row in csv.reader(io.StringIO(render.csv_text(report)))}
    assert rows[student.nickname][6] == ""
    others = [row for name, row in rows.items() if name not in {"nickname", student.nickname}]
    assert others and all(re.fullmatch(r"\d+/\d+", row[6]) for row in others)
    per_student = unescape(render.render_html(report)).split('<section id="quiz"', 1)[1]
    row = per_student.split(f'<th scope="row">{student.nickname}</th>', 1)[1]
    cells = re.findall(r"<td>(.*?)</td>", row.split("</tr>", 1)[0])
    assert cells[-2] == "\u2013" and "0 / 0" not in cells  # the quiz's cell (an en dash)
    # The JSON holds no quiz of theirs, nor an answer: nothing to read as a score.
    raw = json.loads(render.json_text(recorded, report))
    assert student.nickname not in {quiz["nickname"] for quiz in raw["quizzes"]}
    assert student.nickname not in {answer["nickname"] for answer in raw["quiz_answers"]}


@pytest.mark.django_db
def test_a_session_ended_in_the_lobby_still_gives_a_report(teacher_a, tmp_path):
    school_class = actions.do_create_class(teacher_a, "Empty")
    session = actions.do_create_session(
        school_class,
        game="data_tycoon",
        variant="expert",
        language="en",
        table_size=4,
        bots_fill=True,
    )
    session = actions.do_end_session(session)
    report = data.build(session)
    render.draw_charts(report)
    assert report.tables == [] and report.prompts == [] and report.students_lines == []
    html = render.render_html(report, for_pdf=True)
    assert "No GDPR lesson came up" in html
    render.write_pdf(html, tmp_path / "empty.pdf")
    assert (tmp_path / "empty.pdf").read_bytes().startswith(b"%PDF")


def test_the_workers_log_has_no_pdf_layout_steps(tmp_path):
    """WeasyPrint logs each layout step at INFO, from its import on (its stylesheets):
    the worker's log keeps none of them (LOGGING), only WeasyPrint's warnings."""
    pdf = tmp_path / "steps.pdf"
    code = (
        "import django; django.setup(); from pathlib import Path; from debrief import render; "
        f"render.write_pdf('<p>x</p>', Path({str(pdf)!r}))"
    )
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
    )
    assert pdf.read_bytes().startswith(b"%PDF")
    assert "weasyprint" not in result.stderr, result.stderr


@pytest.mark.django_db
def test_the_pdf_draws_every_chart(report, tmp_path):
    """The PDF embeds the SVG charts, drawn as vector paths with their words as text: the
    pages of the concepts and the score progression are full of path operators, the
    others not, and each chart's title can be read (and searched) on its page."""
    assert len(report.tables) == 3
    html = render.render_html(report, for_pdf=True)
    assert html.count('<img class="chart"') == 2 + len(report.tables)
    render.write_pdf(html, tmp_path / "debrief.pdf")
    reader = PdfReader(tmp_path / "debrief.pdf")
    text = " ".join(page.extract_text() for page in reader.pages)

    def paths(page: PageObject) -> int:
        contents = page.get_contents()
        assert contents is not None
        return len(re.findall(rb"[ \n][lc]\n", contents.get_data()))

    def page_of(heading):
        return next(page for page in reader.pages if heading in page.extract_text())

    assert paths(page_of("GDPR concepts that came up")) > 60  # the bars and the axes
    assert paths(page_of("Score progression")) > 200  # the score lines
    assert paths(page_of("Glossary of GDPR articles")) < 100
    assert "How often each GDPR lesson came up" in text
    assert "How often each GDPR article came up" in text
    for table in report.tables:
        assert f"Table {table.number}: scores move by move" in text


@pytest.mark.django_db
def test_a_game_s_attack_lines_and_prompts_reach_the_html_and_the_pdf(teacher_a, tmp_path):
    """A game whose debrief sums up a table (Data Thief: attacks by type, stopped or not,
    each with its lesson) shows those lines under each table, and its prompts."""
    session = record_session(teacher_a, students=6, table_size=3, game="data_thief", seed=5)
    report = data.build(session)
    render.draw_charts(report)
    assert report.tables
    for table in report.tables:
        assert table.tally_heading == "Attacks by type"
        assert table.tally, f"table {table.number} made no attack"
        attacks = [item for item in table.timeline if item.type == "attack"]
        assert sum(int(found(r", (\d+) attacks?:", line.text, 1)) for line in table.tally) == (
            len(attacks)
        )
        for line in table.tally:
            assert line.lesson and line.lesson_title and line.lesson_articles, line.text
    prompts = [p for p in report.prompts if p.startswith("At table")]
    assert any("would have stopped it" in p or "Article 5(2)" in p for p in prompts)
    assert any(
        t.winner_prompt and "the best data manager" in t.winner_prompt for t in report.tables
    )

    html = unescape(render.render_html(report, for_pdf=True))
    assert html.count("Attacks by type") == len(report.tables)
    assert "one panel a score, from the top: Points, Attacks won or countered." in html
    assert "Data-Treasure" not in html  # Data-Tycoon's words, not this game's
    for table in report.tables:
        for line in table.tally:
            assert line.text in html and line.lesson_title in html
    for prompt in report.prompts:
        assert prompt in html
    render.write_pdf(render.render_html(report, for_pdf=True), tmp_path / "debrief.pdf")
    pdf_text = " ".join(page.extract_text() for page in PdfReader(tmp_path / "debrief.pdf").pages)
    assert pdf_text.count("Attacks by type") == len(report.tables)
    first = report.tables[0].tally[0].text.split(",")[0]  # the attack's name
    assert first in pdf_text


@pytest.mark.django_db
def test_attack_names_are_in_the_session_language(teacher_a):
    session = record_session(
        teacher_a, students=3, table_size=3, game="data_thief", language="ru", seed=5, quiz=False
    )
    with translation.override("ru"):
        report = data.build(session)
    (table,) = report.tables
    assert table.tally
    for line in table.tally:
        name = line.text.split(",")[0]
        assert re.search("[\\u0400-\\u04ff]", name), name  # from the card set's Russian names


@pytest.mark.django_db
def test_challenge_safeguard_and_interrupt_lines_reach_the_french_html_and_pdf(teacher_a, tmp_path):
    """A game whose debrief counts completions by safeguard (Data Monsters), in French:
    the challenge and card names are the card set's French names, each line has its
    lesson, the lesson moments and the quiz come from the game's lessons, and the lines
    and prompts reach the HTML and the PDF."""
    session = record_session(
        teacher_a,
        students=6,
        table_size=3,
        game="data_monsters",
        variant="standard",
        language="fr",
        seed=5,
    )
    french = {c["name"]["fr"] for c in CHALLENGES if c["name"]["fr"] != c["name"]["en"]}
    english = {c["name"]["en"] for c in CHALLENGES if c["name"]["fr"] != c["name"]["en"]}
    with translation.override("fr"):
        report = data.build(session)
        render.draw_charts(report)
    assert len(report.tables) == 2
    for table in report.tables:
        assert table.over and table.tally, f"table {table.number} has no line"
        completed = [item for item in table.timeline if item.type == "completed"]
        # the completion lines (they name challenges) come first, their counts add up
        named = [line for line in table.tally if any(name in line.text for name in french)]
        assert named == table.tally[: len(named)]
        assert sum(int(found(r"\d+", line.text)) for line in named) == len(completed)
        text = " ".join(line.text for line in table.tally)
        assert any(name in text for name in french)
        assert not any(name in text for name in english)
        for line in table.tally:
            assert line.lesson and line.lesson_title and line.lesson_articles, line.text
        assert table.winner_prompt and "Big Data" in table.winner_prompt
    prompts = [p for p in report.prompts if "%(" not in p]
    # French writes "(article 25)", "(articles 25 et 35)"
    assert prompts == report.prompts and any("(article" in p.lower() for p in prompts)
    # the lesson moments shown at the tables and the quiz drawn from them
    linked = set(
        LessonLink.objects.filter(game=session.game).values_list("lesson__slug", flat=True)
    )
    assert report.moment_counts and set(report.moment_counts) <= linked
    assert report.questions and all(0 <= q.share <= 100 for q in report.questions)
    assert len(report.students_lines) == 6
    for student in report.students_lines:
        assert student.quiz_answered >= 3 and 0 <= student.quiz_correct <= student.quiz_answered

    html = unescape(render.render_html(report, for_pdf=True))
    for table in report.tables:
        for line in table.tally:
            assert line.text in html and line.lesson_title in html
    for prompt in report.prompts:
        assert prompt in html
    render.write_pdf(render.render_html(report, for_pdf=True), tmp_path / "debrief.pdf")
    pages = PdfReader(tmp_path / "debrief.pdf").pages
    pdf_text = " ".join(" ".join(page.extract_text().split()) for page in pages)
    shown = [name for name in french if name in html]
    assert shown and any(name in pdf_text for name in shown)


def _quiz_report(*results: tuple[str, int, int]) -> SimpleNamespace:
    """A report with no table and these quiz questions: (text, answers, correct)."""
    questions = [QuestionResult(None, text, answers, correct) for text, answers, correct in results]  # type: ignore[arg-type]
    return SimpleNamespace(questions=questions, tables=[])


def test_the_quiz_prompt_counts_the_students_and_needs_three_answers():
    """One student's wrong answer is no "0% of the class": a question needs three answers,
    and the prompt says how many of how many."""
    lone = _quiz_report(("What is consent?", 1, 0), ("Who is the DPO?", 5, 4))
    assert prompts.discussion_prompts(lone) == []  # type: ignore[arg-type]
    hard = _quiz_report(("What is consent?", 1, 0), ("What is a breach?", 4, 1))
    with translation.override("en"):
        assert prompts.discussion_prompts(hard) == [  # type: ignore[arg-type]
            'Only 1 of 4 students answered "What is a breach?" correctly: let us go over it '
            "together. What is the right answer, and why?"
        ]


# A page's last line that must not end it: a table's winner line (its ranking follows)
# or a glossary entry's article (its text follows).
STRANDED_HEADING = re.compile(r"^(Winners?: .+|Article \d+ · .+)$")
PAGE_NUMBER = re.compile(r"^\d+ / \d+$")


def lowest_line(page: PageObject) -> str:
    """Return the text drawn lowest on the page, the page number left out (text is not
    extracted in the order it is drawn: a chart's words come last)."""
    parts: list[tuple[float, str]] = []

    def visit(text, cm, tm, _font, _size):
        if text.strip() and not PAGE_NUMBER.match(text.strip()):
            parts.append((round(tm[5] * cm[3] + tm[4] * cm[1] + cm[5], 1), text.strip()))

    page.extract_text(visitor_text=visit)
    if not parts:
        return ""
    low = min(y for y, _text in parts)
    return " ".join(text for y, text in parts if y == low)


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["data_tycoon", "data_monsters"])
def test_no_page_of_the_pdf_ends_on_a_heading(teacher_a, tmp_path, game):
    """ "Winner: Bao" ended page 4 with its ranking on page 5, and "Article 15" page 11
    with its text on page 12: a heading keeps the next lines on its page."""
    variant = "expert" if game == "data_tycoon" else get_game(game).default_variant
    session = record_session(teacher_a, students=8, seed=11, game=game, variant=variant)
    with translation.override("en"):
        report = data.build(session)
        render.draw_charts(report)
        render.write_pdf(render.render_html(report, for_pdf=True), tmp_path / "debrief.pdf")
    pages = PdfReader(tmp_path / "debrief.pdf").pages
    assert len(pages) > 5
    last_lines = [lowest_line(page) for page in pages[:-1]]
    assert all(last_lines), last_lines
    stranded = [(n, line) for n, line in enumerate(last_lines, 1) if STRANDED_HEADING.match(line)]
    assert not stranded, stranded


def table_rows_per_page(filler: int, rows: int, path: Path) -> list[int]:
    """Render, with the report's own stylesheet, ``filler`` lines then a table of
    ``rows`` students; return how many of its rows each page holds."""
    lines = "".join(f"<p>Line {n}</p>" for n in range(filler))
    body = "".join(f"<tr><td>Student {n}</td><td>{n}</td></tr>" for n in range(rows))
    html = (
        f"<html><head><style>{render.stylesheet()}</style></head><body>"
        f'<div class="report report--pdf">{lines}<table class="data"><thead><tr>'
        f"<th>Nickname</th><th>Score</th></tr></thead><tbody>{body}</tbody></table></div>"
        "</body></html>"
    )
    render.write_pdf(html, path)
    return [page.extract_text().count("Student ") for page in PdfReader(path).pages]


def test_a_table_leaves_no_row_alone_on_a_page(tmp_path):
    """The students' table of a class of 30 began a page with its one last row, or ended
    one with its header and first row: wherever the table falls, no page holds exactly
    one of its rows (a table that fits stays whole)."""
    seen = set()
    for filler in range(0, 70, 3):
        counts = [count for count in table_rows_per_page(filler, 30, tmp_path / "t.pdf") if count]
        assert sum(counts) == 30
        assert 1 not in counts, (filler, counts)
        seen.add(len(counts))
    assert seen == {1, 2}  # the table fell whole on a page, and across two


@pytest.mark.django_db
def test_a_quiz_share_is_written_as_each_language_writes_a_percentage(report):
    """English "67%", French, Spanish and Russian "67 %" (a no-break space): the report
    wrote "67 %" in English beside "0%" in its prompts."""
    shares = {}
    for language in ("en", "fr"):
        with translation.override(language):
            page = render.render_html(report)
        shares[language] = re.findall(r'<span class="share"[^>]*>([^<]*)</span>', page)
    assert shares["en"] and all(re.fullmatch(r"\d+%", share) for share in shares["en"])
    assert all(re.fullmatch("\\d+\u00a0%", share) for share in shares["fr"])
