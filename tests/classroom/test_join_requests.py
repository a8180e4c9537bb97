"""Join limits from the settings, join requests under a locked lobby, a full or ended
session, and the expiry of join requests that the teacher leaves unanswered."""

import subprocess
from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import escape
from django.utils.translation import gettext

from classroom import actions, identity
from classroom.models import MAX_PARTICIPANTS, ClassSession, JoinRequest, Participant
from classroom.retention import purge_expired, purge_expired_join_requests
from classroom.tasks import purge_expired_sessions
from config.celery import app
from tests.classroom.conftest import join_client, open_session
from tests.classroom.test_moderation import (  # noqa: F401 (an autouse fixture)
    HOME,
    SCHOOL,
    _fresh_join_counts,
)
from tests.platform.test_settings import run_python

if TYPE_CHECKING:
    # The test client's response, as the stubs name it (no such class at run time).
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

pytestmark = pytest.mark.django_db

LIMITS = {
    "JOINS_PER_BURST": 15,
    "JOIN_BURST_SECONDS": 10,
    "JOINS_PER_MINUTE": 35,
    "MAX_STUDENTS_PER_ADDRESS": 40,
    "REMOVED_ADDRESS_HOLD_MINUTES": 60,
    "MAX_PENDING_JOINS": 20,
    "MAX_PENDING_MOVES": 5,
    "JOIN_REQUEST_MINUTES": 15,
}


def device(address=SCHOOL):
    return Client(REMOTE_ADDR=address)


def post_join(client, code, nickname=""):
    return client.post("/join/", {"code": code, "nickname": nickname})


def text(response: "TestResponse") -> str:
    return response.content.decode()


def said(response: "TestResponse") -> list[str]:
    """The messages the teacher's control left for the next page (which shows them, so
    that the next control starts with none)."""
    messages = [str(message) for message in get_messages(response.wsgi_request)]
    assert response.status_code == 302
    response.client.get(response["Location"])
    return messages


def waiting_request(session, nickname="Robin", address=SCHOOL):
    """A new nickname waiting for approval (the session approves each one); its device."""
    student = device(address)
    response = post_join(student, session.join_code, nickname)
    request = JoinRequest.objects.get(session=session, nickname=nickname)
    assert response["Location"] == reverse("classroom:join_wait", args=[request.pk])
    return request, student


def age(request: JoinRequest, minutes: float) -> None:
    JoinRequest.objects.filter(pk=request.pk).update(
        created_at=timezone.now() - timedelta(minutes=minutes)
    )


def approve(client, request):
    url = reverse("classroom:join_approve", args=[request.session_id])
    return client.post(url, {"request": request.pk})


# 1. The limits are settings, read from the environment


def test_the_join_limits_default_to_todays_values():
    code = "print(" + ", ".join(f"settings.{name}" for name in LIMITS) + ")"
    assert run_python(code).split() == [str(value) for value in LIMITS.values()]


def test_the_join_limits_are_read_from_the_environment():
    env = {name: str(value + 1) for name, value in LIMITS.items()}
    code = "print(" + ", ".join(f"settings.{name}" for name in LIMITS) + ")"
    assert run_python(code, **env).split() == [str(value + 1) for value in LIMITS.values()]


def test_a_limit_below_its_minimum_stops_the_server_at_start():
    with pytest.raises(subprocess.CalledProcessError) as failure:
        run_python("print(settings.JOINS_PER_BURST)", JOINS_PER_BURST="0")
    assert "JOINS_PER_BURST must be at least 1" in failure.value.stderr


def test_the_join_rate_follows_the_settings(session, settings):
    settings.JOINS_PER_BURST = 3
    for number in range(3):
        join_client(session, f"Student {number}", device())
    response = post_join(device(), session.join_code, "One More")
    assert "Many students are joining from this network right now" in text(response)
    assert session.participants.count() == 3
    settings.JOINS_PER_BURST, settings.JOINS_PER_MINUTE = 10, 4
    join_client(session, "Fourth", device())
    assert "Many students are joining" in text(post_join(device(), session.join_code, "Fifth"))


def test_the_caps_follow_the_settings(session, settings):
    settings.MAX_STUDENTS_PER_ADDRESS = 2
    address = identity.address_hash(session.pk, SCHOOL)
    for number in range(2):
        assert isinstance(
            actions.do_join_session(session, f"Kid {number}", f"d{number}", address), Participant
        )
    third = actions.do_join_session(session, "Kid 2", "d2", address)
    assert isinstance(third, JoinRequest)
    assert third.reason == JoinRequest.Reason.MANY_FROM_ADDRESS
    settings.MAX_PENDING_JOINS = 2
    actions.do_join_session(session, "Kid 3", "d3", address)
    with pytest.raises(actions.ActionRefused) as refusal:
        actions.do_join_session(session, "Kid 4", "d4", address)
    assert refusal.value.code == "busy"


def test_the_removed_address_hold_follows_the_settings(session, settings):
    settings.REMOVED_ADDRESS_HOLD_MINUTES = 5
    join_client(session, "Sam", device())
    sam = actions.do_kick_participant(session.participants.get(nickname="Sam"))
    Participant.objects.filter(pk=sam.pk).update(kicked_at=timezone.now() - timedelta(minutes=4))
    assert "/join/wait/" in post_join(device(), session.join_code, "Robin")["Location"]
    Participant.objects.filter(pk=sam.pk).update(kicked_at=timezone.now() - timedelta(minutes=6))
    lobby = reverse("classroom:lobby", args=[session.join_code])
    assert post_join(device(), session.join_code, "Alex")["Location"] == lobby


def test_pending_moves_follow_the_settings(session, settings):
    settings.MAX_PENDING_MOVES = 1
    for nickname in ("Sam", "Kim"):
        actions.do_join_session(session, nickname, f"own-{nickname}", "h")
    actions.do_start_session(session)
    sam, kim = session.participants.order_by("pk")
    actions.do_request_seat_move(sam, "new-1")
    with pytest.raises(actions.ActionRefused) as refusal:
        actions.do_request_seat_move(kim, "new-2")
    assert refusal.value.code == "move_busy"


# 2. The lobby lock, a full session and an ended one


def test_a_locked_lobby_refuses_new_requests_in_the_sessions_language(school_class):
    session = open_session(school_class, language="fr", approve_joins=True)
    actions.do_set_lobby_lock(session, True)
    response = post_join(device(), session.join_code, "Robin")
    assert response.status_code == 200
    with translation.override("fr"):
        message = gettext(
            "The teacher has locked this session: no one can join right now. Ask your "
            "teacher to open it, then press Join again."
        )
    assert "verrouillé" in message
    assert 'lang="fr"' in text(response) and escape(message) in text(response)
    assert not JoinRequest.objects.exists()


def test_a_locked_lobby_refuses_a_removed_students_new_nickname(session):
    sam = join_client(session, "Sam", device())
    actions.do_kick_participant(session.participants.get(nickname="Sam"))
    actions.do_set_lobby_lock(session, True)
    for student, nickname in ((sam, "Sam Again"), (device(), "Sneaky")):
        response = post_join(student, session.join_code, nickname)
        assert "The teacher has locked this session" in text(response)
    assert not JoinRequest.objects.exists()


def test_a_request_waiting_when_the_lobby_locks_waits_and_the_teacher_can_admit_it(
    school_class, client_a
):
    session = open_session(school_class, approve_joins=True)
    request, student = waiting_request(session)
    actions.do_set_lobby_lock(session, True)
    wait_url = reverse("classroom:join_wait", args=[request.pk])
    # The student who comes back to the join form is sent back to the waiting page.
    assert post_join(student, session.join_code, "Robin")["Location"] == wait_url
    page = text(student.get(wait_url))
    assert "Waiting for your teacher" in page
    assert "Your teacher has locked the session for now" in page
    dashboard = text(client_a.get(reverse("live:session_live", args=[session.pk])))
    assert "Robin" in dashboard
    answer = approve(client_a, request)
    assert said(answer) == ["The student is in."]
    assert session.participants.get().nickname == "Robin"
    assert student.get(wait_url)["Location"] == reverse("classroom:lobby", args=[session.join_code])


def test_a_device_asking_again_under_the_lock_gets_its_waiting_request(school_class):
    session = open_session(school_class, approve_joins=True)
    first = actions.do_join_session(session, "Robin", "dev-1", "h")
    assert isinstance(first, JoinRequest)
    actions.do_set_lobby_lock(session, True)
    assert actions.do_join_session(session, "Other", "dev-1", "h") == first  # the JSON join
    with pytest.raises(actions.ActionRefused) as refusal:
        actions.do_join_session(session, "Alex", "dev-2", "h")
    assert refusal.value.code == "locked"
    # An expired request does not outlive the lock: asking again is a new request.
    age(first, 60 * 24)
    with pytest.raises(actions.ActionRefused) as refusal:
        actions.do_join_session(session, "Robin", "dev-1", "h")
    assert refusal.value.code == "locked"


def test_approving_in_a_full_session_says_so_and_the_request_waits(school_class, client_a):
    session = open_session(school_class, approve_joins=True)
    request, _student = waiting_request(session)
    Participant.objects.bulk_create(
        Participant(session=session, nickname=f"P{i}", nickname_key=f"p{i}", device_id=f"d{i}")
        for i in range(MAX_PARTICIPANTS)
    )
    answer = approve(client_a, request)
    assert answer.status_code == 302
    assert said(answer) == [
        f"The session is full ({MAX_PARTICIPANTS} students). Remove a student first if you "
        "want to let this one in."
    ]
    request.refresh_from_db()
    assert request.status == JoinRequest.Status.PENDING and request.device_label
    # Once a student is removed, the same approval admits.
    actions.do_kick_participant(session.participants.get(nickname="P0"))
    assert said(approve(client_a, request)) == ["The student is in."]


def test_answering_in_an_ended_session_says_so(school_class, client_a):
    session = open_session(school_class, approve_joins=True)
    request, student = waiting_request(session)
    actions.do_end_session(session)
    for view in ("classroom:join_approve", "classroom:join_refuse"):
        answer = client_a.post(reverse(view, args=[session.pk]), {"request": request.pk})
        assert answer.status_code == 302
        assert said(answer) == ["This session has ended: nobody can join it any more."]
    request.refresh_from_db()
    assert request.status == JoinRequest.Status.EXPIRED  # ending the session expired it
    assert not session.participants.exists()
    page = text(student.get(reverse("classroom:join_wait", args=[request.pk])))
    assert "This session has ended." in page and "Your request has expired" not in page


def test_ending_the_session_closes_the_requests_that_wait(school_class, client_a):
    session = open_session(school_class, approve_joins=True)
    request, student = waiting_request(session, "Theo2")
    refused, _device = waiting_request(session, "Refused", HOME)
    actions.do_answer_join_request(refused, False)
    asked = actions.do_join_session(session, "Mia", "mia-device", "h")
    assert isinstance(asked, JoinRequest)
    mover = actions.do_answer_join_request(asked, True).participant
    assert mover is not None
    move = actions.do_request_seat_move(mover, "mia-new-device", "3fa1 · Firefox")
    pages = [
        reverse("classroom:session_detail", args=[session.pk]),
        reverse("live:session_live", args=[session.pk]),
    ]
    assert "1 student waits for your approval." in text(client_a.get(pages[0]))
    live = text(client_a.get(pages[1]))
    assert "Theo2" in live and "Let in" in live and "Move to the new device" in live
    actions.do_end_session(session)
    request.refresh_from_db()
    assert request.status == JoinRequest.Status.EXPIRED and request.device_label == ""
    assert not request.is_waiting and request.participant is None
    refused.refresh_from_db()
    assert refused.status == JoinRequest.Status.REFUSED  # still keeps its device out
    move.refresh_from_db()
    assert move.status == move.Status.REFUSED and move.device_label == ""
    assert not session.pending_join_requests().exists()
    for url in pages:
        page = text(client_a.get(url))
        assert "Theo2" not in page and "waits for your approval" not in page, url
        assert "Let in" not in page and "Move to the new device" not in page, url
    # The waiting page stops polling and says the session ended; the purge deletes it.
    wait_url = reverse("classroom:join_wait", args=[request.pk])
    assert student.get(wait_url, HTTP_HX_REQUEST="true").status_code == 286
    assert "This session has ended." in text(student.get(wait_url))
    purge_expired_join_requests()
    assert set(session.join_requests.values_list("nickname", flat=True)) == {"Mia", "Refused"}


def test_an_ended_session_shows_no_request_left_waiting_from_before(school_class, client_a):
    """A session ended before its requests were closed on ending (or a request that
    slipped in meanwhile) still shows none."""
    session = open_session(school_class, approve_joins=True)
    request, _student = waiting_request(session, "Theo2")
    actions.do_end_session(session)
    JoinRequest.objects.filter(pk=request.pk).update(status=JoinRequest.Status.PENDING)
    assert not session.pending_join_requests().exists()
    for url in (
        reverse("classroom:session_detail", args=[session.pk]),
        reverse("live:session_live", args=[session.pk]),
    ):
        page = text(client_a.get(url))
        assert "Theo2" not in page and "waits for your approval" not in page, url


# 3. Join requests expire


def test_an_unanswered_request_expires_and_leaves_the_dashboard(school_class, client_a, settings):
    settings.JOIN_REQUEST_MINUTES = 10
    session = open_session(school_class, approve_joins=True)
    old, _student = waiting_request(session, "Robin")
    fresh, _other = waiting_request(session, "Alex", HOME)
    age(old, 11)
    assert list(session.pending_join_requests()) == [fresh]
    dashboard = text(client_a.get(reverse("live:session_live", args=[session.pk])))
    assert "Alex" in dashboard and "Robin" not in dashboard
    # The expired nickname is free again, and the expired request counts no more.
    settings.MAX_PENDING_JOINS = 2
    assert isinstance(actions.do_join_session(session, "robin", "another", "h"), JoinRequest)
    old.refresh_from_db()
    assert old.is_expired and not old.is_waiting


def test_the_waiting_student_is_told_and_can_ask_again(school_class, settings):
    settings.JOIN_REQUEST_MINUTES = 10
    session = open_session(school_class, approve_joins=True)
    request, student = waiting_request(session)
    wait_url = reverse("classroom:join_wait", args=[request.pk])
    assert student.get(wait_url, HTTP_HX_REQUEST="true").status_code == 200  # polls on
    age(request, 11)
    polled = student.get(wait_url, HTTP_HX_REQUEST="true")
    assert polled.status_code == 286  # htmx stops polling
    page = text(student.get(wait_url))
    assert "Your request has expired" in page
    assert "To ask again, open the join page" in page
    assert f'href="{reverse("classroom:join_code", args=[session.join_code])}"' in page
    # The join form no longer sends the device back to the expired request.
    form = student.get(reverse("classroom:join_code", args=[session.join_code]))
    assert form.status_code == 200
    again = post_join(student, session.join_code, "Robin")
    new = JoinRequest.objects.get(status=JoinRequest.Status.PENDING)
    assert again["Location"] == reverse("classroom:join_wait", args=[new.pk])
    request.refresh_from_db()
    assert request.status == JoinRequest.Status.EXPIRED


def test_the_expired_page_speaks_the_sessions_language(school_class):
    session = open_session(school_class, language="ru", approve_joins=True)
    request, student = waiting_request(session)
    age(request, 60 * 24)
    page = text(student.get(reverse("classroom:join_wait", args=[request.pk])))
    assert 'lang="ru"' in page and "Robin" not in page


def test_approving_an_expired_request_says_so(school_class, client_a):
    session = open_session(school_class, approve_joins=True)
    request, _student = waiting_request(session)
    age(request, 60 * 24)
    answer = approve(client_a, request)
    assert said(answer) == [
        "This request has expired: it waited too long. The student can ask again from the "
        "join page."
    ]
    request.refresh_from_db()
    assert request.status == JoinRequest.Status.EXPIRED and request.device_label == ""
    assert not session.participants.exists()


def test_the_api_polls_an_expired_request(school_class, settings):
    session = open_session(school_class, approve_joins=True)
    answer = device().post(
        "/join/", {"code": session.join_code, "nickname": "Robot"}, content_type="application/json"
    )
    assert answer.status_code == 202
    wait_url = answer.json()["wait_url"]
    bearer = {"Authorization": f"Bearer {answer.json()['wait_token']}"}
    request = JoinRequest.objects.get()
    age(request, settings.JOIN_REQUEST_MINUTES + 1)
    assert Client().get(wait_url, headers=bearer).json() == {"status": "expired"}
    purge_expired_join_requests()
    gone = Client().get(wait_url, headers=bearer)
    assert gone.status_code == 410 and gone.json() == {"status": "expired"}


def expiring_requests(school_class, settings):
    """Requests of an open session: two expired (one marked so), one waiting, one refused."""
    session = open_session(school_class, approve_joins=True)
    old, old_device = waiting_request(session, "Old")
    marked, _device = waiting_request(session, "Marked")
    waiting, _device = waiting_request(session, "Waiting")
    refused, _device = waiting_request(session, "Refused")
    actions.do_answer_join_request(refused, False)
    age(old, settings.JOIN_REQUEST_MINUTES + 1)
    age(refused, settings.JOIN_REQUEST_MINUTES + 1)
    JoinRequest.objects.filter(pk=marked.pk).update(status=JoinRequest.Status.EXPIRED)
    return (
        session,
        {"old": old, "marked": marked, "waiting": waiting, "refused": refused},
        old_device,
    )


def assert_only_expired_deleted(session, requests, old_device):
    left = set(JoinRequest.objects.filter(session=session).values_list("nickname", flat=True))
    assert left == {"Waiting", "Refused"}  # a refusal keeps its device out until the end
    session.refresh_from_db()
    assert session.state == ClassSession.State.LOBBY and session.purged_at is None
    # The deleted request's page still tells the student what happened.
    page = old_device.get(reverse("classroom:join_wait", args=[requests["old"].pk]))
    assert page.status_code == 410
    assert "Your request has expired" in text(page)
    assert f'href="{reverse("classroom:join")}"' in text(page)


def test_the_purge_deletes_expired_requests(school_class, settings):
    session, requests, old_device = expiring_requests(school_class, settings)
    assert purge_expired(settings.RETENTION_DAYS) == 0
    assert_only_expired_deleted(session, requests, old_device)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_beat_task_deletes_expired_requests_in_a_real_worker(
    transactional_db, celery_worker, school_class, settings
):
    session, requests, old_device = expiring_requests(school_class, settings)
    result = app.send_task(purge_expired_sessions.name)
    assert result.get(timeout=60) == 0
    assert_only_expired_deleted(session, requests, old_device)


def test_the_privacy_page_states_the_join_requests_expiry(client, settings):
    settings.JOIN_REQUEST_MINUTES = 25
    page = text(client.get(reverse("debrief:privacy")))
    row = page[page.index('<tr id="join-requests">') :]
    row = row[: row.index("</tr>")]
    assert "expires after 25 minutes and is deleted within the next hour" in row


def test_the_privacy_page_states_the_removed_address_hold(client, settings):
    settings.REMOVED_ADDRESS_HOLD_MINUTES = 90
    page = text(client.get(reverse("debrief:privacy")))
    row = page[page.index('<tr id="network-addresses">') :]
    row = row[: row.index("</tr>")]
    assert "for 90 minutes after the teacher removes a student" in row
