"""The teacher's live dashboard keeps each table's part (live.dashboard): a render draws
again only the tables that changed since, and every change a teacher must see (a move,
a seat's presence, a bot taking a seat, a pause, a lesson still being read, the end of
the session) changes what it draws."""

import asyncio
import json
import random
import re
import threading
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db.models.signals import post_init

from classroom import actions
from classroom.broadcast import dashboard_group
from classroom.models import Seat
from games import clock
from games.matches import hold, hold_for_lessons, release
from games.models import Match
from games.prepared import PreparedQuery
from live import dashboard, session_sockets
from live.dashboard import tables_context
from live.session_sockets import render_dashboard, render_tables
from live.sockets import DRAWING_THREADS
from tests.classroom.channels_testing import in_own_event_loop
from tests.live.conftest import EIGHT, open_session, seat_students
from tests.live.helpers import TIMEOUT, connect, dashboard_socket, play_socket, random_step, receive

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(monkeypatch):
    """Count the tables drawn (read and rendered) by number."""
    tables = []
    original = dashboard._table_item

    def table_item(session, table, *args, **kwargs):
        tables.append(table.number)
        return original(session, table, *args, **kwargs)

    monkeypatch.setattr(dashboard, "_table_item", table_item)
    return tables


def section(html: str | None, number: int) -> str:
    """Return the HTML of the table numbered ``number``."""
    assert html is not None, "no dashboard: the session is gone"
    found = re.search(
        rf'<section id="live-table-\d+" class="card live-table[^"]*"[^>]*>\s*'
        rf'<div class="live-table__head">\s*'
        rf"<h2[^>]*>Table {number}</h2>.*?</section>",
        html,
        re.S,
    )
    assert found, f"table {number} not in the dashboard"
    return found.group(0)


def test_a_second_render_draws_no_table_and_reads_no_match(
    started, drawn, django_assert_max_num_queries
):
    first = render_dashboard(started.pk, "en")
    assert first is not None
    assert sorted(drawn) == [1, 2] and "Ada" in first
    drawn.clear()
    with django_assert_max_num_queries(12):
        again = render_dashboard(started.pk, "en")
    assert drawn == []
    assert again == first
    # another language is another drawing
    assert render_dashboard(started.pk, "fr") != first and sorted(drawn) == [1, 2]


def test_a_move_redraws_its_table_only(started, drawn):
    render_dashboard(started.pk, "en")
    table = started.tables.get(number=2)
    match = Match.objects.get(pk=table.match_id)
    random_step(match, random.Random(3))
    drawn.clear()
    html = render_dashboard(started.pk, "en")
    assert drawn == [2]
    assert "move 1" in section(html, 2) and "move 0" in section(html, 1)


class CountedReads:
    """A news read of the dashboard that counts its uses."""

    def __init__(self, read: PreparedQuery[Any], uses: list[tuple[int, ...]]) -> None:
        self.read, self.uses = read, uses

    def rows(self, *values: int) -> list[tuple]:
        self.uses.append(values)
        return self.read.rows(*values)


def test_a_redraw_reads_the_news_of_the_new_actions_only(started, monkeypatch):
    """A table drawn before reads the events of the actions stored since, not its latest
    15 again, and shows what a first drawing of it shows; more new actions than that read
    holds, or a player renamed, read the latest actions again."""
    full_reads: list[tuple[int, ...]] = []
    counted = tuple(CountedReads(read, full_reads) for read in dashboard.NEWS_READS)
    monkeypatch.setattr(dashboard, "NEWS_READS", counted)
    table = started.tables.get(number=2)
    match = Match.objects.get(pk=table.match_id)
    rng = random.Random(5)
    render_dashboard(started.pk, "en")
    assert full_reads
    news_shown = []
    for _ in range(30):
        for _ in range(rng.randint(1, 3)):
            random_step(match, rng)
        full_reads.clear()
        kept = section(render_dashboard(started.pk, "en"), 2)
        assert full_reads == []
        dashboard.forget_kept_tables()
        assert section(render_dashboard(started.pk, "en"), 2) == kept
        news_shown.append(kept.count("<li>"))
    assert max(news_shown) == dashboard.NEWS_PER_TABLE  # the news were shown, and cut

    for _ in range(dashboard.NEWS_SINCE_ACTIONS):
        random_step(match, rng)
    full_reads.clear()
    kept = section(render_dashboard(started.pk, "en"), 2)
    assert full_reads
    dashboard.forget_kept_tables()
    assert section(render_dashboard(started.pk, "en"), 2) == kept

    renamed_seat = Seat.objects.filter(table=table, participant__isnull=False).first()
    assert renamed_seat is not None and renamed_seat.participant is not None
    renamed = renamed_seat.participant
    old_name = renamed.nickname
    assert old_name in kept
    actions.do_rename_participant(renamed, "Zora")
    full_reads.clear()
    html = section(render_dashboard(started.pk, "en"), 2)
    assert full_reads and "Zora" in html and old_name not in html


def test_presence_a_bot_a_pause_and_a_lesson_still_read_are_drawn(started, drawn):
    render_dashboard(started.pk, "en")
    ada = Seat.objects.get(participant__nickname="Ada")
    number = ada.table.number

    Seat.objects.filter(pk=ada.pk).update(connected=1, last_seen_at=clock.now())
    drawn.clear()
    html = render_dashboard(started.pk, "en")
    assert drawn == [number] and "●&nbsp;yes" in section(html, number)

    actions.do_hand_seat_to_bot(ada, True)
    drawn.clear()
    html = render_dashboard(started.pk, "en")
    assert drawn == [number] and "Give back" in section(html, number)

    hold(ada.table.match_id, "table")
    drawn.clear()
    html = render_dashboard(started.pk, "en")
    assert drawn == [number] and "Paused" in section(html, number)
    release(ada.table.match_id, "table")

    lesson = {"slug": "sanctions", "title": "Sanctions", "languages": {}}
    moment = {"moment": 7, "event": "sanction", "lesson": lesson, "seats": [0, 1]}
    hold_for_lessons(ada.table.match_id, [{**moment, "waiting": [0, 1]}])
    render_dashboard(started.pk, "en")
    hold_obj = Match.objects.get(pk=ada.table.match_id).holds.get()
    hold_obj.waiting = [1]
    hold_obj.save()
    drawn.clear()
    html = render_dashboard(started.pk, "en")
    waiting = Seat.objects.get(table=ada.table, number=1).display_name
    assert drawn == [number]
    assert f"still reading: {waiting}" in section(html, number)


def test_the_end_of_the_session_redraws_every_table(started, drawn):
    first = render_dashboard(started.pk, "en")
    assert first is not None
    assert "Pause this table" in first
    actions.do_end_session(started)
    drawn.clear()
    context = tables_context(type(started).objects.get(pk=started.pk), "en")
    assert sorted(drawn) == [1, 2]
    assert all("Pause this table" not in item["html"] for item in context["tables"])


@pytest.mark.django_db(transaction=True)
@in_own_event_loop
async def test_a_change_during_a_render_is_drawn_after_it(
    school_class, teacher_client, monkeypatch
):
    """A move stored while the dashboard reads the tables is not lost: another render
    follows (else the dashboard kept the old picture until some later change)."""
    reading, go_on = threading.Event(), threading.Event()

    def hold_second(count):
        if count == 2:  # the first render after a change: hold it while reading
            reading.set()
            go_on.wait(10)

    session, socket, _renders = await counted_dashboard(
        school_class, teacher_client, monkeypatch, hold_second
    )
    layer = get_channel_layer()
    await layer.group_send(dashboard_group(session.pk), CHANGED)
    assert await asyncio.to_thread(reading.wait, 10)
    await layer.group_send(dashboard_group(session.pk), CHANGED)  # while it reads
    await asyncio.sleep(0.3)
    go_on.set()
    assert await socket.receive_from(timeout=TIMEOUT) == "<p>render 2</p>"
    assert await socket.receive_from(timeout=TIMEOUT) == "<p>render 3</p>"
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@in_own_event_loop
async def test_a_move_does_not_wait_for_a_dashboard_being_drawn(
    school_class, teacher_client, monkeypatch
):
    """The dashboards are drawn in a thread of their own: while one is being drawn, a
    student's move is stored and its state reaches the table (in the database thread of
    every move, the move waited for the drawing to end)."""
    session = await sync_to_async(started_table)(school_class)
    seated = await sync_to_async(
        lambda: {
            seat.number: seat.participant
            for seat in Seat.objects.filter(table__session=session, participant__isnull=False)
        }
    )()
    drawing, go_on = threading.Event(), threading.Event()
    original = session_sockets.render_dashboard

    def render(session_id, language):
        drawing.set()
        go_on.wait(3 * TIMEOUT)
        return original(session_id, language)

    monkeypatch.setattr(session_sockets, "render_dashboard", render)
    sockets = {number: play_socket(session, student) for number, student in seated.items()}
    states = {number: (await connect(socket))[1] for number, socket in sockets.items()}
    dashboard = dashboard_socket(session, teacher_client)
    connected, _ = await dashboard.connect(timeout=TIMEOUT)
    assert connected
    assert await asyncio.to_thread(drawing.wait, TIMEOUT)  # its first drawing is held
    mover = next(number for number, state in states.items() if state["legal_actions"])
    action = states[mover]["legal_actions"][0]
    version = states[mover]["version"]
    await sockets[mover].send_to(
        text_data=json.dumps({"type": "act", "version": version, "action": action})
    )
    for socket in sockets.values():
        assert (await receive(socket, "state"))["version"] > version
    assert not go_on.is_set() and await dashboard.receive_nothing(timeout=0.2)
    go_on.set()
    assert 'id="live-tables"' in await dashboard.receive_from(timeout=TIMEOUT)
    for socket in [dashboard, *sockets.values()]:
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@in_own_event_loop
async def test_a_hidden_dashboard_is_drawn_again_only_when_seen(
    school_class, teacher_client, monkeypatch
):
    """While the page says its tab is hidden, changes draw nothing; once seen again, one
    drawing of the whole. Any other message changes nothing."""
    session, socket, renders = await counted_dashboard(school_class, teacher_client, monkeypatch)
    layer = get_channel_layer()
    junks = ["{", "[]", '{"type": "visibility"}', '{"type": "visibility", "hidden": 1}']
    # nested past the decoder's limit, and a "hidden" too large to be read
    junks += ["[" * 100_000, json.dumps({"type": "visibility", "hidden": True, "x": "a" * 70_000})]
    for junk in junks:
        await socket.send_to(text_data=junk)
    await socket.send_to(text_data='{"type": "visibility", "hidden": false}')
    await layer.group_send(dashboard_group(session.pk), CHANGED)
    assert await socket.receive_from(timeout=TIMEOUT) == "<p>render 2</p>"  # still seen

    await socket.send_to(text_data='{"type": "visibility", "hidden": true}')
    await asyncio.sleep(0.2)
    for _ in range(3):
        await layer.group_send(dashboard_group(session.pk), CHANGED)
    assert await socket.receive_nothing(timeout=1)
    assert len(renders) == 2
    await socket.send_to(text_data='{"type": "visibility", "hidden": false}')
    assert await socket.receive_from(timeout=TIMEOUT) == "<p>render 3</p>"
    assert await socket.receive_nothing(timeout=0.5)
    await socket.send_to(text_data='{"type": "visibility", "hidden": false}')  # no change
    assert await socket.receive_nothing(timeout=0.5) and len(renders) == 3
    await socket.disconnect()


CHANGED = {"type": "dashboard.changed", "reason": "move"}


async def counted_dashboard(school_class, teacher_client, monkeypatch, hold=None):
    """Start a session and connect its dashboard socket, whose drawings are stand-ins
    ("<p>render N</p>", ``hold(N)`` called while drawing the N-th) counted in a list;
    return the session, the socket (its first drawing received) and that list."""
    session = await sync_to_async(started_table)(school_class)
    monkeypatch.setattr(session_sockets, "DASHBOARD_COALESCE_SECONDS", 0.1)
    renders = []

    def render(session_id, language):
        renders.append(session_id)
        if hold is not None:
            hold(len(renders))
        return f"<p>render {len(renders)}</p>"

    monkeypatch.setattr(session_sockets, "render_dashboard", render)
    socket = dashboard_socket(session, teacher_client)
    connected, _ = await socket.connect(timeout=TIMEOUT)
    assert connected
    assert await socket.receive_from(timeout=TIMEOUT) == "<p>render 1</p>"
    return session, socket, renders


def started_table(school_class):
    session = open_session(school_class, table_size=4, bots=True)
    seat_students(session, *EIGHT[:4])
    actions.do_start_session(session)
    return session


def test_a_table_s_part_alone_and_the_whole_when_a_table_is_gone(started, drawn):
    first, second = started.tables.order_by("number")
    part = render_tables(started.pk, "en", {second.pk})
    assert part is not None
    assert part.startswith(f'<section id="live-table-{second.pk}"') and part.count("<section") == 1
    assert part.strip() == section(render_dashboard(started.pk, "en"), 2)
    whole = render_tables(started.pk, "en", {first.pk, first.pk + 1000})
    assert whole is not None
    assert 'id="live-tables"' in whole and whole.count('class="card live-table') == 2
    assert render_tables(started.pk + 1000, "en", {first.pk}) is None  # a deleted session


def test_a_redraw_of_the_tables_that_moved_reads_those_tables_only(started, drawn):
    """A class at a human pace moves a table or two a second: their redraw reads their
    own seats, not the session's every seat (the other table's students are not read)."""
    second = started.tables.get(number=2)
    render_dashboard(started.pk, "en")
    random_step(Match.objects.get(pk=second.match_id), random.Random(5))
    seats_read = []

    def count(sender, instance, **kwargs):
        seats_read.append(instance.table_id)

    post_init.connect(count, sender=Seat)
    try:
        part = render_tables(started.pk, "en", {second.pk})
    finally:
        post_init.disconnect(count, sender=Seat)
    assert drawn == [1, 2, 2]
    assert seats_read and set(seats_read) == {second.pk}
    assert part is not None
    assert part.strip() == section(render_dashboard(started.pk, "en"), 2)
    assert "move 1" in part


@pytest.mark.django_db(transaction=True)
@in_own_event_loop
async def test_a_change_after_a_quiet_second_is_drawn_at_once(
    school_class, teacher_client, monkeypatch
):
    """The first change after a quiet window is drawn at once (a student's nickname on the
    join screen as they join); the changes right after it wait for the window's end, in
    one drawing."""
    session, socket, renders = await counted_dashboard(school_class, teacher_client, monkeypatch)
    monkeypatch.setattr(session_sockets, "DASHBOARD_COALESCE_SECONDS", 1.0)
    await asyncio.sleep(1.1)
    layer = get_channel_layer()
    await layer.group_send(dashboard_group(session.pk), CHANGED)
    assert await socket.receive_from(timeout=0.5) == "<p>render 2</p>"
    for _ in range(3):
        await layer.group_send(dashboard_group(session.pk), CHANGED)
    assert await socket.receive_nothing(timeout=0.6)
    assert await socket.receive_from(timeout=TIMEOUT) == "<p>render 3</p>"
    assert await socket.receive_nothing(timeout=1.2) and len(renders) == 3
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    len(DRAWING_THREADS) < 2, reason="one drawing thread (SQLite): every session's in it"
)
@in_own_event_loop
async def test_a_dashboard_waits_for_no_drawing_of_another_session(
    school_class, teacher_client, monkeypatch
):
    """On PostgreSQL the dashboards are drawn in several threads, a session's always in the
    same one: while a drawing of one session waits (on a distant database, for each of its
    statements), another session's dashboard is drawn (in one thread it waited)."""
    slow = await sync_to_async(started_table)(school_class)
    while True:  # a session whose drawings go to another thread
        quick = await sync_to_async(started_table)(school_class)
        if quick.pk % len(DRAWING_THREADS) != slow.pk % len(DRAWING_THREADS):
            break
    drawing, go_on = threading.Event(), threading.Event()
    original = session_sockets.render_dashboard

    def render(session_id, language):
        if session_id == slow.pk:
            drawing.set()
            go_on.wait(3 * TIMEOUT)
        return original(session_id, language)

    monkeypatch.setattr(session_sockets, "render_dashboard", render)
    held = dashboard_socket(slow, teacher_client)
    assert (await held.connect(timeout=TIMEOUT))[0]
    assert await asyncio.to_thread(drawing.wait, TIMEOUT)
    seen = dashboard_socket(quick, teacher_client)
    assert (await seen.connect(timeout=TIMEOUT))[0]
    assert 'id="live-tables"' in await seen.receive_from(timeout=TIMEOUT)
    assert not go_on.is_set() and await held.receive_nothing(timeout=0.1)
    go_on.set()
    assert 'id="live-tables"' in await held.receive_from(timeout=TIMEOUT)
    for socket in (held, seen):
        await socket.disconnect()
