"""The table protocol's messages as live.messages builds them from the stored match."""

import gc
import random
from collections import Counter

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from classroom import actions
from classroom.models import SEAT_STALE_SECONDS, Seat, Table
from games.describe import card_text_in, catalogue
from games.models import Match
from live import background, messages, write
from live.consumers import TableConsumer
from tests.live.conftest import open_session, seat_students
from tests.live.helpers import random_step

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(school_class):
    session = open_session(school_class, table_size=2, language="fr")
    seat_students(session, "Ana", "Ben")
    actions.do_start_session(session)
    return Table.objects.get(session=session)


def test_the_log_covers_every_action_since_the_last_state_sent(table):
    match = Match.objects.get(pk=table.match_id)
    rng = random.Random(5)
    random_step(match, rng)
    one = messages.state_message(messages.load_table(table.pk), 0, "fr")["log"]
    random_step(match, rng)
    random_step(match, rng)
    snap = messages.load_table(table.pk)
    last = messages.state_message(snap, 0, "fr")["log"]
    since_one = messages.state_message(snap, 0, "fr", since=1)["log"]
    since_zero = messages.state_message(snap, 0, "fr", since=0)["log"]
    assert one and last
    assert since_one[-len(last) :] == last and len(since_one) > len(last)
    assert since_zero[: len(one)] == one and len(since_zero) > len(since_one)
    assert all(isinstance(line, str) and "%(" not in line for line in since_zero)


def test_state_and_hello_messages_carry_the_protocols_fields(table):
    snap = messages.load_table(table.pk)
    hello = messages.hello_message(snap, 1, "fr")
    assert set(hello) == {
        "type", "table", "match", "seat", "players", "game", "variant", "catalogue", "language",
    }  # fmt: skip
    assert [p["seat"] for p in hello["players"]] == [0, 1]
    state = messages.state_message(snap, None, "fr")
    assert set(state) == {
        "type", "version", "seat", "view", "legal_actions", "deadline", "log", "paused",
        "over", "result", "lesson_pause", "server_time",
    }  # fmt: skip
    assert state["seat"] is None and state["legal_actions"] == [] and state["over"] is False
    assert state["lesson_pause"] is None


def test_a_hello_carries_the_card_texts_in_the_sockets_language_only(table):
    snap = messages.load_table(table.pk)
    every = catalogue(snap.match.game, snap.match.variant)
    assert every
    for language in ("es", "fr", "ru"):
        sent = messages.hello_message(snap, 0, language)["catalogue"]
        assert sent.keys() == every.keys()
        for card_id, card in every.items():
            assert sent[card_id]["name"] == {language: card["name"][language]}
            assert sent[card_id]["effect"] == {language: card["effect"][language]}
            assert sent[card_id]["kind"] == card["kind"]
    # a third of the bytes of the catalogue in every language, or less
    one = len(messages.json_bytes(messages.hello_message(snap, 0, "fr")["catalogue"]))
    assert one < len(messages.json_bytes(every)) / 3


def test_a_hello_words_the_card_texts_for_the_cards_the_teacher_left_in(school_class):
    """Without Lawyers, the Sanction's text no longer says that a Lawyer stops it."""
    session = open_session(
        school_class, table_size=2, variant="expert", options={"left_out": ["lawyer"]}
    )
    seat_students(session, "Ana", "Ben")
    actions.do_start_session(session)
    snap = messages.load_table(Table.objects.get(session=session).pk)
    every = catalogue(snap.match.game, snap.match.variant)  # the whole Expert deck's
    sent = messages.hello_message(snap, 0, "es")["catalogue"]
    sanction = next(c for c, card in every.items() if card["kind"] == "sanction")
    assert "Abogado" in every[sanction]["effect"]["es"]
    shorter = every[sanction]["effect"]["es"].split(" Un Abogado")[0]
    assert sent[sanction]["effect"] == {"es": shorter}
    assert "Abogado" not in sent[sanction]["effect"]["es"]
    assert "lawyer" not in messages.deck(snap)[2] and "complaint" in messages.deck(snap)[2]


def test_a_card_text_missing_in_a_language_comes_in_english():
    assert card_text_in({"en": "Sanction", "fr": "Sanction !"}, "ru") == {"en": "Sanction"}
    assert card_text_in({"en": "Sanction", "fr": "Sanction !"}, "fr") == {"fr": "Sanction !"}
    assert card_text_in({"en": 1, "colour": "red"}, "fr") == {"en": 1, "colour": "red"}
    assert card_text_in("red", "fr") == "red"


def test_a_connection_count_left_by_a_killed_server_turns_stale(table, clock):
    seat = Seat.objects.get(table=table, number=0)
    actions.do_seat_connected(seat.pk, +1)
    assert messages.players(messages.load_table(table.pk))[0]["connected"] is True
    # The clock is the system's plus an offset: leave a margin for a slow machine.
    clock.advance(SEAT_STALE_SECONDS - 20)
    assert messages.players(messages.load_table(table.pk))[0]["connected"] is True
    assert background.sweep()["stale_connections"] == 0
    clock.advance(21)  # no heartbeat for longer than SEAT_STALE_SECONDS
    assert messages.players(messages.load_table(table.pk))[0]["connected"] is False
    assert background.sweep()["stale_connections"] == 1
    assert Seat.objects.get(pk=seat.pk).connected == 0
    actions.do_seat_connected(seat.pk, +1)
    actions.do_seats_seen([seat.pk])
    assert messages.players(messages.load_table(table.pk))[0]["connected"] is True


def test_a_socket_closing_after_its_session_was_deleted_counts_nothing(table):
    """A teacher deletes the session while a student's socket opens or closes: the count
    goes nowhere, and nothing is raised in the server's log."""
    seat_pk = Seat.objects.get(table=table, number=0).pk
    table.session.delete()
    assert not Seat.objects.filter(pk=seat_pk).exists()
    actions.do_seat_connected(seat_pk, -1)
    actions.do_seat_connected(seat_pk, +1)
    assert not Seat.objects.filter(pk=seat_pk).exists()


def test_the_write_paths_states_are_the_ones_a_socket_would_read(table, school_class):
    """After an action the write path builds each seat's state once (live.write): it must
    be what a socket reading the table builds, log aside, for every student's seat and the
    projector, and carry the action's log lines in every language."""
    match = Match.objects.get(pk=table.match_id)
    state = messages.load_table(table.pk).state
    seat = state.to_move()[0]
    applied = write.act(match.pk, seat, state.legal_actions(seat)[0], match.version)

    built = messages.load_applied(applied)
    assert built is not None
    assert built.state is applied.state  # not parsed again from the stored snapshot
    states, logs = messages.action_states(built, applied)
    assert sorted(states, key=str) == [0, 1, None]
    stored = messages.load_table(table.pk)
    for number, message in states.items():
        read = messages.state_message(stored, number, "fr", since=applied.version - 1)
        assert {**message, "log": read["log"], "server_time": None} == {
            **read,
            "server_time": None,
        }
        assert "log" not in message
    assert set(logs) == {code for code, _ in settings.LANGUAGES}
    assert logs["fr"] == messages.state_message(stored, 0, "fr")["log"] and logs["fr"]
    assert logs["en"] != logs["fr"] and all(logs.values())


def test_a_bots_seat_gets_no_state_but_a_seat_handed_to_a_bot_does(school_class):
    session = open_session(school_class, table_size=3, bots=True)
    (ana,) = seat_students(session, "Ana")
    actions.do_start_session(session)
    table = Table.objects.get(session=session)
    assert messages.audience(messages.load_table(table.pk)) == [0, None]
    seat = table.seats.get(participant=ana)
    seat.bot_takeover = True
    seat.save()
    snap = messages.load_table(table.pk)
    assert messages.audience(snap) == [0, None] and snap.bot_plays(0)
    assert messages.seat_state(snap, 0)["legal_actions"] == []


def test_states_built_after_a_later_action_carry_the_log_of_both(table):
    """The write path reads the table after its commit: when another action was stored in
    between, the states it sends are the newer ones, and their log covers both actions."""
    match = Match.objects.get(pk=table.match_id)
    state = messages.load_table(table.pk).state
    seat = state.to_move()[0]
    applied = write.act(match.pk, seat, state.legal_actions(seat)[0], match.version)
    random_step(Match.objects.get(pk=match.pk), random.Random(2))
    built = messages.load_applied(applied)
    assert built is not None
    assert built.match.version == applied.version + 1 and built.state is not applied.state
    states, logs = messages.action_states(built, applied)
    assert {message["version"] for message in states.values()} == {applied.version + 1}
    stored = messages.load_table(table.pk)
    both = messages.log_lines(stored, "fr", since=applied.version - 1)
    assert logs["fr"] == both and len(both) > len(messages.log_lines(stored, "fr")) > 0


def test_a_sockets_move_reads_its_table_and_seats_once(table):
    """The socket's check (may this seat play?) and the write path share one read of the
    table and its seats, made before the action; the session, its class and teacher are
    read once per process."""
    socket = TableConsumer()
    socket.table_id, socket.language, socket.last_version = table.pk, "fr", 0
    for _move in range(2):
        match = Match.objects.get(pk=table.match_id)
        state = messages.load_table(table.pk).state
        socket.seat = state.to_move()[0]
        with CaptureQueriesContext(connection) as queries:
            assert socket.apply(match.version, state.legal_actions(socket.seat)[0]) is None
        assert Match.objects.get(pk=match.pk).version == match.version + 1
    reads = [query["sql"] for query in queries if query["sql"].startswith("SELECT")]
    seat_reads = [sql for sql in reads if '"classroom_seat"' in sql]
    assert len(seat_reads) == 1, seat_reads
    assert '"classroom_table"' in seat_reads[0]
    assert not [sql for sql in reads if '"classroom_classsession"' in sql]
    assert not [sql for sql in reads if '"auth_user"' in sql]


def test_a_sockets_move_leaves_no_garbage_for_the_collector(table, monkeypatch):
    """What a move reads and builds is freed as soon as the move is done. A cycle (the
    table and its match, each cached on the other by their one-to-one field) left every
    move's match, its snapshot and the table's seats to the garbage collector: a full
    collection of a busy server's heap at every few hundred moves. (The messages are
    kept, not sent: outside a server each send makes an event loop of its own.)"""
    sent = []
    monkeypatch.setattr(write, "send_groups", lambda messages, loop=None: sent.extend(messages))
    socket = TableConsumer()
    socket.table_id, socket.language, socket.last_version = table.pk, "fr", 0

    def move() -> None:
        match = Match.objects.get(pk=table.match_id)
        state = messages.load_table(table.pk).state
        socket.seat = state.to_move()[0]
        assert socket.apply(match.version, state.legal_actions(socket.seat)[0]) is None

    move()  # warm: what a process reads once
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _move in range(3):
            move()
        assert gc.collect() >= 0
        kinds = Counter(type(thing).__name__ for thing in gc.garbage)
        functions = {thing.__module__ for thing in gc.garbage if type(thing).__name__ == "function"}
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert len(sent) == 2 * 4  # the states and the dashboard's notice, at each move
    # Only Django's SQL compiler leaves a closure that refers to itself at each query
    # with select_related: no model, list or dict (the snapshot is made of them).
    assert functions <= {"django.db.models.sql.compiler"}, functions
    assert set(kinds) <= {"function", "cell", "tuple"}, kinds.most_common(10)


def test_a_move_from_a_seat_that_is_gone_is_refused_with_a_reason(table):
    socket = TableConsumer()
    socket.table_id, socket.seat, socket.language, socket.last_version = table.pk, 7, "fr", 0
    error = socket.apply(0, {"type": "pass"})
    assert error is not None
    assert error["code"] == "not_seated" and error["message"]
    assert Match.objects.get(pk=table.match_id).version == 0
