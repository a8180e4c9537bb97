"""/privacy/ lists everything the platform stores: every model of the apps has its row."""

from datetime import timedelta

import pytest
from django.apps import apps
from django.contrib.sessions.models import Session
from django.urls import reverse
from django.utils import timezone

from classroom.forms import SignUpForm
from classroom.ratelimit import WINDOW_SECONDS
from classroom.tasks import clear_expired_logins

# Every model of the project's apps, with the /privacy/ row (its id) that lists it, or
# None for shipped lesson content that holds nobody's data.
ROWS = {
    "classroom.SchoolClass": "teachers",  # and its roster: "rosters"
    "classroom.ClassSession": "teachers",
    "classroom.Participant": "participants",
    "classroom.Table": "matches",
    "classroom.Seat": "matches",
    "classroom.SeatMove": "participants",
    "classroom.JoinRequest": "join-requests",
    "classroom.Deck": "decks",
    "classroom.Erasure": "backups",
    "games.Match": "matches",
    "games.MatchAction": "matches",
    "games.MatchTimer": "matches",
    "games.MatchHold": "matches",
    "lessons.Lesson": None,
    "lessons.LessonText": None,
    "lessons.QuizQuestion": None,
    "lessons.QuizQuestionText": None,
    "lessons.LessonLink": None,
    "lessons.LessonOverride": "teachers",
    "lessons.SessionLessonMode": "teachers",
    "lessons.LessonMoment": "lesson-moments",
    "lessons.Quiz": "quiz-answers",
    "lessons.QuizAnswer": "quiz-answers",
    "debrief.DebriefExport": "debrief-files",
}
# What is kept outside the project's models (Django's user table and admin log, the cache,
# cookies) or is one part of a model (a class's roster).
OTHER_ROWS = {
    "rosters",
    "admin-log",
    "nicknames",
    "device-ids",
    "network-addresses",
    "join-attempts",
    "server-logs",
    "language",
}


def test_every_model_of_the_apps_is_on_the_privacy_page_or_is_shipped_content():
    models = {
        model._meta.label
        for label in ("classroom", "games", "lessons", "debrief")
        for model in apps.get_app_config(label).get_models()
    }
    assert models == set(ROWS), "a new model: add it to /privacy/ and to ROWS"


@pytest.mark.django_db
def test_the_privacy_page_has_every_row(client):
    page = client.get(reverse("debrief:privacy")).content.decode()
    for row in {row for row in ROWS.values() if row} | OTHER_ROWS:
        assert f'<tr id="{row}">' in page, row


@pytest.mark.django_db
def test_the_privacy_page_gives_what_teachers_keep_its_time_limit(client, settings):
    settings.ROSTER_DAYS, settings.ACCOUNT_DAYS, settings.ADMIN_LOG_DAYS = 200, 400, 90
    page = client.get(reverse("debrief:privacy")).content.decode()
    assert "or 200 days after the class was last used" in page
    assert "or 400 days after the teacher's last login" in page
    assert "90 days. An entry about a session" in page


@pytest.mark.django_db
def test_the_privacy_page_says_how_long_backups_and_erasure_notes_are_kept(client, settings):
    settings.BACKUP_HOURS, settings.BACKUP_DAYS = 12, 5
    page = client.get(reverse("debrief:privacy")).content.decode()
    assert "made every 12 hours on the school's machine" in page
    assert "Each copy is deleted 5 days after it was made" in page
    assert "deletes it again after a restore" in page
    settings.BACKUP_HOURS = 0
    page = client.get(reverse("debrief:privacy")).content.decode()
    assert "made every" not in page
    assert "The platform makes no copy of its database by itself" in page
    assert "Each copy is encrypted" not in page
    settings.BACKUP_RECIPIENTS = ["age1" + "q" * 58]  # its form only: the page reads no key
    page = client.get(reverse("debrief:privacy")).content.decode()
    assert "Each copy is encrypted: the platform itself cannot read it" in page


@pytest.mark.django_db
def test_the_privacy_page_says_no_teacher_e_mail_is_asked_and_the_join_rate_limit(client, settings):
    page = client.get(reverse("debrief:privacy")).content.decode()
    assert "email" not in SignUpForm.Meta.fields
    assert "a hashed password (no e-mail address is asked for)" in page
    assert WINDOW_SECONDS == 60
    assert "A keyed hash of the network address (never the address itself)" in page
    assert "One minute" in page


@pytest.mark.django_db
def test_expired_login_sessions_are_cleared_by_a_beat_task(settings):
    assert settings.CELERY_BEAT_SCHEDULE["clear-expired-logins"]["task"] == (
        "classroom.tasks.clear_expired_logins"
    )
    now = timezone.now()
    Session.objects.create(session_key="x" * 32, session_data="", expire_date=now - timedelta(1))
    Session.objects.create(session_key="y" * 32, session_data="", expire_date=now + timedelta(1))
    clear_expired_logins()
    assert list(Session.objects.values_list("session_key", flat=True)) == ["y" * 32]
