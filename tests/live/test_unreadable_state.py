"""Live play and the teacher's dashboard on a match whose stored state this release
cannot read: it is rebuilt from the match's log (games.matches.load_state), and the
table is shown and plays on."""

import json
import logging
import random
from types import ModuleType

import pytest
from asgiref.sync import sync_to_async

from classroom import actions
from classroom.models import SchoolClass, Table
from games.models import Match, MatchAction, MatchTimer
from live import background, scheduling
from live.dashboard import forget_kept_tables, tables_context
from tests.classroom.channels_testing import in_own_event_loop
from tests.live.conftest import open_session, seat_students
from tests.live.helpers import (
    TIMEOUT,
    connect,
    drive_to_call_window,
    play_socket,
    random_step,
    receive,
)
from tests.live.test_consumers import started_table
from tests.matches.test_unreadable_state import from_a_later_release


@pytest.mark.django_db(transaction=True)
@in_own_event_loop
async def test_a_socket_plays_on_a_state_rebuilt_from_the_log(
    school_class: SchoolClass, caplog: pytest.LogCaptureFixture
) -> None:
    session, table, participants = await sync_to_async(started_table)(school_class)
    match = await Match.objects.aget(pk=table.match_id)
    await sync_to_async(random_step)(match, random.Random(1))  # and reads it again
    stored = match.snapshot
    await Match.objects.filter(pk=match.pk).aupdate(snapshot=from_a_later_release(stored))
    sockets = [play_socket(session, participant) for participant in participants.values()]
    states = [(await connect(socket))[1] for socket in sockets]
    assert {state["version"] for state in states} == {1}
    mover = next(i for i, state in enumerate(states) if state["legal_actions"])
    action = states[mover]["legal_actions"][0]
    await sockets[mover].send_to(
        text_data=json.dumps({"type": "act", "version": 1, "action": action})
    )
    for socket in sockets:
        assert (await receive(socket, "state"))["version"] == 2
    for socket in sockets:
        await socket.disconnect()
    assert "rebuilt from its 1 moves" in caplog.text


@pytest.mark.django_db
def test_the_dashboard_shows_a_table_whose_state_is_rebuilt(school_class: SchoolClass) -> None:
    session = open_session(school_class, table_size=2)
    seat_students(session, "Ada", "Bao")
    actions.do_start_session(session)
    match = Match.objects.get(pk=Table.objects.get(session=session).match_id)
    rng = random.Random(2)
    for _ in range(3):
        random_step(match, rng)
    (before,) = tables_context(session, "en")["tables"]
    Match.objects.filter(pk=match.pk).update(snapshot=from_a_later_release(match.snapshot))
    forget_kept_tables()  # as a server started after the upgrade: it reads every table
    (after,) = tables_context(session, "en")["tables"]
    assert after["version"] == before["version"] == 3
    assert [seat["to_move"] for seat in after["seats"]] == [
        seat["to_move"] for seat in before["seats"]
    ]
    assert [seat["score"] for seat in after["seats"]] == [seat["score"] for seat in before["seats"]]
    assert Match.objects.get(pk=match.pk).snapshot == match.snapshot


@pytest.mark.expected_log_errors(r"could not be drawn on the dashboard", r"UnreadableState")
@pytest.mark.django_db
def test_a_table_that_cannot_be_drawn_leaves_the_dashboard_and_the_other_tables(
    school_class: SchoolClass, caplog: pytest.LogCaptureFixture
) -> None:
    """A state this release can neither read nor rebuild (its log's move refused by
    today's rules too): that table's part says so, with its players; the others are
    drawn as usual, and the error is logged once a version, not at every redraw."""
    session = open_session(school_class, table_size=2)
    seat_students(session, "Ada", "Bao", "Cleo", "Dani")
    actions.do_start_session(session)
    first, second = Table.objects.filter(session=session).order_by("number")
    rng = random.Random(2)
    for table in (first, second):
        match = Match.objects.get(pk=table.match_id)
        for _ in range(3):
            random_step(match, rng)
    broken = Match.objects.get(pk=first.match_id)
    MatchAction.objects.filter(match=broken, version=2).update(action={"type": "earlier"})
    Match.objects.filter(pk=broken.pk).update(snapshot=from_a_later_release(broken.snapshot))
    forget_kept_tables()
    with caplog.at_level(logging.ERROR, logger="live.dashboard"):
        undrawn, drawn = tables_context(session, "fr")["tables"]
        tables_context(session, "fr")  # a redraw: the table has not changed
    assert undrawn["undrawn"] and not drawn.get("undrawn")
    assert [row["name"] for row in undrawn["seats"]] == ["Ada", "Bao"]
    assert "Le jeu de cette table ne peut pas être affiché" in undrawn["html"]
    assert drawn["version"] == 3 and any(row["to_move"] for row in drawn["seats"])
    errors = [r for r in caplog.records if r.name == "live.dashboard"]
    assert len(errors) == 1 and f"match {broken.pk}, move 3" in errors[0].getMessage()
    page = tables_context(session, "en")["tables"][0]["html"]
    assert "This table's game cannot be shown" in page


@pytest.mark.expected_log_errors(r"cannot go on: this worker's sweeps leave", r"UnreadableState")
@pytest.mark.django_db(transaction=True)
def test_a_match_that_cannot_go_on_does_not_stop_the_sweeps_of_the_others(
    school_class: SchoolClass,
    clock: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The sweeper fires every due timer and queues every lost bot move of the running
    matches: one match it cannot read is logged once and left alone, the others go on."""
    monkeypatch.setattr(scheduling, "send_task", lambda *args, **kwargs: None)  # in-process
    monkeypatch.setattr(background, "_unreadable", set())
    matches, rng = [], random.Random(5)
    for number in range(2):
        session = open_session(school_class, table_size=2, bots=True, options={"call_seconds": 20})
        seat_students(session, f"Ana{number}")
        actions.do_start_session(session)
        match = Match.objects.get(table__session=session)
        for _ in range(3):  # moves in the log, then a call window's timer to fire
            random_step(match, rng)
        drive_to_call_window(match, seed=3)
        matches.append(match)
    broken, sound = matches
    MatchAction.objects.filter(match=broken, version=1).update(action={"type": "earlier"})
    Match.objects.filter(pk=broken.pk).update(snapshot=from_a_later_release(broken.snapshot))
    clock.advance(20)
    with caplog.at_level(logging.ERROR, logger="live.background"):
        assert background.sweep()["fired"] == 1  # the sound match's window expired
        background.sweep()
    sound.refresh_from_db()
    assert sound.actions.filter(seat=None).exists()
    errors = [r for r in caplog.records if r.name == "live.background"]
    assert len(errors) == 1 and f"Match {broken.pk} cannot go on" in errors[0].getMessage()
    assert MatchTimer.objects.filter(match=broken).exists()  # left as it was


@pytest.mark.expected_log_errors(
    r"cannot be shown to its socket", r"cannot be played", r"UnreadableState"
)
@pytest.mark.django_db(transaction=True)
@in_own_event_loop
async def test_a_match_that_cannot_go_on_says_so_to_its_students_in_their_language(
    school_class: SchoolClass,
) -> None:
    """Instead of hello and state, an error in the seat's language; every act and resync
    get it again, and the socket stays open (no reconnection in vain)."""
    session, table, participants = await sync_to_async(started_table)(school_class, "fr")
    match = await Match.objects.aget(pk=table.match_id)
    rng = random.Random(1)
    for _ in range(3):
        await sync_to_async(random_step)(match, rng)
    await MatchAction.objects.filter(match=match, version=1).aupdate(action={"type": "earlier"})
    await Match.objects.filter(pk=match.pk).aupdate(snapshot=from_a_later_release(match.snapshot))
    socket = play_socket(session, next(iter(participants.values())))
    connected, _ = await socket.connect(timeout=TIMEOUT)
    assert connected
    said = "Cette partie ne peut pas continuer après la mise à jour de la plateforme."
    first = await receive(socket)
    assert first["type"] == "error" and first["code"] == "cannot_go_on"
    assert first["message"].startswith(said)
    for message in (
        {"type": "act", "version": 3, "action": {"type": "end_turn"}},
        {"type": "resync"},
    ):
        await socket.send_to(text_data=json.dumps(message))
        answer = await receive(socket)
        assert (answer["type"], answer["code"]) == ("error", "cannot_go_on"), answer
    await socket.send_to(text_data=json.dumps({"type": "ping"}))
    assert (await receive(socket))["type"] == "pong"  # still open: nothing closed it
    await socket.disconnect()
    assert (await Match.objects.aget(pk=match.pk)).version == 3
