"""Teacher logins are throttled (django-axes): wrong passwords for one username from one
address lock that pair out for a while, with a message; other teachers behind the same
school address, and the same teacher elsewhere, still log in. Failed logins are kept
LOGIN_ATTEMPT_HOURS at most."""

from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.http import HttpResponseBase
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classroom.retention import purge_login_attempts
from tests.classroom.conftest import PASSWORD

if TYPE_CHECKING:
    # The test client's response, as the stubs name it (no such class at run time).
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

pytestmark = pytest.mark.django_db

SCHOOL = "192.0.2.10"  # a school's one shared (NAT) address
HOME = "198.51.100.7"


def log_in(username: str, password: str, address: str = SCHOOL) -> "TestResponse":
    """Post the login form from ``address``; return the response."""
    client = Client(REMOTE_ADDR=address)
    return client.post(reverse("login"), {"username": username, "password": password})


def logged_in(response: HttpResponseBase) -> bool:
    return response.status_code == 302 and response["Location"] == reverse("classroom:dashboard")


@pytest.fixture
def teachers(django_user_model):
    for name in ("ms-target", "mr-colleague"):
        django_user_model.objects.create_user(username=name, password=PASSWORD)


def test_a_hundred_wrong_passwords_lock_the_username_at_that_address(teachers):
    assert settings.LOGIN_FAILURE_LIMIT < 100
    refused = [log_in("ms-target", f"guess-{n}") for n in range(100)]
    assert all(not logged_in(r) for r in refused)
    assert refused[0].status_code == 200  # the login form again, with its error
    assert refused[-1].status_code == 429
    right = log_in("ms-target", PASSWORD)
    assert right.status_code == 429 and not logged_in(right)
    page = right.content.decode()
    assert "Too many wrong passwords" in page
    assert f"paused for {settings.LOGIN_LOCKOUT_MINUTES} minutes" in page
    # the school's other teachers, and the same teacher at home, are not locked out
    assert logged_in(log_in("mr-colleague", PASSWORD))
    assert logged_in(log_in("ms-target", PASSWORD, address=HOME))


def test_the_lockout_ends_after_its_minutes(teachers):
    for n in range(settings.LOGIN_FAILURE_LIMIT):
        log_in("ms-target", f"guess-{n}")
    assert log_in("ms-target", PASSWORD).status_code == 429
    past = timezone.now() - timedelta(minutes=settings.LOGIN_LOCKOUT_MINUTES + 1)
    assert AccessAttempt.objects.filter(username="ms-target").update(attempt_time=past) == 1
    assert logged_in(log_in("ms-target", PASSWORD))


def test_a_right_password_clears_the_count(teachers):
    for _round in range(3):
        for n in range(settings.LOGIN_FAILURE_LIMIT - 1):
            assert not logged_in(log_in("ms-target", f"typo-{n}"))
        assert logged_in(log_in("ms-target", PASSWORD))


def test_failed_logins_are_kept_a_day_at_most_and_never_the_password(teachers):
    log_in("ms-target", "my-secret-guess")
    log_in("mr-colleague", "another-guess")
    attempts = AccessAttempt.objects.all()
    assert attempts.count() == 2
    assert all("my-secret-guess" not in (a.post_data or "") for a in attempts)
    old = timezone.now() - timedelta(hours=settings.LOGIN_ATTEMPT_HOURS, minutes=1)
    AccessAttempt.objects.filter(username="ms-target").update(attempt_time=old)
    assert purge_login_attempts() == 1
    assert list(AccessAttempt.objects.values_list("username", flat=True)) == ["mr-colleague"]


def test_the_privacy_page_says_how_long_failed_logins_are_kept(client, settings):
    settings.LOGIN_ATTEMPT_HOURS = 6
    page = client.get(reverse("debrief:privacy")).content.decode()
    assert "Failed teacher logins" in page
    assert "6 hours after the last wrong password from the same address and browser, then" in page
