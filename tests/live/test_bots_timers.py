"""Bots and timers through the real Celery worker (a child process on the test database)."""

import logging
import random
import time

import pytest
import redis
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from classroom import actions
from classroom.models import Table
from games.matches import load_state, sync_timers
from games.models import Match, MatchAction, MatchTimer
from live import background, messages, scheduling, tasks, write
from live.background import fire_timer, sweep
from tests.games.arrange import Picker
from tests.games.test_data_tycoon_rules import attack_position
from tests.live.conftest import open_session, seat_students
from tests.live.helpers import drive_to_call_window

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("bot", ["heuristic", "search"])
def test_one_student_and_two_bots_play_on(school_class, celery_worker, bot):
    """Friendly or strong (the searching bot thinks in the worker), the bots play on."""
    session = open_session(school_class, table_size=3, bots=True, bot=bot)
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
            write.act(match.pk, human, rng.choice(state.legal_actions(human)), match.version)
        time.sleep(0.02)
    match = Match.objects.get(pk=table.match_id)
    bot_moves = MatchAction.objects.filter(match=match).exclude(seat=human).exclude(seat=None)
    assert {seat.bot_kind for seat in table.seats.exclude(number=human)} == {bot}
    assert match.version >= 40 or match.status == Match.Status.FINISHED
    assert bot_moves.count() >= 10
    # the bots may move on between the two reads: the log is gap-free up to its own end,
    # which is at least the version read before it
    versions = list(match.actions.order_by("version").values_list("version", flat=True))
    assert versions == list(range(1, len(versions) + 1))
    assert len(versions) >= match.version


def test_an_expired_call_window_is_fired_by_the_server(
    school_class, celery_worker, celery_beat, settings, clock
):
    """The worker and beat, as `make run` runs them, fire the expiry once it is due on
    the live clock, which the test moves for them: a minute-long call window expires at
    once (the timer's own task waits its countdown on the system clock; the sweeper,
    every LIVE_SWEEP_SECONDS, fires what the live clock says is due)."""
    session = open_session(school_class, table_size=2, options={"call_seconds": 60})
    seat_students(session, "Ana", "Ben")
    actions.do_start_session(session)
    match = Match.objects.get(table__session=session)
    owner = drive_to_call_window(match, seed=3)
    timer = MatchTimer.objects.get(match=match, timer_id=load_state(match).timers()[0]["id"])
    assert 55 < (timer.due_at - match.updated_at).total_seconds() <= 60.5

    # only the window's player is told of its deadline
    snap = messages.load_table(Table.objects.get(match=match).pk)
    mine = messages.state_message(snap, owner, "en")["deadline"]
    assert mine["timer"] == timer.timer_id and mine["kind"] in {"call_data", "call_databreach"}
    assert mine["seat"] == owner and mine["at"].endswith("Z") and mine["seconds"] == 60
    for other in (1 - owner, None):
        theirs = messages.state_message(snap, other, "en")["deadline"]
        assert theirs is None or theirs["timer"] != timer.timer_id

    version = match.version
    scheduling.schedule(match)  # what every change does: the timer's task, with its countdown
    assert not MatchAction.objects.filter(match=match, version=version + 1).exists()
    clock.advance(60)
    expired = None
    for _ in range(300):  # a busy worker may start it a little late
        expired = MatchAction.objects.filter(match=match, seat=None, version=version + 1).first()
        if expired is not None:
            break
        time.sleep(0.1)
    assert expired is not None, "the worker did not fire the call window's timer"
    assert expired.action == {"type": "expire", "timer": timer.timer_id}
    assert not MatchTimer.objects.filter(match=match, timer_id=timer.timer_id).exists()


def test_the_sweeper_fires_an_overdue_timer_once(school_class, settings, clock, monkeypatch):
    """After a crash no task may remain: the sweeper fires what is due; firing twice is harmless."""
    # In-process only: the clock moves for the worker too, which must not fire it first.
    monkeypatch.setattr(scheduling, "send_task", lambda *args, **kwargs: None)
    session = open_session(school_class, table_size=2, options={"call_seconds": 20})
    seat_students(session, "Ana", "Ben")
    actions.do_start_session(session)
    match = Match.objects.get(table__session=session)
    drive_to_call_window(match, seed=3)
    timer = MatchTimer.objects.get(match=match)
    version = match.version

    clock.advance(19)
    assert sweep()["fired"] == 0  # not due yet
    clock.advance(1)
    assert sweep()["fired"] == 1
    assert fire_timer(match.pk, timer.timer_id) is False  # gone: nothing happens
    match.refresh_from_db()
    assert match.version == version + 1


def test_a_timer_task_that_runs_early_queues_itself_again_for_the_due_time(
    school_class, settings, monkeypatch
):
    """Celery may start an eta task a little early: the expiry must not then be lost."""
    queued = []
    monkeypatch.setattr(
        scheduling, "send_task", lambda name, args, **kw: queued.append((name, args, kw))
    )
    session = open_session(school_class, table_size=2, options={"call_seconds": 5})
    seat_students(session, "Ana", "Ben")
    actions.do_start_session(session)
    match = Match.objects.get(table__session=session)
    drive_to_call_window(match, seed=3)
    match.refresh_from_db()
    timer = MatchTimer.objects.get(match=match)
    queued.clear()

    assert background.fire_timer(match.pk, timer.timer_id, match.seed) is False

    ((name, args, options),) = queued
    assert (name, args) == ("live.tasks.fire_timer", (match.pk, timer.timer_id, match.seed))
    # The broker counts on the system clock: the task waits what the live clock has left.
    assert 0 < options["countdown"] <= 5
    assert Match.objects.get(pk=match.pk).version == match.version  # nothing fired early
    assert background.fire_timer(match.pk, timer.timer_id, match.seed + 1) is False  # another match
    assert len(queued) == 1


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
    assert scheduling.bot_seats(match) == {mover: "heuristic"}
    seat = actions.do_hand_seat_to_bot(table.seats.get(number=mover), False)
    assert seat.participant_id is not None and seat.bot_kind == ""
    assert scheduling.bot_seats(match) == {}  # back to the student: no bot plays it any more


def test_a_bot_move_is_queued_after_the_human_paced_delay(school_class, settings, monkeypatch):
    """Bots play in a Celery task queued BOT_DELAY_SECONDS later, never in the socket's loop."""
    settings.BOT_DELAY_SECONDS = 2.5
    queued = []
    monkeypatch.setattr(scheduling, "send_task", lambda name, args, **kw: queued.append((name, kw)))
    session = open_session(school_class, table_size=2, bots=True)
    seat_students(session, "Ana")
    actions.do_start_session(session)
    match = Match.objects.get(table__session=session)
    bot = next(number for number, kind in scheduling.bot_seats(match).items() if kind)
    human = 1 - bot
    # The deal is random: the human may first have a turn, or a DATA! call to make.
    for _ in range(10):
        if human not in load_state(match).to_move():
            break
        write.act(match.pk, human, load_state(match).legal_actions(human)[0], match.version)
        match.refresh_from_db()
    assert load_state(match).to_move() == [bot]
    # the start or the human's move queued the bot's move, 2.5 s later
    assert [entry for entry in queued if entry[0] == "live.tasks.bot_move"] == [
        ("live.tasks.bot_move", {"countdown": 2.5})
    ]
    assert scheduling.schedule_bots(match) == 0  # one pending move per seat and version
    assert scheduling.schedule_bots(match, again=True) == 1
    assert queued[-1] == ("live.tasks.bot_move", {"countdown": 2.5})


def test_a_pause_stops_the_clock_of_every_timer(school_class, monkeypatch, clock, settings):
    # In-process only: no task reaches a worker left running by another test.
    monkeypatch.setattr(scheduling, "send_task", lambda *args, **kwargs: None)
    session = open_session(school_class, table_size=2, options={"call_seconds": 15})
    seat_students(session, "Ana", "Ben")
    actions.do_start_session(session)
    match = Match.objects.get(table__session=session)
    drive_to_call_window(match, seed=3)
    version = Match.objects.get(pk=match.pk).version
    timer = MatchTimer.objects.get(match=match)
    actions.do_pause_session(session)
    # overdue while paused: neither its task nor the sweeper may fire it
    clock.advance(600)
    assert background.fire_timer(match.pk, timer.timer_id) is False
    assert background.sweep()["fired"] == 0
    actions.do_resume_session(session)
    after = MatchTimer.objects.get(pk=timer.pk).due_at
    moved = (after - timer.due_at).total_seconds()
    assert 600 <= moved < 610  # moved later by the pause (plus the test's real seconds), no more
    assert background.fire_timer(match.pk, timer.timer_id) is False  # 15 s left, as when paused
    match.refresh_from_db()
    assert match.version == version  # nothing fired during the pause
    assert match.status == Match.Status.RUNNING and match.paused_at is None
    clock.advance(15)
    assert background.sweep()["fired"] == 1


def test_counter_window_and_time_card_deadlines_are_enforced_by_the_server(school_class, clock):
    """A counter window's and a Time card's deadlines reach every seat and the projector;
    when they pass the server sends the expiry as the referee (docs/protocol.md, 3 and 8)."""
    session = open_session(school_class, table_size=2, variant="expert")
    seat_students(session, "Ana", "Ben")
    actions.do_start_session(session)
    table = Table.objects.get(session=session)
    match = Match.objects.get(pk=table.match_id)
    pick = Picker("expert")
    treasure = (pick("purpose"), pick.many(6, colour="red"))
    state, card = attack_position("time", pick, treasures={1: [treasure]})
    match.snapshot = state.to_json()
    match.save(update_fields=["snapshot"])
    sync_timers(match, state)
    options = state.options

    def deadlines():
        snap = messages.load_table(table.pk)
        return {seat: messages.state_message(snap, seat, "en")["deadline"] for seat in (0, 1, None)}

    def expire(timer_id):
        timer = MatchTimer.objects.get(match=match, timer_id=timer_id)
        # Early by a margin a slow machine cannot eat: the clock is the system's plus an offset.
        early = min(10.0, timer.seconds / 2)
        clock.advance(timer.seconds - early)
        assert background.fire_timer(match.pk, timer_id) is False
        clock.advance(early)
        assert background.fire_timer(match.pk, timer_id) is True
        assert background.fire_timer(match.pk, timer_id) is False  # once only
        match.refresh_from_db()
        entry = MatchAction.objects.get(match=match, version=match.version)
        assert entry.seat is None and entry.action == {"type": "expire", "timer": timer_id}
        return entry

    # Seat 0 plays the Time card on seat 1: seat 1's counter window opens, for everyone to see.
    write.act(match.pk, 0, {"type": "attack", "card": card, "target": 1}, match.version)
    match.refresh_from_db()
    counter = MatchTimer.objects.get(match=match)
    assert counter.seconds == options["counter_seconds"]
    for deadline in deadlines().values():
        assert deadline["timer"] == counter.timer_id
        assert deadline["kind"] == "counter" and deadline["seat"] == 1
        assert deadline["seconds"] == options["counter_seconds"]

    # Nobody answers: the server resolves the attack, and the Time card's clock starts.
    expire(counter.timer_id)
    threat = MatchTimer.objects.get(match=match)
    assert threat.timer_id.startswith("t") and threat.seconds == options["time_card_seconds"]
    for deadline in deadlines().values():
        assert deadline["timer"] == threat.timer_id
        assert deadline["kind"] == "time" and deadline["seat"] == 1

    # The Time card's deadline passes: time is up for seat 1, who must now choose a loss.
    entry = expire(threat.timer_id)
    assert "time_up" in [event["type"] for event in entry.events]
    assert load_state(match).view(1)["window"]["kind"] == "loss"


@pytest.mark.parametrize(
    ("task", "work", "args", "result"),
    [
        ("bot_move", "play_bot", (1, 0, 5, 7), False),
        ("fire_timer", "fire_timer", (1, "call-1", 7), False),
        ("sweep", "sweep", (), {}),
    ],
)
def test_a_task_that_meets_a_lost_redis_leaves_it_to_the_sweeper(
    monkeypatch, caplog, *, task, work, args, result
):
    """Redis killed under a bot's move, a timer's expiry or the sweeper itself (the chaos
    run): the sweeper (the next one) plans it again from the database; the worker logs a
    warning, not a task that "raised unexpected"."""

    def lost(*_args):
        raise redis.exceptions.ConnectionError("Connection closed by server.")

    monkeypatch.setattr(background, work, lost)
    with caplog.at_level(logging.WARNING, logger=tasks.__name__):
        assert getattr(tasks, task)(*args) == result
    assert [record.levelno for record in caplog.records] == [logging.WARNING]
    assert "Connection closed by server." in caplog.text


def test_queueing_a_live_task_waits_for_no_result(settings):
    """The live tasks keep no result: queueing one must not subscribe to its result in
    Redis (two commands and a client for nothing, at nearly every move)."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    queue = "test-nobody-consumes"

    def subscribes() -> int:
        return client.info("commandstats").get("cmdstat_subscribe", {}).get("calls", 0)

    before = subscribes()
    try:
        scheduling.send_task("live.tasks.sweep", (), queue=queue)
        assert client.llen(queue) == 1
        assert subscribes() == before
    finally:
        client.delete(queue)


def test_the_sweeper_parses_a_bot_match_only_at_a_version_it_has_not_seen(
    school_class, monkeypatch
):
    """Every few seconds the sweeper looks for bot moves a crash lost: a match that has
    not moved since its last look is not read and parsed again, and a lost move is
    queued however often it looks."""
    queued = []
    monkeypatch.setattr(
        scheduling, "send_task", lambda name, args, **kw: queued.append((name, args))
    )
    session = open_session(school_class, table_size=2, bots=True)
    seat_students(session, "Ana")
    actions.do_start_session(session)
    table = Table.objects.get(session=session)
    bot = next(seat.number for seat in table.seats.all() if seat.participant_id is None)
    match = Match.objects.get(pk=table.match_id)
    state = load_state(match)
    rng = random.Random(2)
    while bot not in state.to_move():  # the student plays until the bot's turn
        (human,) = state.to_move()
        write.act(match.pk, human, rng.choice(state.legal_actions(human)), match.version)
        match.refresh_from_db()
        state = load_state(match)
    lost = f"live:bot:{match.pk}:{match.version}:{bot}"

    def sweep_once() -> list[str]:
        cache.delete(lost)  # as if the queued move was lost in a crash
        queued.clear()
        with CaptureQueriesContext(connection) as queries:
            assert background.sweep_bots() == 1
        assert queued == [("live.tasks.bot_move", (match.pk, bot, match.version, match.seed))]
        return [query["sql"] for query in queries.captured_queries]

    first = sweep_once()
    assert any('"games_match"."snapshot"' in sql for sql in first)
    again = sweep_once()
    assert len(again) == 2  # the running matches with bots, their seats
    assert not any('"snapshot"' in sql for sql in again)
