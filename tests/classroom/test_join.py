"""The student join flow: codes, nicknames, roster, bad input, kick, lock, rate limit."""

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from classroom import actions, ratelimit
from classroom.models import MAX_PARTICIPANTS, Participant
from tests.classroom.conftest import join_client, open_session

pytestmark = pytest.mark.django_db


def post_join(client, code, nickname="", **extra):
    return client.post("/join/", {"code": code, "nickname": nickname, **extra})


def text(response):
    return response.content.decode()


def test_join_page_says_nicknames_only():
    response = Client().get(reverse("classroom:join"))
    assert response.status_code == 200
    body = text(response)
    assert "no account, no e-mail address, no real name" in body
    assert 'name="nickname"' in body
    assert "deleted 30 days after it ends" in body  # the retention, not "some time"


def test_join_page_tells_the_retention_the_platform_keeps(session, settings):
    settings.RETENTION_DAYS = 1
    body = text(Client().get(reverse("classroom:join_code", args=[session.join_code])))
    assert "kept for this session only, and deleted 1 day after it ends" in body


def test_join_seats_the_student_and_sets_signed_httponly_cookies(session):
    client = Client()
    response = post_join(client, session.join_code, "  Sam   the   Fox ")
    assert response.status_code == 302
    assert response["Location"] == reverse("classroom:lobby", args=[session.join_code])
    participant = session.participants.get()
    assert participant.nickname == "Sam the Fox"
    for name in (settings.STUDENT_COOKIE_NAME, settings.DEVICE_COOKIE_NAME):
        morsel = response.cookies[name]
        assert morsel["httponly"] and morsel["samesite"] == "Lax"
        assert ":" in morsel.value  # signed
    assert participant.device_id in response.cookies[settings.DEVICE_COOKIE_NAME].value
    lobby = client.get(response["Location"])
    assert lobby.status_code == 200
    assert "Sam the Fox" in text(lobby)


def test_code_is_case_insensitive_and_ignores_spaces(session):
    code = session.join_code
    typed = f" {code[:3].lower()} {code[3:].lower()} "
    response = post_join(Client(), typed, "Sam")
    assert response.status_code == 302
    assert session.participants.count() == 1


def test_qr_link_prefills_the_code(session):
    response = Client().get(reverse("classroom:join_code", args=[session.join_code.lower()]))
    assert response.status_code == 200
    assert f'value="{session.join_code}"' in text(response)


def test_unknown_code_keeps_what_was_typed(session):
    response = post_join(Client(), "ZZZZZZ" if session.join_code != "ZZZZZZ" else "YYYYYY", "Sam")
    assert response.status_code == 200
    body = text(response)
    assert "No game is open with this code" in body
    assert 'value="Sam"' in body
    assert not Participant.objects.exists()


@pytest.mark.parametrize("typed", ["QQQ", "QQQQQQQ", "QQ!QQQ"])
def test_a_code_of_the_wrong_shape_says_what_a_code_looks_like(session, typed):
    body = text(post_join(Client(), typed, "Sam"))
    assert "A game code has 6 letters and digits. Check it with your teacher." in body
    assert "No game is open" not in body
    assert not Participant.objects.exists()


def test_closed_code_is_refused(session):
    actions.do_end_session(session)
    response = post_join(Client(), session.join_code, "Sam")
    assert "No game is open with this code" in text(response)
    assert not Participant.objects.exists()


def test_unknown_code_message_in_the_users_language(session):
    client = Client(headers={"accept-language": "fr"})
    response = post_join(client, "ZZZZZZ" if session.join_code != "ZZZZZZ" else "YYYYYY", "Sam")
    assert response["Content-Language"] == "fr"


def test_taken_nickname_case_insensitive(session):
    join_client(session, "Sam")
    response = post_join(Client(), session.join_code, "  sAM ")
    assert response.status_code == 200
    assert "already uses this nickname" in text(response)
    assert 'value="  sAM "' in text(response)  # kept as typed
    assert session.participants.count() == 1


@pytest.mark.parametrize(
    ("nickname", "message"),
    [
        ("S", "at least 2 characters"),
        ("   ", "Please type a nickname"),
        ("x" * 21, "at most 20 characters"),
        ("Big Idiot", "not allowed"),
        ("Fuuuck", "not allowed"),
        ("0612345678", "at most 5 digits"),
        ("www.ana.fr", "web address"),
        ("Teacher", "could be taken for the teacher"),
        ("Bot 3", "could be taken for the teacher"),
        ("st0pid", "not allowed"),  # not a refused word: a typo must pass
    ],
)
def test_nickname_rules_on_the_form(session, nickname, message):
    response = post_join(Client(), session.join_code, nickname)
    if nickname == "st0pid":
        assert response.status_code == 302
        return
    assert response.status_code == 200
    assert message in text(response)
    assert not Participant.objects.exists()


def test_refused_word_in_the_sessions_language(school_class):
    session = open_session(school_class, language="fr")
    response = post_join(Client(), session.join_code, "Le Connard")
    assert response.status_code == 200
    assert response["Content-Language"] == "fr"
    assert not Participant.objects.exists()


def test_reload_returns_to_the_same_participant(session, student):
    participant = session.participants.get()
    again = student.get(reverse("classroom:join_code", args=[session.join_code]))
    assert again.status_code == 302
    assert again["Location"] == reverse("classroom:lobby", args=[session.join_code])
    # joining again from the same device does not make a second participant
    post_join(student, session.join_code, "Another Name")
    assert list(session.participants.all()) == [participant]
    lobby = student.get(reverse("classroom:lobby", args=[session.join_code]))
    assert lobby.context["participant"] == participant


def test_lost_student_cookie_finds_the_place_by_device(session, student):
    participant = session.participants.get()
    del student.cookies[settings.STUDENT_COOKIE_NAME]
    response = student.get(reverse("classroom:join_code", args=[session.join_code]))
    assert response.status_code == 302
    assert student.get(response["Location"]).context["participant"] == participant


def test_lobby_without_a_place_goes_to_the_join_form(session):
    response = Client().get(reverse("classroom:lobby", args=[session.join_code]))
    assert response.status_code == 302
    assert response["Location"] == reverse("classroom:join_code", args=[session.join_code])


def test_forged_student_cookie_is_ignored(session, student):
    client = Client()
    client.cookies[settings.STUDENT_COOKIE_NAME] = str(session.participants.get().pk)
    response = client.get(reverse("classroom:lobby", args=[session.join_code]))
    assert response.status_code == 302


def test_session_language_applies_to_student_pages(school_class):
    session = open_session(school_class, language="es")
    client = Client(headers={"accept-language": "en"})
    form = client.get(reverse("classroom:join_code", args=[session.join_code]))
    assert form["Content-Language"] == "es"
    assert '<html lang="es"' in text(form)
    join_client(session, "Sam", client)
    lobby = client.get(reverse("classroom:lobby", args=[session.join_code]))
    assert lobby["Content-Language"] == "es"
    assert '<html lang="es"' in text(lobby)


# Kick


def test_kicked_device_waits_for_approval_even_with_another_nickname(session, student, client_a):
    participant = session.participants.get()
    response = client_a.post(
        reverse("classroom:session_kick", args=[session.pk]), {"participant": participant.pk}
    )
    assert response.status_code == 302
    participant.refresh_from_db()
    assert participant.kicked
    lobby = student.get(reverse("classroom:lobby", args=[session.join_code]))
    assert lobby.status_code == 403
    assert "You have been removed from this session" in text(lobby)
    del student.cookies[settings.STUDENT_COOKIE_NAME]  # even without the seat cookie
    form = student.get(reverse("classroom:join_code", args=[session.join_code]))
    assert "You were removed from this session" in text(form)
    again = post_join(student, session.join_code, "Totally New")
    request = session.join_requests.get()
    assert again["Location"] == reverse("classroom:join_wait", args=[request.pk])
    assert request.reason == "removed_device"
    assert "Your teacher must approve it first" in text(student.get(again["Location"]))
    assert session.participants.count() == 1


def test_kicked_nickname_stays_taken_and_other_networks_still_join(session, student):
    actions.do_kick_participant(session.participants.get())
    assert "already uses this nickname" in text(post_join(Client(), session.join_code, "Sam"))
    elsewhere = Client(REMOTE_ADDR="192.0.2.7")
    response = post_join(elsewhere, session.join_code, "Robin")
    assert response["Location"] == reverse("classroom:lobby", args=[session.join_code])


def test_kick_in_a_finished_session_is_refused(session, student, client_a):
    actions.do_end_session(session)
    participant = session.participants.get()
    response = client_a.post(
        reverse("classroom:session_kick", args=[session.pk]),
        {"participant": participant.pk},
        follow=True,
    )
    assert "This session has ended" in text(response)
    participant.refresh_from_db()
    assert not participant.kicked


# Lock, capacity


def test_locked_lobby_refuses_newcomers_but_not_returning_students(session, student, client_a):
    client_a.post(reverse("classroom:session_lock", args=[session.pk]))
    session.refresh_from_db()
    assert session.locked
    response = post_join(Client(), session.join_code, "Late Comer")
    assert response.status_code == 200
    assert "locked this session" in text(response)
    # one refusal: a sentence after the alert's sign, not a list of one under it
    assert '<div class="alert alert--error" role="alert">The teacher has locked' in text(response)
    assert 'value="Late Comer"' in text(response)
    assert student.get(reverse("classroom:lobby", args=[session.join_code])).status_code == 200
    client_a.post(reverse("classroom:session_unlock", args=[session.pk]))
    assert post_join(Client(), session.join_code, "Late Comer").status_code == 302


def test_full_session_is_refused(session):
    Participant.objects.bulk_create(
        Participant(session=session, nickname=f"P{i}", nickname_key=f"p{i}", device_id=f"d{i}")
        for i in range(MAX_PARTICIPANTS)
    )
    response = post_join(Client(), session.join_code, "One Too Many")
    assert response.status_code == 200
    assert "This session is full" in text(response)
    assert session.participants.count() == MAX_PARTICIPANTS


# Rate limit


def device(address: str = "127.0.0.1") -> Client:
    """A browser that opened the join form, so it holds its device cookie."""
    client = Client(REMOTE_ADDR=address)
    client.get(reverse("classroom:join"))
    assert client.cookies.get(settings.DEVICE_COOKIE_NAME)
    return client


def test_wrong_codes_are_rate_limited_even_when_the_next_is_right(session):
    client = device()
    wrong = "ZZZZZZ" if session.join_code != "ZZZZZZ" else "YYYYYY"
    for _ in range(settings.JOIN_RATE_LIMIT):
        assert "No game is open with this code" in text(post_join(client, wrong, "Sam"))
    response = post_join(client, session.join_code, "Sam")
    assert response.status_code == 429
    assert "Too many attempts" in text(response)
    assert "wait a minute" in text(response)
    assert not Participant.objects.exists()
    # the QR link counts too: it reveals whether a code exists
    assert client.get(reverse("classroom:join_code", args=[session.join_code])).status_code == 429


def test_rate_limit_is_per_client(session):
    wrong = "ZZZZZZ" if session.join_code != "ZZZZZZ" else "YYYYYY"
    attacker = Client(REMOTE_ADDR="10.0.0.66")
    for _ in range(settings.JOIN_RATE_LIMIT + 1):
        post_join(attacker, wrong, "Sam")
    try:
        assert post_join(Client(), session.join_code, "Sam").status_code == 302
    finally:
        ratelimit.reset("10.0.0.66")


def test_a_device_out_of_wrong_codes_does_not_lock_out_its_school(session, settings):
    """Behind one NAT address, the device that typed wrong codes waits; its classmates'
    devices still join, until the address's own (higher) limit."""
    settings.JOIN_ADDRESS_RATE_LIMIT = settings.JOIN_RATE_LIMIT + 5
    school = "10.0.0.7"
    wrong = "ZZZZZZ" if session.join_code != "ZZZZZZ" else "YYYYYY"
    guesser = device(school)
    try:
        for _ in range(settings.JOIN_RATE_LIMIT):
            assert post_join(guesser, wrong, "Sam").status_code == 200
        assert post_join(guesser, session.join_code, "Sam").status_code == 429
        classmate = device(school)
        assert post_join(classmate, session.join_code, "Ana").status_code == 302
        # Devices without a cookie share one count per address: dropping it gains nothing.
        for _ in range(settings.JOIN_RATE_LIMIT):
            post_join(Client(REMOTE_ADDR=school), wrong, "Sam")
        assert post_join(Client(REMOTE_ADDR=school), wrong, "Sam").status_code == 429
        # The address used up its own limit on the way: fresh devices wait too.
        assert post_join(device(school), session.join_code, "Ben").status_code == 429
        assert post_join(device(), session.join_code, "Ben").status_code == 302  # elsewhere
    finally:
        ratelimit.reset(school)
    assert set(session.participants.values_list("nickname", flat=True)) == {"Ana", "Ben"}


@pytest.mark.parametrize("devices", [1, 10])
def test_concurrent_wrong_codes_never_pass_the_limit(settings, devices):
    """One hundred attempts at once, in threads on the real Redis, from one device or
    from ten behind one address: exactly the limit is let through (a read, then a
    write, let more through when they interleave)."""
    settings.JOIN_ADDRESS_RATE_LIMIT = 3 * settings.JOIN_RATE_LIMIT
    address = "10.0.0.99"
    start = threading.Barrier(100)

    def attempt(number: int) -> bool:
        start.wait()
        return ratelimit.take_attempt(address, f"device-{number % devices}")

    try:
        with ThreadPoolExecutor(max_workers=100) as pool:
            passed = sum(pool.map(attempt, range(100)))
    finally:
        for number in range(devices):
            ratelimit.reset(address, f"device-{number}")
    expected = settings.JOIN_RATE_LIMIT if devices == 1 else settings.JOIN_ADDRESS_RATE_LIMIT
    assert passed == expected


def test_right_codes_are_not_counted(session):
    client = Client()
    for _ in range(settings.JOIN_RATE_LIMIT + 2):
        client.get(reverse("classroom:join_code", args=[session.join_code]))
    assert post_join(client, session.join_code, "Sam").status_code == 302


# Roster


def test_roster_session_offers_pseudonyms_not_a_free_nickname(roster_session):
    response = Client().get(reverse("classroom:join_code", args=[roster_session.join_code]))
    body = text(response)
    assert 'name="pseudonym"' in body
    assert 'name="nickname"' not in body
    assert "Blue Fox" in body and "Red Panda" in body


def test_code_typed_on_the_plain_form_leads_to_the_roster(roster_session):
    response = post_join(Client(), roster_session.join_code, "Free Name")
    assert response.status_code == 200
    assert 'name="pseudonym"' in text(response)
    assert not Participant.objects.exists()


def test_taken_pseudonym_is_not_offered(roster_session):
    client = Client()
    response = client.post("/join/", {"code": roster_session.join_code, "pseudonym": "Green Owl"})
    assert response.status_code == 302
    assert roster_session.participants.get().nickname == "Green Owl"
    body = text(Client().get(reverse("classroom:join_code", args=[roster_session.join_code])))
    assert "Green Owl" not in body
    assert "Blue Fox" in body
    # posting a taken pseudonym anyway is refused
    again = Client().post("/join/", {"code": roster_session.join_code, "pseudonym": "Green Owl"})
    assert again.status_code == 200
    assert roster_session.participants.count() == 1


def test_a_name_outside_the_roster_is_refused(roster_session):
    response = Client().post("/join/", {"code": roster_session.join_code, "pseudonym": "Hacker"})
    assert response.status_code == 200
    assert not Participant.objects.exists()


def test_lost_device_cookie_finds_the_place_by_seat_cookie(session, student):
    participant = session.participants.get()
    del student.cookies[settings.DEVICE_COOKIE_NAME]
    response = student.get(reverse("classroom:join_code", args=[session.join_code]))
    assert response.status_code == 302
    assert participant.device_id in response.cookies[settings.DEVICE_COOKIE_NAME].value
    assert session.participants.count() == 1


def test_kicked_student_without_device_cookie_is_still_recognised(session, student):
    actions.do_kick_participant(session.participants.get())
    del student.cookies[settings.DEVICE_COOKIE_NAME]
    response = student.get(reverse("classroom:join_code", args=[session.join_code]))
    assert response.status_code == 200
    assert "You were removed from this session" in text(response)
    asked = post_join(student, session.join_code, "New Name")
    assert asked["Location"].startswith("/join/wait/")
    assert session.join_requests.get().reason == "removed_device"


def test_join_form_offers_the_way_back_to_an_open_session(session, student):
    body = text(student.get(reverse("classroom:join")))
    assert "You are already in a session as Sam" in body
    assert reverse("classroom:lobby", args=[session.join_code]) in body


def test_lobby_of_an_ended_session_says_so(session, student):
    actions.do_end_session(session)
    response = student.get(reverse("classroom:lobby", args=[session.join_code]))
    assert response.status_code == 200
    assert "ended this session" in text(response)
    assert "ws-connect" in text(response) and "hx-ws-2" not in text(response)


def test_roster_form_requires_a_choice(roster_session):
    response = Client().post("/join/", {"code": roster_session.join_code, "pseudonym": ""})
    assert response.status_code == 200
    assert "Please choose your name in the list" in text(response)


def test_a_student_seen_a_moment_ago_is_not_written_again(session, django_assert_num_queries):
    """Each page and socket of a student records when their device was seen; within a
    minute of the last record nothing is written (a class opening its lobby pages wrote
    a row per socket, each waiting for the database's write lock)."""
    join_client(session, "Sam")
    participant = session.participants.get()
    recorded = participant.last_seen_at
    with django_assert_num_queries(0):
        actions.do_touch_participant(participant)
    assert Participant.objects.get(pk=participant.pk).last_seen_at == recorded
    earlier = recorded - timedelta(seconds=actions.TOUCH_SECONDS + 1)
    Participant.objects.filter(pk=participant.pk).update(last_seen_at=earlier)
    participant.refresh_from_db()
    with django_assert_num_queries(1):
        actions.do_touch_participant(participant)
    assert Participant.objects.get(pk=participant.pk).last_seen_at > recorded


def test_a_join_is_decided_in_five_statements_under_the_session_lock(session):
    """Every statement of a join runs while the session's row is locked, a round trip
    each to a distant database while the rest of the class waits for the lock: the
    students' facts are read in one query (it was five), this device's requests in one
    (it was two, and an update even when there was nothing to expire)."""
    actions.do_join_session(session, "Ana", "device-a", address_hash="school")
    with CaptureQueriesContext(connection) as statements:
        joined = actions.do_join_session(session, "Sam", "device-b", address_hash="school")
    sql = [q["sql"] for q in statements.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(sql) == 5, "\n".join(sql)
    assert sql[-1].startswith("INSERT")
    assert isinstance(joined, Participant) and joined.nickname == "Sam"


def test_a_nickname_taken_a_moment_earlier_is_refused_and_nothing_is_kept(
    session, monkeypatch, django_capture_on_commit_callbacks
):
    """Two devices typing the same nickname at once: both pass the check, the database's
    constraint refuses the second insert. The join is refused as "taken", nothing is
    kept or announced, and the database connection goes on serving."""
    actions.do_join_session(session, "Sam", "device-a")
    monkeypatch.setattr(actions, "_refuse_to_seat", lambda *args, **kwargs: None)
    with (
        django_capture_on_commit_callbacks() as announced,
        pytest.raises(actions.ActionRefused) as refusal,
    ):
        actions.do_join_session(session, "SAM", "device-b")
    assert refusal.value.code == "taken"
    assert announced == []
    assert list(session.participants.values_list("nickname", flat=True)) == ["Sam"]
    with CaptureQueriesContext(connection) as statements:
        actions.do_join_session(session, "Kim", "device-b")
    assert session.participants.count() == 2
    # one transaction (a savepoint inside the test's own), no savepoint inside it: each is
    # two round trips to a distant database
    assert sum(q["sql"].startswith("SAVEPOINT") for q in statements.captured_queries) == 1


def test_pages_htmx_also_asks_for_are_never_kept_by_the_browser(session, student):
    """The lobby answers its htmx request with an empty body and HX-Redirect once the game
    started: kept by the browser, Back to the lobby showed that empty body."""
    url = reverse("classroom:lobby", args=[session.join_code])
    for headers in ({}, {"HX-Request": "true"}):
        response = student.get(url, headers=headers)
        assert "no-store" in response["Cache-Control"]
        assert "HX-Request" in response["Vary"]
