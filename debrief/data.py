"""Gather a session's debrief: replay every table's match from its seed and action log,
pick the notable events with their lessons, count the GDPR concepts, follow the scores,
and collect the quiz results and each student's line.

``build(session, step)`` returns a :class:`Report`; ``step(label)`` is called after each
unit of work (one per table, then one per section), so that an export can show its
progress. Everything here reads; nothing writes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from classroom.catalogue import game_name, variant_label
from classroom.models import ClassSession, Participant, Table
from debrief import prompts
from debrief.glossary import glossary_for
from games.describe import card_namer, event_line, translate
from games.engine import IllegalAction
from games.engine.base import State, TableSummary
from games.matches import UnreadableState, load_state
from games.models import Match
from games.registry import get_game
from lessons import results
from lessons.links import GameLinks
from lessons.models import Lesson, LessonMoment, QuizAnswer
from lessons.texts import article_number, lesson_content, session_teacher


@dataclass
class TimelineItem:
    move: int
    type: str
    seat: int | None
    text: str
    lesson: str | None = None  # the lesson's slug
    event: dict = field(default_factory=dict)
    lesson_title: str = ""
    lesson_articles: list[str] = field(default_factory=list)


@dataclass
class TallyLine:
    """One line of a table's summary (the game's ``Debrief.tally``) with its lesson."""

    text: str
    lesson: str | None = None  # the lesson's slug
    lesson_title: str = ""
    lesson_articles: list[str] = field(default_factory=list)


@dataclass
class Player:
    seat: int
    name: str
    bot: str  # "" for a student
    participant_id: int | None


@dataclass
class TableReport:
    number: int
    table_id: int
    match_id: int
    players: list[Player]
    moves: int
    over: bool
    scores: list[dict]  # the engine's scores() at the end of the log
    ranks: dict[int, int]  # seat -> rank (1 = first; tied seats share a rank)
    winners: list[str]
    timeline: list[TimelineItem]
    progression: list[tuple[int, list[dict]]]  # (move, scores()) after each change
    lesson_counts: Counter
    prompts: list[str]  # the game's discussion prompts of this table, most striking first
    winner_prompt: str | None
    replay_matches: bool  # the replay reached the stored snapshot
    # The last move today's rules replay when they refuse the next (a match played under
    # rules an upgrade changed); None: the whole log replayed.
    replayed_to: int | None = None
    tally_heading: str = ""
    tally: list[TallyLine] = field(default_factory=list)  # the game's summary lines
    chart: str = ""
    chart_img: str = ""  # the same chart as an <img>, for the PDF
    legend: list[tuple[str, str]] = field(default_factory=list)  # (name, colour) per player
    rows: list[dict] = field(default_factory=list)  # players by rank, with their scores


@dataclass
class StudentLine:
    nickname: str
    table: int | None
    rank: int | None
    scores: list[int | None]  # one per score column of the game (None: no seat)
    quiz_correct: int
    quiz_answered: int
    lessons_seen: int


@dataclass
class Report:
    session_id: int
    language: str
    game: str
    game_name: str
    score_columns: list[tuple[str, str]]  # (key, heading) of the game's score columns
    charted: list[str]  # the headings of the scores charted move by move, top to bottom
    variant: str
    variant_label: str
    school_class: str
    date: datetime | None
    ended: datetime | None
    duration_minutes: int | None
    students: int
    tables: list[TableReport]
    lessons: dict[str, dict]  # slug -> {"title", "short", "articles", "url"}
    lesson_counts: Counter  # slug -> times a linked event happened
    moment_counts: Counter  # slug -> lesson cards shown (LessonMoment rows)
    article_counts: Counter  # article number -> times
    questions: list = field(default_factory=list)  # lessons.results.QuestionResult
    students_lines: list[StudentLine] = field(default_factory=list)
    prompts: list[str] = field(default_factory=list)
    glossary: list[dict] = field(default_factory=list)
    concept_rows: list[dict] = field(default_factory=list)
    concepts_chart: str = ""
    concepts_chart_img: str = ""
    articles_chart_img: str = ""
    articles_chart: str = ""
    generated_at: datetime | None = None


def table_players(table: Table) -> list[Player]:
    """Return the seats of a table with the names the report shows."""
    return [
        Player(
            seat=seat.number,
            name=seat.display_name,
            bot=seat.bot_kind if seat.participant_id is None else "",
            participant_id=seat.participant_id,
        )
        for seat in table.seats.select_related("participant").order_by("number")
    ]


def _stored_state(match: Match) -> State | None:
    """Return the match's stored state, or None when this release can neither read it
    (a state of another format) nor replay its log to the end (asked only then)."""
    try:
        return load_state(match)
    except UnreadableState:
        return None


def replay_table(table: Table, language: str, lessons: GameLinks) -> TableReport:
    """Replay a table's match from its seed and action log; return what the report shows.

    A match played under rules an upgrade changed may have a move that today's rules
    refuse: the replay (the chart, the game's summary) stops before it, the events of the
    moves from there on are those stored when they were played, and the final scores
    are the stored match's."""
    match = table.match
    game = get_game(match.game)
    players = table_players(table)
    names = {player.seat: player.name for player in players}
    card = card_namer(match.game, match.variant, language)
    debrief = game.debrief()

    def player(seat):
        return names.get(seat, _("Player %(number)s") % {"number": seat + 1})

    state = game.new_state(match.num_seats, match.seed, match.variant, match.options or None)
    timeline: list[TimelineItem] = []
    counts: Counter[str] = Counter()
    progression = [(0, state.scores())]

    def note_events(version: int, events: list[dict]) -> None:
        for event in events:
            lesson = lessons.lesson_about_event(event)
            if lesson is not None:
                counts[lesson.slug] += 1
            if event["type"] in game.notable_events:
                timeline.append(
                    TimelineItem(
                        move=version,
                        type=event["type"],
                        seat=event.get("seat"),
                        text=event_line(match.game, event, player, card) or event["type"],
                        lesson=lesson.slug if lesson else None,
                        event=event,
                    )
                )

    actions = list(match.actions.order_by("version").values_list("version", "seat", "action"))
    refused = None
    for version, seat, action in actions:
        debrief.before(state, seat, action)
        try:
            events = state.apply(seat, action)
        except IllegalAction:
            refused = version
            break
        debrief.after(state, version, events)
        note_events(version, events)
        scores = state.scores()
        if scores != progression[-1][1]:
            progression.append((version, scores))
    if refused is not None:
        rest = match.actions.filter(version__gte=refused).order_by("version")
        for version, events in rest.values_list("version", "events"):
            note_events(version, events)
        state = _stored_state(match) or state
    last = actions[-1][0] if actions else 0
    if progression[-1][0] != last:
        progression.append((last, state.scores()))
    scores = state.scores()
    result = state.result() if state.is_over() else None
    ranks = game.rank(scores)
    winner_seats = result["winners"] if result else [s for s, r in ranks.items() if r == 1]
    summary = TableSummary(
        number=table.number,
        names={p.seat: p.name for p in players},
        events=[(item.move, item.event) for item in timeline],
        scores=scores,
        ranks=ranks,
        winners=[player(s) for s in winner_seats],
        over=state.is_over(),
    )
    winner = debrief.winner_prompt(summary)
    tally = []
    for line in debrief.tally(summary):
        lesson = lessons.lesson_about_event(line.event)
        tally.append(TallyLine(text=translate(line.text), lesson=lesson.slug if lesson else None))
    return TableReport(
        number=table.number,
        table_id=table.pk,
        match_id=match.pk,
        players=players,
        moves=len(actions),
        over=state.is_over(),
        scores=scores,
        ranks=ranks,
        winners=summary.winners,
        timeline=timeline,
        progression=progression,
        lesson_counts=counts,
        prompts=[translate(text) for text in debrief.prompts(summary)],
        winner_prompt=translate(winner) if winner else None,
        replay_matches=refused is None and state.to_json() == match.snapshot,
        replayed_to=None if refused is None else refused - 1,
        tally_heading=translate(debrief.tally_heading),
        tally=tally,
    )


def _lesson_cards(slugs: Iterable[str], session: ClassSession, language: str) -> dict[str, dict]:
    """Return the title, short text and articles of each lesson, in the session's wording."""
    teacher = session_teacher(session)
    out = {}
    for lesson in Lesson.objects.filter(slug__in=list(slugs)).prefetch_related("texts"):
        content = lesson_content(lesson, language, teacher)
        out[lesson.slug] = {
            "slug": lesson.slug,
            "title": content.title,
            "short": content.short,
            "articles": list(lesson.articles),
        }
    return out


def student_lines(
    session: ClassSession, tables: list[TableReport], columns: list[str]
) -> list[StudentLine]:
    """Return one line per student: table, rank, scores, quiz and lessons seen."""
    seats: dict[int, tuple[TableReport, int]] = {}
    for table in tables:
        for player in table.players:
            if player.participant_id is not None:
                seats[player.participant_id] = (table, player.seat)
    answers: dict[int, list[int]] = {}
    for participant_id, right in QuizAnswer.objects.filter(session=session).values_list(
        "participant_id", "correct"
    ):
        total = answers.setdefault(participant_id, [0, 0])
        total[0] += 1
        total[1] += int(right)
    seen: dict[tuple, set] = {}
    for table_number, seat, lesson_id in LessonMoment.objects.filter(session=session).values_list(
        "table", "seat", "lesson_id"
    ):
        seen.setdefault((table_number, seat), set()).add(lesson_id)
    lines = []
    # A removed student is in no line: their seat shows as "Removed student" in the
    # tables (Seat.display_name), the match log keeping the seat's moves.
    participants = Participant.objects.filter(session=session, kicked=False).order_by(
        "joined_at", "pk"
    )
    for participant in participants:
        number: int | None = None
        rank: int | None = None
        score: dict = {}
        lessons: set = set()
        place = seats.get(participant.pk)  # None: a student who sat at no table
        if place is not None:
            table, seat = place
            number, rank, score = table.number, table.ranks[seat], table.scores[seat]
            lessons = seen.get((table.number, seat), set()) | seen.get((table.number, None), set())
        answered, correct = answers.get(participant.pk, [0, 0])
        lines.append(
            StudentLine(
                nickname=participant.nickname,
                table=number,
                rank=rank,
                scores=[score.get(key) for key in columns],
                quiz_correct=correct,
                quiz_answered=answered,
                lessons_seen=len(lessons),
            )
        )
    return lines


def _lesson_items(table: TableReport) -> list[TallyLine | TimelineItem]:
    """Return the table's lines that may name a lesson: its summary, then its timeline."""
    return [*table.tally, *table.timeline]


def _label(report: Report) -> None:
    """Give the template what it shows without lookups: titles, rows in order."""
    for table in report.tables:
        for item in _lesson_items(table):
            lesson = report.lessons.get(item.lesson or "")
            if lesson:
                item.lesson_title, item.lesson_articles = lesson["title"], lesson["articles"]
        table.rows = sorted(
            (
                {
                    "rank": table.ranks[p.seat],
                    "name": p.name,
                    "seat": p.seat,
                    "values": [table.scores[p.seat][key] for key, _heading in report.score_columns],
                }
                for p in table.players
            ),
            key=lambda row: (row["rank"], row["seat"]),
        )
    report.concept_rows = [
        {
            "slug": slug,
            "title": report.lessons.get(slug, {}).get("title", slug),
            "articles": report.lessons.get(slug, {}).get("articles", []),
            "times": times,
            "shown": report.moment_counts.get(slug, 0),
        }
        for slug, times in report.lesson_counts.most_common()
    ]


def build(session: ClassSession, step: Callable[[str], object] = lambda label: None) -> Report:
    """Gather the whole report of a session; call ``step`` after each unit of work. Its
    charts are drawn apart (``debrief.render.draw_charts``): the web server, which
    replays a table with this module, does not load the drawing stack."""
    language = session.language
    started = session.started_at
    ended = session.ended_at
    duration = None
    if started:
        duration = round(((ended or timezone.now()) - started).total_seconds() / 60)
    report = Report(
        session_id=session.pk,
        language=language,
        game=session.game,
        game_name=game_name(session.game, language),
        score_columns=[(c.key, translate(c.label)) for c in get_game(session.game).score_columns],
        charted=[translate(c.label) for c in get_game(session.game).score_columns if c.chart],
        variant=session.variant,
        variant_label=variant_label(session.game, session.variant, language),
        school_class=session.school_class.name,
        date=started or session.created_at,
        ended=ended,
        duration_minutes=duration,
        students=session.active_participants().count(),
        tables=[],
        lessons={},
        lesson_counts=Counter(),
        moment_counts=Counter(),
        article_counts=Counter(),
        generated_at=timezone.now(),
    )
    step("summary")
    links = GameLinks(session.game)  # read once for every event of the session
    tables = Table.objects.filter(session=session).select_related("match").order_by("number")
    for stored in tables:
        report.tables.append(replay_table(stored, language, links))
        step(f"table {stored.number}")
    for table in report.tables:
        report.lesson_counts.update(table.lesson_counts)
    report.moment_counts.update(
        LessonMoment.objects.filter(session=session).values_list("lesson__slug", flat=True)
    )
    slugs = set(report.lesson_counts) | set(report.moment_counts)
    for table in report.tables:
        slugs.update(item.lesson for item in _lesson_items(table) if item.lesson)
    report.questions = results.question_results(session)
    slugs.update(result.question.lesson.slug for result in report.questions)
    report.lessons = _lesson_cards(slugs, session, language)
    _label(report)
    for slug, times in report.lesson_counts.items():
        numbers = {article_number(a) for a in report.lessons.get(slug, {}).get("articles", [])}
        for number in numbers - {None}:
            report.article_counts[number] += times
    step("concepts")
    report.students_lines = student_lines(
        session, report.tables, [key for key, _heading in report.score_columns]
    )
    report.prompts = prompts.discussion_prompts(report)
    citations = [a for lesson in report.lessons.values() for a in lesson["articles"]]
    report.glossary = glossary_for(citations, language)
    step("quiz and prompts")
    return report
