"""Lesson moments in live play, on the real Redis channel layer.

A Sanction played at a table sends the Sanction lesson to the seats involved and to
the projector and records one LessonMoment per seat; in the "pause" lesson mode the
table accepts no action until the players shown the card dismissed it; "off" sends
nothing and records nothing.
"""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache

from classroom import actions
from classroom.models import Table
from games.matches import LESSON_HOLD_SECONDS, LESSON_PAUSE, MatchPaused, sync_timers
from games.models import Match, MatchTimer
from lessons.actions import do_set_lesson_mode
from lessons.models import LessonMoment
from lessons.moments import lesson_moments
from live import background, messages, scheduling, write
from tests.classroom.channels_testing import in_own_event_loop
from tests.games.arrange import Picker, arrange
from tests.live.conftest import open_session, seat_students
from tests.live.helpers import TIMEOUT, connect, play_socket, watch_socket

pytestmark = pytest.mark.django_db(transaction=True)


def sanction_table(school_class, mode, language="en"):
    """Start a two-seat session whose seat 0 holds a Sanction and seat 1 a Data-Treasure.

    Return the session, the table, seat 0's Sanction card id and the seats' participants.
    """
    session = open_session(school_class, table_size=2, language=language)
    seat_students(session, "Ana", "Ben")
    do_set_lesson_mode(session, mode)
    actions.do_start_session(session)
    table = Table.objects.get(session=session)
    pick = Picker("standard")
    card = pick("sanction")
    state = arrange(
        variant="standard",
        hands={0: [card, pick(colour="red")], 1: [pick(colour="blue")]},
        treasures={1: [(pick("purpose"), pick.many(6, colour="red"))]},
    )
    match = Match.objects.get(pk=table.match_id)
    match.snapshot = state.to_json()
    match.save(update_fields=["snapshot"])
    MatchTimer.objects.filter(match=match).delete()
    sync_timers(match, state)
    people = {seat.number: seat.participant for seat in table.seats.all()}
    return session, table, card, people


async def next_of(communicator: WebsocketCommunicator, kind: str) -> dict:
    """Return the next message of type ``kind``, skipping every other type."""
    while True:
        message = json.loads(await communicator.receive_from(timeout=TIMEOUT))
        if message["type"] == kind:
            return message


async def collect(communicator: WebsocketCommunicator, *kinds: str) -> dict[str, dict]:
    """Return the next message of each of ``kinds`` (whatever their order), by type."""
    got: dict[str, dict] = {}
    while len(got) < len(kinds):
        message = json.loads(await communicator.receive_from(timeout=TIMEOUT))
        if message["type"] in kinds and message["type"] not in got:
            got[message["type"]] = message
    return got


async def send(communicator: WebsocketCommunicator, message: dict) -> None:
    await communicator.send_to(text_data=json.dumps(message))


async def open_table(session, table, people, teacher_client):
    sockets = {n: play_socket(session, p) for n, p in people.items()}
    states = {n: (await connect(c))[1] for n, c in sockets.items()}
    projector = watch_socket(table, teacher_client)
    await connect(projector)
    return sockets, states, projector


def moments(session):
    return list(
        LessonMoment.objects.filter(session=session)
        .order_by("seat")
        .values_list("table", "seat", "lesson__slug", "event")
    )


@in_own_event_loop
async def test_a_sanction_sends_its_lesson_to_the_seats_involved_and_the_projector(
    school_class, teacher_client
):
    session, table, card, people = await sync_to_async(sanction_table)(school_class, "show")
    sockets, states, projector = await open_table(session, table, people, teacher_client)
    attack = {"type": "attack", "card": card, "target": 1}
    assert attack in states[0]["legal_actions"]
    await send(sockets[0], {"type": "act", "version": 0, "action": attack})

    got = {}
    for name, communicator in (("ana", sockets[0]), ("ben", sockets[1]), ("p", projector)):
        got[name] = await collect(communicator, "lesson", "state")
        lesson = got[name]["lesson"]
        assert lesson["event"] == "attack" and lesson["seats"] == [0, 1]
        assert lesson["pause"] is False and isinstance(lesson["moment"], int)
        card_json = lesson["lesson"]
        assert card_json["slug"] == "sanctions"
        assert card_json["title"] and card_json["short"]
        assert card_json["articles"] == ["58(2)", "83(4)", "83(5)", "84"]
        assert card_json["more_url"] == "/lessons/sanctions/"
    assert await sync_to_async(moments)(session) == [
        (table.number, 0, "sanctions", "attack"),
        (table.number, 1, "sanctions", "attack"),
    ]

    # "show" never blocks: the victim answers at once
    state = got["ben"]["state"]
    assert state["lesson_pause"] is None and state["legal_actions"] == [{"type": "accept"}]
    await send(sockets[1], {"type": "act", "version": 1, "action": {"type": "accept"}})
    lost = await next_of(sockets[1], "lesson")
    assert lost["event"] == "treasures_lost" and lost["lesson"]["slug"] == "sanctions"
    assert lost["seats"] == [1]
    for communicator in (*sockets.values(), projector):
        await communicator.disconnect()


@in_own_event_loop
async def test_the_lesson_card_is_in_the_session_language(school_class, teacher_client):
    session, table, card, people = await sync_to_async(sanction_table)(school_class, "show", "fr")
    sockets, _states, projector = await open_table(session, table, people, teacher_client)
    await send(
        sockets[0],
        {"type": "act", "version": 0, "action": {"type": "attack", "card": card, "target": 1}},
    )
    lesson = await next_of(sockets[1], "lesson")
    assert lesson["lesson"]["title"].startswith("Sanctions")
    assert lesson["lesson"]["title"] != "Sanctions: warnings, bans and big fines"
    for communicator in (*sockets.values(), projector):
        await communicator.disconnect()


@in_own_event_loop
async def test_in_pause_mode_the_table_waits_until_everyone_dismissed(school_class, teacher_client):
    session, table, card, people = await sync_to_async(sanction_table)(school_class, "pause")
    sockets, _states, projector = await open_table(session, table, people, teacher_client)
    await send(
        sockets[0],
        {"type": "act", "version": 0, "action": {"type": "attack", "card": card, "target": 1}},
    )
    lessons = {n: await next_of(c, "lesson") for n, c in sockets.items()}
    moment = lessons[0]["moment"]
    assert lessons[0]["pause"] is True and lessons[1]["moment"] == moment
    assert (await next_of(projector, "lesson"))["pause"] is True
    match = await sync_to_async(Match.objects.get)(pk=table.match_id)
    assert match.status == Match.Status.PAUSED  # its timers stop

    # the victim may not answer while the lesson is up
    await send(sockets[1], {"type": "act", "version": 1, "action": {"type": "accept"}})
    error = await next_of(sockets[1], "error")
    assert error["code"] == "lesson_pause" and error["message"]

    await send(sockets[0], {"type": "dismiss", "moment": moment})
    dismissed = await next_of(sockets[1], "lesson_dismissed")
    assert dismissed == {"type": "lesson_dismissed", "moment": moment, "waiting": [1], "version": 1}
    await send(sockets[1], {"type": "act", "version": 1, "action": {"type": "accept"}})
    assert (await next_of(sockets[1], "error"))["code"] == "lesson_pause"

    await send(sockets[1], {"type": "dismiss", "moment": moment})
    assert (await next_of(sockets[0], "lesson_dismissed"))["waiting"] == [1]  # Ana's own
    assert (await next_of(sockets[0], "lesson_dismissed"))["waiting"] == []
    assert (await next_of(sockets[1], "lesson_dismissed"))["waiting"] == []
    state = await next_of(sockets[1], "state")
    assert state["lesson_pause"] is None and state["paused"] is False
    assert state["legal_actions"] == [{"type": "accept"}]
    await send(sockets[1], {"type": "act", "version": 1, "action": {"type": "accept"}})
    state = await next_of(sockets[0], "state")
    while state["version"] < 2:  # the state sent when the pause ended comes first
        state = await next_of(sockets[0], "state")
    match = await sync_to_async(Match.objects.get)(pk=table.match_id)
    assert match.version == 2
    for communicator in (*sockets.values(), projector):
        await communicator.disconnect()


@in_own_event_loop
async def test_the_teacher_dismisses_for_the_table_and_bots_never_block(
    school_class, teacher_client, celery_worker
):
    session, table, card, people = await sync_to_async(sanction_table)(school_class, "pause")
    # Ben's seat goes to a bot: only Ana (the attacker) is waited for
    seat = await sync_to_async(lambda: table.seats.get(number=1))()
    await sync_to_async(actions.do_hand_seat_to_bot)(seat, True)
    sockets, _states, projector = await open_table(session, table, {0: people[0]}, teacher_client)
    await send(
        sockets[0],
        {"type": "act", "version": 0, "action": {"type": "attack", "card": card, "target": 1}},
    )
    got = await collect(sockets[0], "lesson", "state")
    lesson, state = got["lesson"], got["state"]
    assert state["lesson_pause"]["waiting"] == [0]
    # the move's own state carries the pause's card in this socket's language only
    (held,) = state["lesson_pause"]["moments"]
    assert "languages" not in held["lesson"]
    assert held["lesson"]["title"] == lesson["lesson"]["title"]
    await send(projector, {"type": "dismiss", "moment": lesson["moment"], "all": True})
    assert (await next_of(sockets[0], "lesson_dismissed"))["waiting"] == []
    # the bot answers the Sanction once the lesson is over
    for _ in range(100):
        match = await sync_to_async(Match.objects.get)(pk=table.match_id)
        if match.version >= 2:
            break
        await asyncio.sleep(0.1)
    assert match.version >= 2
    for communicator in (*sockets.values(), projector):
        await communicator.disconnect()


@in_own_event_loop
async def test_off_sends_no_lesson_and_records_none(school_class, teacher_client):
    session, table, card, people = await sync_to_async(sanction_table)(school_class, "off")
    sockets, _states, projector = await open_table(session, table, people, teacher_client)
    await send(
        sockets[0],
        {"type": "act", "version": 0, "action": {"type": "attack", "card": card, "target": 1}},
    )
    for communicator in (*sockets.values(), projector):
        assert (await next_of(communicator, "state"))["version"] == 1
    await send(sockets[1], {"type": "act", "version": 1, "action": {"type": "accept"}})
    for communicator in (*sockets.values(), projector):
        state = await next_of(communicator, "state")
        assert state["version"] == 2 and state["lesson_pause"] is None
        assert await communicator.receive_nothing(timeout=0.5)
    assert await sync_to_async(moments)(session) == []
    for communicator in (*sockets.values(), projector):
        await communicator.disconnect()


def test_a_frequent_lesson_shows_once_per_table_and_rare_ones_every_time(school_class):
    session, table, card, _people = sanction_table(school_class, "show")
    match = Match.objects.get(pk=table.match_id)
    pick = Picker("standard")
    simple = [c for c in pick.cards if c["kind"] == "dataset" and not c.get("sign")][:2]
    capture = {"type": "capture", "seat": 0, "card": simple[0]["id"], "captured": simple[1]["id"]}
    first = lesson_moments(match, [capture])
    assert [m["lesson"]["slug"] for m in first] == ["personal-data"] and first[0]["seats"] == [0]
    assert lesson_moments(match, [{**capture, "seat": 1}]) == []  # seen at this table
    attack = {"type": "attack", "seat": 0, "target": 1, "card": card, "kind": "sanction"}
    lost = {"type": "treasures_lost", "seat": 1, "cause": "sanction", "treasures": 1}
    both = lesson_moments(match, [attack, lost])  # one action: one Sanction moment
    assert len(both) == 1 and both[0]["seats"] == [0, 1]
    assert len(lesson_moments(match, [attack])) == 1  # and again next time
    assert LessonMoment.objects.filter(session=session, lesson__slug="sanctions").count() == 4


def test_a_teacher_resume_does_not_end_a_lesson_pause(school_class):
    _session, table, card, _people = sanction_table(school_class, "pause")
    write.act(table.match_id, 0, {"type": "attack", "card": card, "target": 1}, 0)
    actions.do_set_table_paused(table, True)
    actions.do_set_table_paused(Table.objects.get(pk=table.pk), False)
    with pytest.raises(MatchPaused):  # the lesson still holds the table, bots included
        write.act(table.match_id, 1, {"type": "accept"}, 1)
    snap = messages.load_table(table.pk)
    assert snap.paused and messages.state_message(snap, 1, "en")["legal_actions"] == []
    # the teacher pauses the table, the players dismiss: the table stays paused
    actions.do_set_table_paused(Table.objects.get(pk=table.pk), True)
    pause = messages.lesson_pause(table.match_id)
    assert pause is not None
    moment = pause["moments"][0]["moment"]
    write.dismiss_lesson(table.match_id, moment, 0)
    assert write.dismiss_lesson(table.match_id, moment, 0) is None  # already dismissed
    dismissed = write.dismiss_lesson(table.match_id, moment, 1)
    assert dismissed is not None and dismissed["over"] is True
    assert Match.objects.get(pk=table.match_id).status == Match.Status.PAUSED
    actions.do_set_table_paused(Table.objects.get(pk=table.pk), False)
    write.act(table.match_id, 1, {"type": "accept"}, 1)
    assert Match.objects.get(pk=table.match_id).version == 2


def test_timers_do_not_run_out_during_a_lesson_pause(school_class, clock):
    _session, table, card, _people = sanction_table(school_class, "pause")
    write.act(table.match_id, 0, {"type": "attack", "card": card, "target": 1}, 0)
    (timer,) = MatchTimer.objects.filter(match_id=table.match_id)  # the counter window
    clock.advance(timer.seconds + 30)  # the card is read slowly: the window would be over
    assert background.fire_timer(table.match_id, timer.timer_id) is False
    assert background.sweep()["fired"] == 0
    write.dismiss_lesson(table.match_id, None, None, everyone=True)
    moved = MatchTimer.objects.get(pk=timer.pk).due_at - timer.due_at
    # the pause, plus the test's real seconds
    assert timer.seconds + 30 <= moved.total_seconds() < timer.seconds + 40
    assert Match.objects.get(pk=table.match_id).status == Match.Status.RUNNING
    assert Match.objects.get(pk=table.match_id).version == 1  # nothing expired


def test_a_lesson_pause_lives_in_the_database_and_survives_a_redis_flush(school_class):
    _session, table, card, _people = sanction_table(school_class, "pause")
    write.act(table.match_id, 0, {"type": "attack", "card": card, "target": 1}, 0)
    pause = messages.lesson_pause(table.match_id)
    assert pause is not None
    # Every key of the Django cache is gone, as after a Redis restart without its file.
    # Django's RedisCache (settings.CACHES): its stubs do not know its private client.
    client = cache._cache.get_client(write=True)  # type: ignore[attr-defined]
    for key in client.scan_iter(match=f"{cache.key_prefix}:*"):
        client.delete(key)

    assert messages.lesson_pause(table.match_id) == pause
    (moment,) = pause["moments"]
    assert moment["event"] == "attack" and moment["seats"] == [0, 1]
    assert moment["waiting"] == [0, 1] and moment["lesson"]["slug"] == "sanctions"
    with pytest.raises(MatchPaused) as refused:
        write.act(table.match_id, 1, {"type": "accept"}, 1)
    assert refused.value.reason == LESSON_PAUSE
    snap = messages.load_table(table.pk)
    assert snap.paused and snap.lesson_pause == pause
    message = messages.state_message(snap, 1, "en")
    assert message["paused"] is True and message["legal_actions"] == []
    assert message["lesson_pause"] == {"waiting": [0, 1], "moments": pause["moments"]}


@in_own_event_loop
async def test_a_lesson_pause_nobody_ends_is_released_by_the_sweeper_after_six_hours(
    school_class, teacher_client, clock, monkeypatch
):
    """The lesson hold expires LESSON_HOLD_SECONDS after the card was shown: the sweeper
    lets the table go on and tells its sockets, as the teacher's "End the lesson pause"."""
    # In-process only: the worker shares the clock and must not sweep first.
    monkeypatch.setattr(scheduling, "send_task", lambda *args, **kwargs: None)
    session, table, card, people = await sync_to_async(sanction_table)(school_class, "pause")
    attack = {"type": "attack", "card": card, "target": 1}
    await sync_to_async(write.act)(table.match_id, 0, attack, 0)
    (timer,) = await sync_to_async(
        lambda: list(MatchTimer.objects.filter(match_id=table.match_id))
    )()
    sockets, _states, projector = await open_table(session, table, people, teacher_client)

    # The clock is the system's plus an offset: leave a margin for a slow machine.
    clock.advance(LESSON_HOLD_SECONDS - 60)
    assert (await sync_to_async(background.sweep)())["released"] == 0
    assert await sync_to_async(messages.lesson_pause)(table.match_id) is not None
    clock.advance(60)
    assert (await sync_to_async(background.sweep)())["released"] == 1

    dismissed = await next_of(sockets[1], "lesson_dismissed")
    assert dismissed["waiting"] == [] and dismissed["moment"] is None
    state = await next_of(sockets[1], "state")
    assert state["lesson_pause"] is None and state["paused"] is False
    assert state["legal_actions"] == [{"type": "accept"}]
    match = await sync_to_async(Match.objects.get)(pk=table.match_id)
    assert match.status == Match.Status.RUNNING
    assert not await sync_to_async(match.holds.exists)()
    due_at = (await sync_to_async(MatchTimer.objects.get)(pk=timer.pk)).due_at
    moved = (due_at - timer.due_at).total_seconds()
    # pushed back by the hold, plus the real seconds the test took (more on a busy machine)
    assert LESSON_HOLD_SECONDS <= moved < LESSON_HOLD_SECONDS + 10
    for communicator in (*sockets.values(), projector):
        await communicator.disconnect()
