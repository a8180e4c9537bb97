"""A recorded session: real matches played by seeded bots through the match write path,
with the lesson moments and quiz answers a class leaves behind."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from classroom import actions
from classroom.identity import new_device_id
from classroom.models import ClassSession, Participant, Seat, Table
from games.matches import apply_action, create_match
from games.models import Match
from games.registry import get_game
from lessons.actions import do_answer, do_record_event, draw_quiz
from lessons.links import kept_links

NICKNAMES = [
    "Ada", "Bao", "Cleo", "Dani", "Eli", "Femi", "Gus", "Hana", "Ivo", "Jun",
    "Kai", "Lea", "Milo", "Nia", "Oto", "Pia", "Quin", "Rui", "Sol", "Teo",
    "Uma", "Vik", "Wen", "Xia", "Yan", "Zoe", "Alba", "Bruno", "Cora", "Dmitri",
]  # fmt: skip
# The referee fires a timer now and then, as the clock would: Time deadlines run out too.
EXPIRE = 0.04


def play_match(match: Match, seed: int, record: Callable[[list[dict]], None] | None = None) -> None:
    """Play a match to its end with seeded heuristic bots, every move through apply_action."""
    game = get_game(match.game)
    rng = random.Random(seed)
    state = get_game(match.game).from_json(match.snapshot)
    bots = {seat: game.bot("heuristic") for seat in range(match.num_seats)}
    while not state.is_over():
        movers = state.to_move()
        if movers and not (state.timers() and rng.random() < EXPIRE):
            seat = movers[rng.randrange(len(movers))]
            legal = state.legal_actions(seat)
            action = bots[seat].choose(state.view(seat), legal, rng)
        else:
            seat, legal = None, state.legal_actions(None)
            action = legal[rng.randrange(len(legal))]
        applied = apply_action(match.pk, seat, action)
        state = applied.state
        if record is not None:
            record(applied.events)


def record_session(
    teacher: User,
    *,
    students: int = 10,
    table_size: int = 4,
    seed: int = 7,
    language: str = "en",
    variant: str = "expert",
    name: str = "5B",
    ended_days_ago: float | None = 0,
    quiz: bool = True,
    game: str = "data_tycoon",
) -> ClassSession:
    """Create a finished session: students at tables, matches played, moments, quiz answers."""
    school_class = actions.do_create_class(teacher, name)
    session = actions.do_create_session(
        school_class,
        game=game,
        variant=variant,
        language=language,
        table_size=table_size,
        bots_fill=True,
    )
    people = [
        Participant.objects.create(
            session=session,
            nickname=nickname,
            nickname_key=nickname.casefold(),
            device_id=new_device_id(),
        )
        for nickname in NICKNAMES[:students]
    ]
    groups = [people[i : i + table_size] for i in range(0, len(people), table_size)]
    rules = get_game(game)
    for number, group in enumerate(groups, start=1):
        seats = max(len(group), rules.min_players)
        match = create_match(game, variant, seats, seed=seed * 100 + number)
        table = Table.objects.create(session=session, number=number, match=match)
        for seat in range(seats):
            if seat < len(group):
                Seat.objects.create(table=table, number=seat, participant=group[seat])
            else:
                Seat.objects.create(table=table, number=seat, bot="heuristic")

        # the lessons recorded at this table (what seen_at_table would read from the
        # database): a capture's lesson, a frequent one, is recorded once per table
        shown: set[int] = set()

        def record(events, number=number, shown=shown):
            for event in events:
                if event["type"] == "capture":
                    lesson = kept_links(session.game).lesson_for_event(event)
                    if lesson is None or lesson.pk in shown:
                        continue
                for moment in do_record_event(session, session.game, event, table=number):
                    shown.add(moment.lesson_id)

        play_match(match, seed * 1000 + number, record)
    now = timezone.now()
    ClassSession.objects.filter(pk=session.pk).update(
        state=ClassSession.State.FINISHED,
        started_at=now - timedelta(minutes=50),
        ended_at=now if ended_days_ago is None else now - timedelta(days=ended_days_ago),
    )
    session.refresh_from_db()
    if quiz:
        answer_quizzes(session, seed)
    return session


def answer_quizzes(session: ClassSession, seed: int) -> None:
    """Let every seated student answer their quiz: right about two times in three."""
    rng = random.Random(seed)
    for seat in Seat.objects.filter(
        table__session=session, participant__isnull=False
    ).select_related("participant", "table"):
        assert seat.participant is not None  # the seats of students only
        the_quiz = draw_quiz(session, seat.participant, seat.table.number)
        for question in the_quiz.questions():
            text = question.texts.first()
            assert text is not None  # every question has its texts
            choices = len(text.choices)
            chosen = question.answer if rng.random() < 0.66 else (question.answer + 1) % choices
            do_answer(the_quiz, question, chosen)
