"""The main pages in es, fr and ru leave no English on the screen.

Each page is rendered in English and in the other language (the language cookie, as
the language switch sets it: a student's pages follow it over the session's language)
from the same data; a visible text of the translated page (a text node, or the words
a screen reader or a tooltip gives: aria-label, title, alt, placeholder) that is
identical to one of the English page is English left over, unless it holds no letter
(numbers, codes, punctuation), is a name of the data (nicknames, the class, the
teacher) or is on the allow-list of words that are the same in both languages.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from classroom import actions
from classroom.identity import new_device_id, set_student_cookie
from classroom.models import ClassSession, Participant, Seat
from debrief import data, render
from tests.debrief.recorded import record_session
from tests.i18n.test_catalogues import compiled_catalogues, fresh_translations  # noqa: F401

LANGUAGES = ["es", "fr", "ru"]
# The same in English and in the other languages: the games' and cards' own names,
# the languages named in themselves (the language switch), and a few loan words.
SAME_EVERYWHERE = {
    "Data-Tycoon",
    "Conspiranoia",
    "Data Monsters",
    "OK",
    "Bot",
    "English",
    "Español",
    "Français",
    "Русский",
    "CSV",
    "JSON",
    "PDF",
    "DATABREACH",
    "DATA!",  # the Data-Tycoon call, said in English in the rule book
}
# Words spelled as in English in one language.
SAME_IN = {
    "es": {"no", "Expert", "Bots"},
    "fr": {
        "Actions",
        "Article",
        "Articles",
        "Bots",
        "Classes",
        "Date",
        "Expert",
        "Experts",
        "minutes",
        "Question",
        "Quiz",
        "Sanction",
        "Score",
        "Standard",
        "Table",
        "Tables",
    },
    "ru": set(),
}
NAMES = {"Teacher-i18n", "Class", "3C", "Ana", "Ben", "Cleo"}
# A join code, a URL, a GDPR article's number: the same in every language.
NOT_WORDS = re.compile(r"[A-Z0-9]{6}|https?://\S+|\(?[0-9][0-9()a-z, ]*\)?")
VISIBLE_ATTRIBUTES = ("aria-label", "title", "alt", "placeholder")
HIDDEN_ELEMENTS = {"script", "style", "template"}
LETTER = re.compile(r"[^\W\d_]")


class VisibleText(HTMLParser):
    """Collect a page's visible texts: text nodes and the attributes people read."""

    def __init__(self):
        super().__init__()
        self.texts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in HIDDEN_ELEMENTS:
            self.hidden += 1
        for name, value in attrs:
            if name in VISIBLE_ATTRIBUTES and value:
                self.texts.append(" ".join(value.split()))

    def handle_endtag(self, tag):
        if tag in HIDDEN_ELEMENTS and self.hidden:
            self.hidden -= 1

    def handle_data(self, text):
        text = " ".join(text.split())
        if text and not self.hidden:
            self.texts.append(text)


def visible_texts(html: str) -> list[str]:
    parser = VisibleText()
    parser.feed(html)
    return parser.texts


def is_english_left(text: str, english: set[str], allowed: set[str]) -> bool:
    """Whether ``text`` of a translated page is English left over (see the module's doc)."""
    if text not in english or not LETTER.search(text) or NOT_WORDS.fullmatch(text):
        return False
    words = {
        word
        for word in re.split(r"[\s·,:;()/!?]+", text)
        if LETTER.search(word) and not NOT_WORDS.fullmatch(word)
    }
    return not (text in SAME_EVERYWHERE or words <= allowed)


def allowed_words(language: str, names: set[str]) -> set[str]:
    return NAMES | names | SAME_EVERYWHERE | SAME_IN[language]


def get(client: Client, url: str, language: str) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def student(session: ClassSession, nickname: str) -> Client:
    """A client holding the student's place (the seat cookie), on their own device."""
    participant = actions.do_join_session(session, nickname, new_device_id())
    assert isinstance(participant, Participant)  # no approval asked: a seat at once
    client = Client()
    response = Client().get("/")
    set_student_cookie(response, participant)
    for name, morsel in response.cookies.items():
        client.cookies[name] = morsel.value
    return client


@pytest.fixture
def pages(django_user_model):
    """Return {page name: (client, url)} for every main page, and the debrief report."""
    teacher = django_user_model.objects.create_user(username="Teacher-i18n", password="x-Pass-9")
    school_class = actions.do_create_class(teacher, "Class 3C")
    waiting = actions.do_create_session(
        school_class,
        game="data_tycoon",
        variant="standard",
        language="en",
        table_size=4,
        bots_fill=True,
    )
    playing = actions.do_create_session(
        school_class,
        game="data_tycoon",
        variant="standard",
        language="en",
        table_size=2,
        bots_fill=True,
    )
    lobby_student = student(waiting, "Cleo")
    play_student = student(playing, "Ana")
    student(playing, "Ben")
    actions.do_start_session(playing)
    assert Seat.objects.filter(table__session=playing, participant__isnull=False).count() == 2
    teacher_client = Client()
    teacher_client.force_login(teacher)
    return {
        "home": (Client(), reverse("home")),
        "login": (Client(), reverse("login")),
        "join": (Client(), reverse("classroom:join")),
        "join with a code": (Client(), reverse("classroom:join_code", args=[waiting.join_code])),
        "lobby": (lobby_student, reverse("classroom:lobby", args=[waiting.join_code])),
        "play": (play_student, reverse("live:play", args=[playing.join_code])),
        "dashboard": (teacher_client, reverse("classroom:dashboard")),
        "class page": (teacher_client, reverse("classroom:class_detail", args=[school_class.pk])),
        "session form": (
            teacher_client,
            reverse("classroom:session_create", args=[school_class.pk]),
        ),
        "session page": (teacher_client, reverse("classroom:session_detail", args=[playing.pk])),
        "live tables": (teacher_client, reverse("live:session_live", args=[playing.pk])),
        "debrief page": (teacher_client, reverse("debrief:session", args=[playing.pk])),
    }


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_main_pages_leave_no_english(fresh_translations, pages, language):  # noqa: F811
    assert pages
    left = {}
    for name, (client, url) in pages.items():
        english = set(visible_texts(get(client, url, "en")))
        translated = get(client, url, language)
        assert f'<html lang="{language}"' in translated, name
        allowed = allowed_words(language, set())
        found = sorted(
            {t for t in visible_texts(translated) if is_english_left(t, english, allowed)}
        )
        if found:
            left[name] = found
    assert not left, f"English left on the {language} pages: {left}"


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_debrief_report_leaves_no_english(fresh_translations, django_user_model, language):  # noqa: F811
    teacher = django_user_model.objects.create_user(username="Teacher-i18n", password="x-Pass-9")
    session = record_session(teacher, students=4, table_size=4, language="en", seed=3)
    html = {}
    for code in ("en", language):
        # the report is in the session's language
        session.language = code
        session.save(update_fields=["language"])
        with translation.override(code):
            html[code] = render.render_html(data.build(session))
    english = set(visible_texts(html["en"]))
    assert english
    names = {session.school_class.name, *session.participants.values_list("nickname", flat=True)}
    allowed = allowed_words(language, {word for name in names for word in name.split()})
    texts = visible_texts(html[language])
    assert texts
    found = sorted({t for t in texts if is_english_left(t, english, allowed)})
    assert not found, f"English left on the {language} report: {found}"
