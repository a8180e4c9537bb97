"""POST /join/ for programs, the play and projector pages, the live dashboard and its controls."""

import html
import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from classroom import actions, ratelimit
from classroom.identity import participant_from_token
from classroom.models import Seat, SeatMove, Table
from games.describe import catalogue, how_to_play
from games.matches import load_state, sync_timers
from games.models import Match
from live import write
from tests.games.arrange import Picker
from tests.games.test_data_tycoon_rules import attack_position
from tests.live.conftest import open_session, seat_students

pytestmark = pytest.mark.django_db


def post_json(client, body, **headers):
    return client.post("/join/", json.dumps(body), content_type="application/json", **headers)


@pytest.fixture(autouse=True)
def _no_rate_limit():
    ratelimit.reset("127.0.0.1")
    yield
    ratelimit.reset("127.0.0.1")


@pytest.fixture(autouse=True)
def _language_reset():
    """Leave no language active after a test: a test client's request leaves its
    Accept-Language's active in this thread, and a later test would render in it."""
    yield
    translation.deactivate()


def test_join_api_answers_a_seat_token(school_class):
    session = open_session(school_class, language="es")
    response = post_json(Client(), {"code": session.join_code.lower(), "nickname": "Robo"})
    assert response.status_code == 201
    body = response.json()
    assert body["nickname"] == "Robo" and body["session"] == session.join_code
    assert body["language"] == "es"
    assert body["ws"] == f"/ws/play/{session.join_code}/"
    assert body["play_url"] == f"/play/{session.join_code}/"
    participant = participant_from_token(body["token"])
    assert participant is not None and participant.pk == body["participant"]
    assert participant_from_token(body["token"] + "x") is None


def test_join_api_errors_are_json_in_the_sessions_language(school_class):
    session = open_session(school_class, language="es")
    post_json(Client(), {"code": session.join_code, "nickname": "Robo"})
    taken = post_json(Client(), {"code": session.join_code, "nickname": "robo"})
    assert taken.status_code == 400
    assert taken.json()["error"]["code"] == "nickname_taken"
    assert taken.json()["error"]["message"]
    bad = post_json(Client(), {"code": session.join_code, "nickname": "x"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_nickname"
    unknown = post_json(Client(), {"code": "ZZZZZZ", "nickname": "Robo"})
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "unknown_session"
    actions.do_set_lobby_lock(session, True)
    locked = post_json(Client(), {"code": session.join_code, "nickname": "Other"})
    assert locked.status_code == 403 and locked.json()["error"]["code"] == "locked"
    garbage = Client().post("/join/", "{", content_type="application/json")
    assert garbage.status_code == 400 and garbage.json()["error"]["code"] == "bad_request"
    no_nickname = post_json(Client(), {"code": session.join_code})
    assert no_nickname.status_code == 400
    assert no_nickname.json()["error"]["code"] == "bad_request"


def test_join_api_refuses_a_removed_device_and_a_full_session(school_class, monkeypatch):
    session = open_session(school_class)
    device = join_form(session, "Ana")
    actions.do_kick_participant(session.participants.get(nickname="Ana"))
    # a new nickname from the removed device waits for the teacher; refused, it stays out
    waiting = post_json(device, {"code": session.join_code, "nickname": "Anna"})
    assert waiting.status_code == 202 and waiting.json()["status"] == "pending"
    actions.do_answer_join_request(session.join_requests.get(), False)
    removed = post_json(device, {"code": session.join_code, "nickname": "Anna"})
    assert removed.status_code == 403 and removed.json()["error"]["code"] == "removed"
    assert removed.json()["error"]["message"]
    monkeypatch.setattr(actions, "MAX_PARTICIPANTS", 1)
    join_form(session, "Ben", Client(REMOTE_ADDR="192.0.2.10"))  # another network
    full = post_json(Client(), {"code": session.join_code, "nickname": "Cleo"})
    assert full.status_code == 403 and full.json()["error"]["code"] == "full"


def test_join_api_is_rate_limited(school_class, settings):
    for _ in range(settings.JOIN_RATE_LIMIT):
        post_json(Client(), {"code": "ZZZZZZ", "nickname": "Robo"})
    response = post_json(Client(), {"code": "ZZZZZZ", "nickname": "Robo"})
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "rate_limited"


def join_form(session, nickname, client=None):
    client = client or Client()
    response = client.post("/join/", {"code": session.join_code, "nickname": nickname})
    assert response.status_code == 302
    return client


def test_the_lobby_sends_a_seated_student_to_the_table(school_class):
    session = open_session(school_class, table_size=2)
    ana = join_form(session, "Ana")
    join_form(session, "Ben")
    actions.do_start_session(session)
    lobby = ana.get(reverse("classroom:lobby", args=[session.join_code]))
    assert lobby.status_code == 302 and lobby["Location"] == f"/play/{session.join_code}/"
    htmx = ana.get(reverse("classroom:lobby", args=[session.join_code]), HTTP_HX_REQUEST="true")
    assert htmx["HX-Redirect"] == f"/play/{session.join_code}/"
    page = ana.get(f"/play/{session.join_code}/")
    assert page.status_code == 200
    table = Table.objects.get(session=session)
    assert page.context["ws_path"] == f"/ws/play/{session.join_code}/"
    assert page.context["role"] == "seat" and page.context["table_id"] == table.pk
    assert page.context["session"].language == "en"
    assert Client().get(f"/play/{session.join_code}/").status_code == 302


def test_projector_is_the_owners_only(school_class, teacher_client, django_user_model):
    session = open_session(school_class, table_size=2)
    seat_students(session, "Ana", "Ben")
    actions.do_start_session(session)
    table = Table.objects.get(session=session)
    url = reverse("live:projector", args=[table.pk])
    page = teacher_client.get(url)
    assert page.status_code == 200
    assert page.context["ws_path"] == f"/ws/table/{table.pk}/watch/"
    assert page.context["role"] == "spectator" and page.context["table_id"] == table.pk
    other = Client()
    other.force_login(django_user_model.objects.create_user("other", password="x-Long-pass-99"))
    assert other.get(url).status_code == 404
    assert Client().get(url).status_code == 302


def test_dashboard_shows_tables_and_its_controls_work(school_class, teacher_client):
    session = open_session(school_class, table_size=2)
    ana, _ben = seat_students(session, "Ana", "Ben")
    actions.do_start_session(session)
    table = Table.objects.get(session=session)
    page = teacher_client.get(reverse("live:session_live", args=[session.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "Ana" in html and "Ben" in html and reverse("live:projector", args=[table.pk]) in html

    url = reverse("classroom:table_pause", args=[session.pk])
    assert teacher_client.post(url, {"table": table.pk}).status_code == 302
    table.refresh_from_db()
    assert table.paused and Match.objects.get(pk=table.match_id).status == "paused"
    teacher_client.post(reverse("classroom:table_resume", args=[session.pk]), {"table": table.pk})
    table.refresh_from_db()
    assert not table.paused and Match.objects.get(pk=table.match_id).status == "running"

    seat = Seat.objects.get(participant=ana)
    teacher_client.post(reverse("classroom:seat_to_bot", args=[session.pk]), {"seat": seat.pk})
    seat.refresh_from_db()
    assert seat.bot_takeover and seat.bot_kind == "heuristic"
    teacher_client.post(reverse("classroom:seat_to_student", args=[session.pk]), {"seat": seat.pk})
    seat.refresh_from_db()
    assert not seat.bot_takeover and seat.bot_kind == ""


def test_pausing_the_session_pauses_every_table_and_pushes_timers_back(school_class):
    session = open_session(school_class, table_size=2)
    seat_students(session, "Ana", "Ben", "Cleo", "Dan")
    actions.do_start_session(session)
    actions.do_pause_session(session)
    assert set(Match.objects.values_list("status", flat=True)) == {"paused"}
    actions.do_resume_session(session)
    assert set(Match.objects.values_list("status", flat=True)) == {"running"}


def test_a_student_moves_to_another_device_once_the_teacher_approves(school_class, teacher_client):
    session = open_session(school_class, table_size=2)
    old_device = join_form(session, "Ana")
    join_form(session, "Ben")
    actions.do_start_session(session)

    new_device = Client()
    response = new_device.post("/join/", {"code": session.join_code, "nickname": "ana"})
    move = SeatMove.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("classroom:seat_move", args=[move.pk])
    waiting = new_device.get(response["Location"])
    assert waiting.status_code == 200 and "Ana" in waiting.content.decode()
    assert Client().get(response["Location"]).status_code == 302  # another device: no

    live = teacher_client.get(reverse("live:session_live", args=[session.pk]))
    assert f'value="{move.pk}"' in live.content.decode()
    teacher_client.post(reverse("classroom:move_approve", args=[session.pk]), {"move": move.pk})
    done = new_device.get(reverse("classroom:seat_move", args=[move.pk]))
    assert done.status_code == 302 and done["Location"] == f"/play/{session.join_code}/"
    play = new_device.get(done["Location"])
    assert play.status_code == 200 and play.context["participant"].nickname == "Ana"
    move.refresh_from_db()
    assert move.status == "done"
    moved = old_device.get(f"/play/{session.join_code}/")  # the old device lost the place
    assert moved.status_code == 403 and "another device" in moved.content.decode()


def test_the_form_keeps_its_csrf_check_and_json_needs_none(school_class):
    session = open_session(school_class)
    strict = Client(enforce_csrf_checks=True)
    form = strict.post("/join/", {"code": session.join_code, "nickname": "Formy"})
    assert form.status_code == 403
    program = post_json(strict, {"code": session.join_code, "nickname": "Robo"})
    assert program.status_code == 201


def test_dashboard_shows_connected_turn_scores_and_notable_events(school_class, teacher_client):
    """Each table: who is connected, whose turn, the scores, the latest notable events."""
    session = open_session(school_class, table_size=2, variant="expert")
    ana, ben = seat_students(session, "Ana", "Ben")
    actions.do_start_session(session)
    table = Table.objects.get(session=session)
    match = Match.objects.get(pk=table.match_id)
    pick = Picker("expert")
    state, card = attack_position("time", pick, treasures={1: [(pick("purpose"), pick.many(6))]})
    match.snapshot = state.to_json()
    match.save(update_fields=["snapshot"])
    sync_timers(match, state)
    seat_of = {seat.participant_id: seat for seat in table.seats.all()}
    first, second = seat_of[ana.pk], seat_of[ben.pk]
    actions.do_seat_connected(first.pk, +1)  # Ana's socket is open, Ben's is not
    write.act(match.pk, 0, {"type": "attack", "card": card, "target": 1}, 0)
    assert load_state(Match.objects.get(pk=match.pk)).to_move() == [1]  # seat 1 answers

    html = teacher_client.get(reverse("live:session_live", args=[session.pk])).content
    html = html.decode()
    rows = {int(pk): row for pk, row in re.findall(r'<tr data-seat="(\d+)">(.*?)</tr>', html, re.S)}
    assert "●&nbsp;yes" in rows[first.pk] and "○&nbsp;no" in rows[second.pk]
    attacker, target = (Seat.objects.get(table=table, number=n) for n in (0, 1))
    assert [pk for pk, row in rows.items() if "▶&nbsp;to play" in row] == [target.pk]
    assert "treasures 0 · sensitive 0 · datasets 0" in rows[attacker.pk]
    assert "treasures 1 · sensitive" in rows[target.pk]
    time_name = catalogue("data_tycoon", "expert")[card]["name"]["en"]
    news = html.split("Latest events", 1)[1]
    assert f"{attacker.display_name} plays {time_name} against {target.display_name}." in news


def test_a_refused_device_move_leaves_the_seat_where_it_was(school_class, teacher_client):
    session = open_session(school_class, table_size=2)
    old_device = join_form(session, "Ana")
    join_form(session, "Ben")
    actions.do_start_session(session)
    new_device = Client()
    response = new_device.post("/join/", {"code": session.join_code, "nickname": "Ana"})
    move = SeatMove.objects.get()
    teacher_client.post(reverse("classroom:move_refuse", args=[session.pk]), {"move": move.pk})
    move.refresh_from_db()
    assert move.status == "refused"
    waiting = new_device.get(response["Location"])
    assert waiting.status_code == 200
    assert "did not move your place" in waiting.content.decode()
    assert new_device.get(f"/play/{session.join_code}/").status_code == 302  # no seat here
    assert old_device.get(f"/play/{session.join_code}/").status_code == 200  # still there


def how_to_play_html(slug: str, variant: str = "standard") -> list[str]:
    """Return a game's how-to-play texts as the page shows them (English, escaped)."""
    sections = how_to_play(slug, variant)
    assert sections
    return [html.escape(t) for s in sections for t in (s["heading"], *s["lines"])]


def test_the_lobby_shows_how_to_play_open(school_class):
    session = open_session(school_class)
    page = join_form(session, "Ana").get(reverse("classroom:lobby", args=[session.join_code]))
    content = page.content.decode()
    assert '<details class="how-to-play" open>' in content
    for text in how_to_play_html("data_tycoon"):
        assert text in content
    assert html.escape("Build the most Data-Treasures.") in content
    # the other game's goal is not there
    assert "Be the last player with life points." not in content


@pytest.mark.parametrize(
    ("variant", "shown", "not_shown"),
    [
        ("beginner", "Build the most Data-Treasures.", "Attacks and defences"),
        ("lawyers", "Attacks and defences", "Data breaches"),
        ("expert", "Expert cards", None),
    ],
)
def test_the_lobby_explains_only_the_cards_of_the_sessions_variant(
    school_class, variant, shown, not_shown
):
    session = open_session(school_class, variant=variant)
    page = join_form(session, "Ana").get(reverse("classroom:lobby", args=[session.join_code]))
    content = page.content.decode()
    for text in how_to_play_html("data_tycoon", variant):
        assert text in content
    assert html.escape(shown) in content
    if not_shown:
        assert html.escape(not_shown) not in content


def test_the_lobby_says_nothing_of_the_special_cards_the_teacher_left_out(school_class):
    session = open_session(
        school_class, variant="expert", options={"left_out": ["sanction", "cybersecurity"]}
    )
    page = join_form(session, "Ana").get(reverse("classroom:lobby", args=[session.join_code]))
    content = html.unescape(page.content.decode())
    assert "Sanction" not in content and "Cybersecurity" not in content
    assert "A Lawyer stops a Complaint." in content  # the Lawyer is still dealt
    assert "Databreach: say DATABREACH! at once" in content


def test_a_conspiranoia_lobby_shows_its_own_rules(school_class):
    session = actions.do_create_session(
        school_class,
        game="conspiranoia",
        variant="standard",
        language="en",
        table_size=2,
        bots_fill=False,
    )
    lobby = reverse("classroom:lobby", args=[session.join_code])
    content = join_form(session, "Ana").get(lobby).content.decode()
    assert "Be the last player with life points." in content
    assert "Build the most Data-Treasures." not in content


def test_the_play_page_has_how_to_play_behind_a_question_mark(school_class, teacher_client):
    session = open_session(school_class, table_size=2)
    ana = join_form(session, "Ana")
    join_form(session, "Ben")
    actions.do_start_session(session)
    content = ana.get(f"/play/{session.join_code}/").content.decode()
    assert '<details class="how-to-play how-to-play--game">' in content  # closed at first
    assert '<span class="visually-hidden">How to play</span>' in content
    for text in how_to_play_html("data_tycoon"):
        assert text in content
    # the projector shows the table to the class, not the rules
    table = Table.objects.get(session=session)
    projector = teacher_client.get(reverse("live:projector", args=[table.pk]))
    assert projector.status_code == 200
    assert "how-to-play" not in projector.content.decode()


def test_the_dashboard_starts_the_session_from_the_lobby(school_class, teacher):
    """The teacher approving nicknames on the live dashboard starts from there too: the
    session page's own POST, with its CSRF token."""
    session = open_session(school_class, table_size=2)
    seat_students(session, "Ana", "Ben")
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(teacher)
    html = strict.get(reverse("live:session_live", args=[session.pk])).content.decode()
    start = reverse("classroom:session_start", args=[session.pk])
    form = re.search(rf'<form method="post" action="{start}"[^>]*>(.*?)</form>', html, re.S)
    assert form is not None and ">Start</button>" in form.group(1)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.group(1))
    assert token is not None
    assert strict.post(start).status_code == 403  # no token, no start
    session.refresh_from_db()
    assert session.state == "lobby"
    assert strict.post(start, {"csrfmiddlewaretoken": token.group(1)}).status_code == 302
    session.refresh_from_db()
    assert session.state == "running"
    running = strict.get(reverse("live:session_live", args=[session.pk])).content.decode()
    assert f'action="{start}"' not in running and "Pause all tables" in running


@pytest.mark.parametrize(
    ("language", "students", "summary"),
    [
        ("en", 1, "Quiz: 0 of 1 student finished."),
        ("en", 2, "Quiz: 0 of 2 students finished."),
        ("es", 1, "Cuestionario terminado: 0 de 1 alumno."),
        ("fr", 2, "Quiz terminé\u00a0: 0 sur 2 élèves."),
        ("ru", 1, "Тест закончили: 0 из 1 ученика."),
        ("ru", 2, "Тест закончили: 0 из 2 учеников."),
        ("ru", 5, "Тест закончили: 0 из 5 учеников."),
    ],
)
def test_the_dashboards_quiz_summary_counts_the_students(
    school_class, teacher_client, language, students, summary
):
    session = open_session(school_class, table_size=2)
    seat_students(session, *["Ana", "Ben", "Cleo", "Dani", "Eli"][:students])
    page = teacher_client.get(
        reverse("live:session_live", args=[session.pk]), HTTP_ACCEPT_LANGUAGE=language
    )
    assert summary in html.unescape(page.content.decode())


def test_the_dashboard_shows_each_lesson_modes_whole_wording(school_class, teacher_client):
    """A radio button a mode, its wording whole (a select cut the Spanish one short)."""
    session = open_session(school_class, table_size=2)
    page = teacher_client.get(
        reverse("live:session_live", args=[session.pk]), HTTP_ACCEPT_LANGUAGE="es"
    )
    content = html.unescape(page.content.decode())
    assert 'id="lesson-mode"' not in content  # no select
    radios = re.findall(
        r'<input type="radio" name="mode" value="(\w+)" form="lesson-mode-form"', content
    )
    assert radios == ["off", "show", "pause"]
    assert "Mostrar: aparecen las tarjetas de lección y la partida sigue" in content


def test_the_dashboard_names_the_data_monsters_tie_break_clearly(school_class, teacher_client):
    session = actions.do_create_session(
        school_class,
        game="data_monsters",
        variant="standard",
        language="es",
        table_size=2,
        bots_fill=True,
    )
    seat_students(session, "Ana")
    actions.do_start_session(session)
    page = teacher_client.get(
        reverse("live:session_live", args=[session.pk]), HTTP_ACCEPT_LANGUAGE="es"
    )
    content = html.unescape(page.content.decode())
    assert "puntos 0 · dificultad máx. 0 · retos 0" in content
    assert "más difícil" not in content
