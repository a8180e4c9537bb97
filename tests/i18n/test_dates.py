"""Dates read one way only: the month by its name on every teacher's page and in the
debrief, in English "7 Dec 2026, 04:52" (config/formats/en), never "12/07/2026 4:52 AM",
which a European reads as 12 July."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from html import unescape
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format, time_format

from classroom import actions
from classroom.models import ClassSession
from tests.i18n.test_catalogues import (  # noqa: F401 (fixtures)
    compiled_catalogues,
    fresh_translations,
)

MOMENT = datetime(2026, 12, 7, 4, 52, tzinfo=UTC)
TEMPLATES = Path(settings.BASE_DIR) / "templates"


@pytest.fixture(autouse=True)
def _language_reset():
    """Leave no language active after a test: a test client's request leaves its
    Accept-Language's active in this thread, and a later test would render in it."""
    yield
    translation.deactivate()


def test_english_dates_name_the_month_and_use_a_24_hour_clock(settings):
    settings.TIME_ZONE = "UTC"
    with translation.override("en"):
        assert date_format(MOMENT, "DATETIME_FORMAT") == "7 Dec 2026, 04:52"
        assert date_format(MOMENT, "SHORT_DATETIME_FORMAT") == "7 Dec 2026, 04:52"
        assert date_format(MOMENT, "DATE_FORMAT") == "7 Dec 2026"
        assert date_format(MOMENT, "SHORT_DATE_FORMAT") == "7 Dec 2026"
        assert time_format(MOMENT, "TIME_FORMAT") == "04:52"


def test_the_templates_use_the_formats_with_the_months_name():
    """One format everywhere: DATETIME_FORMAT or DATE_FORMAT, never the numeric short ones."""
    used = set()
    for path in TEMPLATES.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert "SHORT_DATE" not in text, path
        used |= set(re.findall(r'\|date:"(\w+)"', text))
    assert used == {"DATETIME_FORMAT", "DATE_FORMAT"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "ended", "due"),
    [
        ("en", "This session ended on 7 Dec 2026, 04:52.", "7 Jan 2027"),
        ("fr", "Cette séance s'est terminée le 7 décembre 2026 04:52.", "7 janvier 2027"),
    ],
)
@pytest.mark.usefixtures("fresh_translations")
def test_the_session_page_and_the_class_page_say_unambiguous_dates(
    django_user_model, settings, language, ended, due
):
    settings.TIME_ZONE = "UTC"
    settings.RETENTION_DAYS = 31
    teacher = django_user_model.objects.create_user(username="dates", password="x-Pass-9876")
    school_class = actions.do_create_class(teacher, "5D")
    session = actions.do_create_session(
        school_class,
        game="data_tycoon",
        variant="standard",
        language="en",
        table_size=3,
        bots_fill=True,
    )
    actions.do_end_session(session)
    ClassSession.objects.filter(pk=session.pk).update(created_at=MOMENT, ended_at=MOMENT)
    client = Client()
    client.force_login(teacher)
    header = {"HTTP_ACCEPT_LANGUAGE": language}
    page = unescape(
        client.get(
            reverse("classroom:session_detail", args=[session.pk]), **header
        ).content.decode()
    )
    assert ended in page
    assert due in page  # when the student data goes
    assert "12/07/2026" not in page and "07/12/2026" not in page
    listing = unescape(
        client.get(
            reverse("classroom:class_detail", args=[school_class.pk]), **header
        ).content.decode()
    )
    assert date_in(language) in listing


def date_in(language: str) -> str:
    return {"en": "7 Dec 2026, 04:52", "fr": "7 décembre 2026 04:52"}[language]
