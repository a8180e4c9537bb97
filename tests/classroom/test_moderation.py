"""Moderation of who joins: removed students stay out, join rate limits, approval of
each nickname, renaming, generated nicknames, and bounded seat-move requests."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classroom import actions, identity, ratelimit
from classroom.forms import SessionForm
from classroom.generator import all_nicknames, word_lists
from classroom.models import ClassSession, JoinRequest, Participant, SeatMove
from classroom.nicknames import validate_nickname
from classroom.retention import purge_session
from tests.classroom.conftest import join_client, open_session

pytestmark = pytest.mark.django_db

SCHOOL = "198.51.100.20"  # one NAT address for a whole class (a documentation range)
HOME = "203.0.113.5"
FIREFOX_ANDROID = "Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0"
CHROME_WINDOWS = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/124.0 Safari/537.36"
)


@pytest.fixture(autouse=True)
def _fresh_join_counts():
    for address in (SCHOOL, HOME):
        ratelimit.reset(address)
    yield
    for address in (SCHOOL, HOME):
        ratelimit.reset(address)


def device(address=SCHOOL, agent=CHROME_WINDOWS):
    """A browser without cookies behind ``address``."""
    return Client(REMOTE_ADDR=address, HTTP_USER_AGENT=agent)


def post_join(client, code, nickname=""):
    return client.post("/join/", {"code": code, "nickname": nickname})


def text(response):
    return response.content.decode()


def live_page(client, session):
    return text(client.get(reverse("live:session_live", args=[session.pk])))


def kick(session, nickname):
    return actions.do_kick_participant(session.participants.get(nickname=nickname))


# A removed student stays out


def test_removed_student_without_cookies_waits_for_the_teacher(session, client_a):
    join_client(session, "Sam", device())
    kick(session, "Sam")
    stranger = device()  # a fresh browser, same school address
    response = post_join(stranger, session.join_code, "Sneaky")
    request = JoinRequest.objects.get()
    assert response["Location"] == reverse("classroom:join_wait", args=[request.pk])
    assert request.reason == JoinRequest.Reason.REMOVED_ADDRESS
    assert not session.participants.filter(nickname="Sneaky").exists()
    page = stranger.get(response["Location"])
    assert "Your teacher must approve it first" in text(page)
    dashboard = live_page(client_a, session)
    assert "Sneaky" in dashboard and "Same network as a removed student" in dashboard
    assert "Chrome, Windows" in dashboard


def test_the_wait_page_speaks_the_sessions_language(school_class):
    session = open_session(school_class, language="fr")
    join_client(session, "Sam", device())
    kick(session, "Sam")
    stranger = device()
    response = post_join(stranger, session.join_code, "Sneaky")
    page = text(stranger.get(response["Location"]))
    assert 'lang="fr"' in page
    assert "Sneaky" in page


def test_teacher_approves_a_waiting_nickname_from_the_dashboard(session, client_a):
    join_client(session, "Sam", device())
    kick(session, "Sam")
    newcomer = device()
    wait_url = post_join(newcomer, session.join_code, "Robin")["Location"]
    request = JoinRequest.objects.get()
    answer = client_a.post(
        reverse("classroom:join_approve", args=[session.pk]), {"request": request.pk}
    )
    assert answer.status_code == 302
    request.refresh_from_db()
    assert request.status == JoinRequest.Status.APPROVED
    assert request.device_label == ""  # shown only while pending
    robin = session.participants.get(nickname="Robin")
    assert robin.address_hash == request.address_hash
    seated = newcomer.get(wait_url)
    assert seated["Location"] == reverse("classroom:lobby", args=[session.join_code])
    assert newcomer.get(seated["Location"]).status_code == 200


def test_a_refused_device_cannot_ask_again_but_its_classmates_can(session, client_a):
    join_client(session, "Sam", device())
    kick(session, "Sam")
    troll = device()
    wait_url = post_join(troll, session.join_code, "Sneaky")["Location"]
    request = JoinRequest.objects.get()
    client_a.post(reverse("classroom:join_refuse", args=[session.pk]), {"request": request.pk})
    assert "did not let you join" in text(troll.get(wait_url))
    again = post_join(troll, session.join_code, "Other Name")
    assert again["Location"] == wait_url
    assert JoinRequest.objects.count() == 1
    # The address alone never refuses: a classmate behind the same NAT still asks.
    classmate = device()
    asked = post_join(classmate, session.join_code, "Alex")
    assert asked.status_code == 302
    assert JoinRequest.objects.filter(nickname="Alex", status="pending").exists()


def test_the_removed_address_asks_only_for_an_hour(session):
    join_client(session, "Sam", device())
    sam = kick(session, "Sam")
    Participant.objects.filter(pk=sam.pk).update(
        kicked_at=timezone.now()
        - timedelta(minutes=settings.REMOVED_ADDRESS_HOLD_MINUTES)
        - timedelta(minutes=1)
    )
    response = post_join(device(), session.join_code, "Robin")
    assert response["Location"] == reverse("classroom:lobby", args=[session.join_code])


def test_another_network_joins_at_once_after_a_removal(session):
    join_client(session, "Sam", device())
    kick(session, "Sam")
    response = post_join(device(HOME), session.join_code, "Robin")
    assert response["Location"] == reverse("classroom:lobby", args=[session.join_code])


def test_the_address_is_stored_only_as_a_keyed_hash_of_the_session(session, school_class):
    join_client(session, "Sam", device())
    stored = session.participants.get().address_hash
    assert stored == identity.address_hash(session.pk, SCHOOL)
    assert SCHOOL not in stored and len(stored) == 64
    other = open_session(school_class)
    assert identity.address_hash(other.pk, SCHOOL) != stored


def test_purge_deletes_join_requests_and_hashed_addresses(session):
    join_client(session, "Sam", device())
    kick(session, "Sam")
    post_join(device(), session.join_code, "Robin")
    assert JoinRequest.objects.filter(session=session).exists()
    counts = purge_session(session)
    assert counts["join_requests"] == 1
    assert not JoinRequest.objects.filter(session=session).exists()
    assert not Participant.objects.filter(session=session).exists()


# Join rate limit


def test_a_class_behind_one_address_gets_in_a_script_does_not():
    # A class of 30 pressing "Join" together: fifteen at once, the rest after the
    # ten-second burst window (simulated by forgetting it), well within a minute.
    allowed_now = sum(1 for _ in range(30) if ratelimit.join_wait_seconds(SCHOOL) == 0)
    assert allowed_now == settings.JOINS_PER_BURST == 15
    cache.delete(ratelimit.join_keys(SCHOOL)[0])
    allowed_next = sum(1 for _ in range(15) if ratelimit.join_wait_seconds(SCHOOL) == 0)
    assert allowed_now + allowed_next == 30
    # A script of hundreds gets no more than the minute's limit, burst windows or not.
    ratelimit.reset(SCHOOL)
    allowed = 0
    for _ in range(300):
        cache.delete(ratelimit.join_keys(SCHOOL)[0])
        allowed += ratelimit.join_wait_seconds(SCHOOL) == 0
    assert allowed == settings.JOINS_PER_MINUTE == 35
    assert ratelimit.join_wait_seconds(SCHOOL) == 60
    assert ratelimit.join_wait_seconds(HOME) == 0  # per address


def test_a_join_count_always_expires_so_no_address_is_held_for_good():
    """A count left with no expiry (Django's incr, a key expiring between its check and
    its increment) would hold a school's address over the limit for ever."""
    # Django's RedisCache (settings.CACHES): its stubs do not know its private client.
    client = cache._cache.get_client(write=True)  # type: ignore[attr-defined]
    burst, minute = (cache.make_and_validate_key(key) for key in ratelimit.join_keys(SCHOOL))
    client.set(burst, settings.JOINS_PER_BURST)  # a full burst, with no expiry
    assert client.ttl(burst) == -1
    assert ratelimit.join_wait_seconds(SCHOOL) == settings.JOIN_BURST_SECONDS
    assert 0 < client.ttl(burst) <= settings.JOIN_BURST_SECONDS  # it will end
    assert int(client.get(burst)) == settings.JOINS_PER_BURST  # the refused join not kept
    client.delete(burst)
    assert ratelimit.join_wait_seconds(SCHOOL) == 0
    for key in (burst, minute):
        assert int(client.get(key)) == 1 and 0 < client.ttl(key) <= 60
    # named by a keyed hash of the address: Redis and its file on disk hold no address
    assert ratelimit.take_attempt(SCHOOL, None)
    names = [key.decode() for key in client.keys("*classroom:*")]
    assert len(names) >= 4 and not any(SCHOOL in name for name in names), names


def test_the_join_form_says_to_wait_when_too_many_join_from_one_address(session):
    for number in range(settings.JOINS_PER_BURST):
        join_client(session, f"Student {number}", device())
    response = post_join(device(), session.join_code, "One More")
    assert response.status_code == 200
    assert "Many students are joining from this network right now" in text(response)
    assert 'value="One More"' in text(response)  # nothing typed is lost
    assert session.participants.count() == settings.JOINS_PER_BURST
    assert post_join(device(HOME), session.join_code, "From Home").status_code == 302


def test_the_join_api_is_rate_limited_too(session):
    for number in range(settings.JOINS_PER_BURST):
        response = device().post(
            "/join/",
            {"code": session.join_code, "nickname": f"Robot {number}"},
            content_type="application/json",
        )
        assert response.status_code == 201
    refused = device().post(
        "/join/",
        {"code": session.join_code, "nickname": "Robot X"},
        content_type="application/json",
    )
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "rate_limited"


def test_many_students_from_one_address_need_approval_past_the_cap(session):
    address = identity.address_hash(session.pk, SCHOOL)
    Participant.objects.bulk_create(
        Participant(
            session=session,
            nickname=f"P{i}",
            nickname_key=f"p{i}",
            device_id=f"d{i}",
            address_hash=address,
        )
        for i in range(settings.MAX_STUDENTS_PER_ADDRESS)
    )
    joined = actions.do_join_session(session, "Late One", "dev-x", address)
    assert isinstance(joined, JoinRequest)
    assert joined.reason == JoinRequest.Reason.MANY_FROM_ADDRESS
    elsewhere = actions.do_join_session(session, "Home One", "dev-y", "other-hash")
    assert isinstance(elsewhere, Participant)


# Approve each new nickname


def test_approval_mode_makes_every_join_wait(school_class, client_a):
    session = open_session(school_class, approve_joins=True)
    student = device(HOME)
    form = text(student.get(reverse("classroom:join_code", args=[session.join_code])))
    assert "Your teacher approves each new nickname" in form
    wait_url = post_join(student, session.join_code, "Robin")["Location"]
    assert not session.participants.exists()
    request = JoinRequest.objects.get()
    assert request.reason == JoinRequest.Reason.APPROVAL
    # the same device asks for one nickname at a time
    assert post_join(student, session.join_code, "Other")["Location"] == wait_url
    assert JoinRequest.objects.count() == 1
    # a waiting nickname is taken for others
    assert "already uses this nickname" in text(post_join(device(), session.join_code, "robin"))
    client_a.post(reverse("classroom:join_approve", args=[session.pk]), {"request": request.pk})
    assert session.participants.get().nickname == "Robin"


def test_waiting_requests_are_bounded_per_session(school_class):
    session = open_session(school_class, approve_joins=True)
    for number in range(settings.MAX_PENDING_JOINS):
        actions.do_join_session(session, f"Kid {number}", f"dev-{number}", "h")
    with pytest.raises(actions.ActionRefused) as refusal:
        actions.do_join_session(session, "Kid X", "dev-x", "h")
    assert refusal.value.code == "busy"
    assert "already waiting for the teacher's approval" in refusal.value.message


def test_the_session_form_and_the_dashboard_switch_the_join_rules(session, client_a):
    form = SessionForm()
    assert "approve_joins" in form.fields and "generated_nicknames" in form.fields
    page = live_page(client_a, session)
    assert 'name="approve_joins"' in page and 'name="generated_nicknames"' in page
    response = client_a.post(
        reverse("classroom:join_rules", args=[session.pk]),
        {"approve_joins": "on", "generated_nicknames": "on"},
    )
    assert response.status_code == 302
    session.refresh_from_db()
    assert session.approve_joins and session.generated_nicknames
    client_a.post(reverse("classroom:join_rules", args=[session.pk]), {})
    session.refresh_from_db()
    assert not session.approve_joins and not session.generated_nicknames


def test_the_api_answers_202_and_a_program_polls_for_its_seat(school_class):
    session = open_session(school_class, approve_joins=True)
    program = device(HOME)
    response = program.post(
        "/join/", {"code": session.join_code, "nickname": "Robot"}, content_type="application/json"
    )
    assert response.status_code == 202
    wait_url, token = response.json()["wait_url"], response.json()["wait_token"]
    assert token not in wait_url  # URLs reach access logs
    bearer = {"Authorization": f"Bearer {token}"}
    assert Client().get(wait_url, headers=bearer).json() == {"status": "pending"}
    assert Client().get(wait_url).status_code == 302  # no token, no cookie
    assert Client().get(f"{wait_url}?token={token}").status_code == 302  # not read there
    actions.do_answer_join_request(JoinRequest.objects.get(), True)
    answer = Client().get(wait_url, headers=bearer).json()
    assert answer["status"] == "approved" and answer["nickname"] == "Robot"
    participant = identity.participant_from_token(answer["token"])
    assert participant is not None and participant.nickname == "Robot"


# Renaming and generated nicknames


def test_teacher_renames_a_student(session, client_a):
    student = join_client(session, "Sam", device(HOME))
    sam = session.participants.get()
    url = reverse("classroom:rename", args=[session.pk])
    renamed = {"participant": sam.pk, "nickname": "  Quiet   Owl "}
    response = client_a.post(url, renamed, follow=True)
    assert "Nickname changed." in text(response)
    sam.refresh_from_db()
    assert (sam.nickname, sam.nickname_key) == ("Quiet Owl", "quiet owl")
    assert "Quiet Owl" in text(student.get(reverse("classroom:lobby", args=[session.join_code])))


@pytest.mark.parametrize(
    ("nickname", "message"),
    [
        ("x", "at least 2 characters"),
        ("Robin", "already uses this nickname: give another one."),
        ("Big Idiot", "This nickname is not allowed: give a friendly one."),
    ],
)
def test_a_bad_new_nickname_is_refused_with_a_message(session, client_a, nickname, message):
    join_client(session, "Sam", device(HOME))
    join_client(session, "Robin", device(HOME))
    sam = session.participants.get(nickname="Sam")
    response = client_a.post(
        reverse("classroom:rename", args=[session.pk]),
        {"participant": sam.pk, "nickname": nickname},
        follow=True,
    )
    assert message in text(response)
    sam.refresh_from_db()
    assert sam.nickname == "Sam"


def test_a_refused_rename_comes_back_with_the_student_and_the_nickname_typed(session, client_a):
    join_client(session, "Sam", device(HOME))
    join_client(session, "Robin", device(HOME))
    robin = session.participants.get(nickname="Robin")
    response = client_a.post(
        reverse("classroom:rename", args=[session.pk]),
        {"participant": robin.pk, "nickname": "Sam"},
        follow=True,
    )
    page = response.content.decode()
    assert "already uses this nickname" in text(response)
    # the second student stays chosen, not the list's first, and the nickname is there
    assert f'<option value="{robin.pk}" selected>Robin</option>' in page
    assert 'name="nickname"' in page and 'value="Sam" autofocus' in page
    # kept for that one page only
    again = live_page(client_a, session)
    assert f'<option value="{robin.pk}" selected>' not in again and 'value="Sam"' not in again


@pytest.mark.parametrize("language", ["en", "es", "fr", "ru"])
def test_every_generated_word_and_nickname_passes_the_validator(language):
    words = word_lists(language)
    assert words["adjectives"] and words["animals"]
    for word in [*words["adjectives"], *words["animals"]]:
        assert validate_nickname(word) == word
    names = all_nicknames(language)
    assert len(names) >= 300
    for name in names:
        try:
            validate_nickname(name)
        except ValidationError as error:  # pragma: no cover - the message names the word
            pytest.fail(f"{name}: {error.messages}")


@pytest.mark.parametrize("language", ["en", "es", "fr", "ru"])
def test_generator_sessions_give_two_friendly_words(school_class, language):
    session = open_session(school_class, language=language, generated_nicknames=True)
    student = device(HOME)
    form = text(student.get(reverse("classroom:join_code", args=[session.join_code])))
    assert 'name="nickname"' not in form
    response = student.post("/join/", {"code": session.join_code, "nickname": "Typed Anyway"})
    assert response.status_code == 302
    nickname = session.participants.get().nickname
    adjective_first = word_lists(language)["order"] == "adjective animal"
    first, second = nickname.split(" ")
    adjective, animal = (first, second) if adjective_first else (second, first)
    assert adjective in word_lists(language)["adjectives"]
    assert animal in word_lists(language)["animals"]


def test_generated_nicknames_do_not_repeat_in_a_session(school_class):
    session = open_session(school_class, generated_nicknames=True)
    for number in range(40):
        actions.do_join_session(session, "", f"dev-{number}", f"h{number}")
    keys = list(session.participants.values_list("nickname_key", flat=True))
    assert len(keys) == 40 and len(set(keys)) == 40


# Seat moves


@pytest.fixture
def running(session):
    join_client(session, "Sam", device(HOME, FIREFOX_ANDROID))
    actions.do_start_session(session)
    session.refresh_from_db()
    assert session.state == ClassSession.State.RUNNING
    return session


def test_thirty_devices_typing_one_nickname_make_one_request(running, client_a):
    first = device(agent=FIREFOX_ANDROID)
    response = post_join(first, running.join_code, "Sam")
    move = SeatMove.objects.get()
    assert response["Location"] == reverse("classroom:seat_move", args=[move.pk])
    refused = []
    for _ in range(29):
        ratelimit.reset(SCHOOL)  # thirty devices over a few minutes: not the rate limit
        refused.append(post_join(device(), running.join_code, "Sam"))
    assert SeatMove.objects.count() == 1
    assert all("Another device already asks for this nickname" in text(r) for r in refused)
    page = live_page(client_a, running)
    assert move.device_label in page and "Firefox, Android" in move.device_label
    assert "asked at" in page


def test_a_device_asks_for_one_nickname_at_a_time(running):
    join_client(running, "Robin", device(HOME))
    sam = running.participants.get(nickname="Sam")
    robin = running.participants.get(nickname="Robin")
    actions.do_request_seat_move(sam, "the-device")
    with pytest.raises(actions.ActionRefused) as refusal:
        actions.do_request_seat_move(robin, "the-device")
    assert refusal.value.code == "move_device_busy"


def test_pending_moves_are_bounded_per_session(running):
    for number in range(settings.MAX_PENDING_MOVES + 1):
        actions.do_join_session(running, f"Kid {number}", f"own-{number}", "h")
    kids = list(running.participants.filter(nickname__startswith="Kid"))
    for number, kid in enumerate(kids[: settings.MAX_PENDING_MOVES]):
        actions.do_request_seat_move(kid, f"new-{number}")
    with pytest.raises(actions.ActionRefused) as refusal:
        actions.do_request_seat_move(kids[-1], "new-last")
    assert refusal.value.code == "move_busy"


def test_the_device_label_goes_when_the_teacher_answers(running, client_a):
    sam = running.participants.get()
    move = actions.do_request_seat_move(sam, "new-device", identity.device_label("x", ""))
    assert move.device_label
    client_a.post(reverse("classroom:move_refuse", args=[running.pk]), {"move": move.pk})
    move.refresh_from_db()
    assert move.status == SeatMove.Status.REFUSED and move.device_label == ""


def test_device_label_is_short_stable_and_reveals_no_id():
    label = identity.device_label("0123456789abcdef", FIREFOX_ANDROID)
    tag, browser = label.split(" · ")
    assert len(tag) == 4 and tag not in "0123456789abcdef"
    assert browser == "Firefox, Android"
    assert identity.device_label("0123456789abcdef", CHROME_WINDOWS).startswith(tag)
    assert identity.device_label("other", CHROME_WINDOWS) != label
