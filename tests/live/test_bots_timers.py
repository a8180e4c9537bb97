"""Bots and timers through the real Celery worker (a child process on the test database)."""

import random
import time

import pytest

from classroom import actions
from classroom.models import Table
from games import live
from games.matches import load_state
from games.models import Match, MatchAction, MatchTimer
from tests.live.conftest import open_session, seat_students
from tests.live.helpers import drive_to_call_window

pytestmark = pytest.mark.django_db(transaction=True)


def test_one_student_and_two_bots_play_on(school_class, celery_worker):
    session = open_session(school_class, table_size=3, bots=True)
    (ana,) = seat_students(session, "Ana")
    actions.do_start_session(session)
    table = Table.objects.get(session=session)
    human = table.seats.get(participant=ana).number
    rng = random.Random(4)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        match = Match.objects.get(pk=table.match_id)
        if match.version >= 40 or match.status == Match.Status.FINISHED:
            break
        state = load_state(match)
        if human in state.to_move():
            live.act(match.pk, human, rng.choice(state.legal_actions(human)), match.version)
        time.sleep(0.02)
    match = Match.objects.get(pk=table.match_id)
    bot_moves = MatchAction.objects.filter(match=match).exclude(seat=human).exclude(seat=None)
    assert match.version >= 40 or match.status == Match.Status.FINISHED
    assert bot_moves.count() >= 10
    versions = list(match.actions.values_list("version", flat=True))
    assert versions == list(range(1, match.version + 1))


def test_an_expired_call_window_is_fired_by_the_server(school_class, celery_worker, settings):
    settings.LIVE_MATCH_OPTIONS = {"call_seconds": 1}
    session = open_session(school_class, table_size=2)
    seat_students(session, "Ana", "Ben")
    actions.do_start_session(session)
    match = Match.objects.get(table__session=session)
    owner = drive_to_call_window(match, seed=3)
    timer = MatchTimer.objects.get(match=match, timer_id=load_state(match).timers()[0]["id"])
    assert 0 < (timer.due_at - match.updated_at).total_seconds() <= 1.5

    # only the window's player is told of its deadline
    snap = live.load_table(Table.objects.get(match=match).pk)
    mine = live.state_message(snap, owner, "en")["deadline"]
    assert mine["timer"] == timer.timer_id and mine["kind"] in {"call_data", "call_databreach"}
    assert mine["seat"] == owner and mine["at"].endswith("Z") and mine["seconds"] == 1
    for other in (1 - owner, None):
        theirs = live.state_message(snap, other, "en")["deadline"]
        assert theirs is None or theirs["timer"] != timer.timer_id

    version = match.version
    live.schedule(match)  # what every change does: the timer's task, with its eta
    expired = None
    for _ in range(100):
        expired = MatchAction.objects.filter(match=match, seat=None, version=version + 1).first()
        if expired is not None:
            break
        time.sleep(0.1)
    assert expired is not None, "the worker did not fire the call window's timer"
    assert expired.action == {"type": "expire", "timer": timer.timer_id}
    assert not MatchTimer.objects.filter(match=match, timer_id=timer.timer_id).exists()


def test_the_sweeper_fires_an_overdue_timer_once(school_class, settings):
    """After a crash no task may remain: the sweeper fires what is due; firing twice is harmless."""
    from django.utils import timezone

    from games.live import fire_timer, sweep

    settings.LIVE_MATCH_OPTIONS = {"call_seconds": 1}
    session = open_session(school_class, table_size=2)
    seat_students(session, "Ana", "Ben")
    actions.do_start_session(session)
    match = Match.objects.get(table__session=session)
    drive_to_call_window(match, seed=3)
    timer = MatchTimer.objects.get(match=match)
    MatchTimer.objects.filter(pk=timer.pk).update(due_at=timezone.now())
    version = match.version

    assert sweep()["fired"] == 1
    assert fire_timer(match.pk, timer.timer_id) is False  # gone: nothing happens
    match.refresh_from_db()
    assert match.version == version + 1


def test_a_seat_handed_to_a_bot_is_played_by_the_worker(school_class, celery_worker):
    session = open_session(school_class, table_size=2)
    seat_students(session, "Ana", "Ben")
    actions.do_start_session(session)
    table = Table.objects.get(session=session)
    match = Match.objects.get(pk=table.match_id)
    mover = load_state(match).to_move()[0]
    actions.do_hand_seat_to_bot(table.seats.get(number=mover), True)
    for _ in range(100):
        if MatchAction.objects.filter(match=match, seat=mover).exists():
            break
        time.sleep(0.1)
    assert MatchAction.objects.filter(match=match, seat=mover).exists()
    actions.do_hand_seat_to_bot(table.seats.get(number=mover), False)


def test_a_pause_stops_the_clock_of_every_timer(school_class):
    session = open_session(school_class, table_size=2)
    seat_students(session, "Ana", "Ben")
    actions.do_start_session(session)
    match = Match.objects.get(table__session=session)
    drive_to_call_window(match, seed=3)
    before = MatchTimer.objects.get(match=match).due_at
    actions.do_pause_session(session)
    time.sleep(0.3)
    assert live.fire_timer(match.pk, MatchTimer.objects.get(match=match).timer_id) is False
    actions.do_resume_session(session)
    after = MatchTimer.objects.get(match=match).due_at
    assert (after - before).total_seconds() >= 0.3
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING and match.paused_at is None
