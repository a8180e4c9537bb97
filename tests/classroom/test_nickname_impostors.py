"""Impostors and refused words at the door: the join form and the JSON join API refuse a
nickname that looks like a taken one, hides a refused word, gives contact details or
passes for the teacher, an administrator or a bot, in the session's language; a roster
cannot list two look-alike pseudonyms, nor a bot's seat name."""

# ruff: noqa: RUF001 - look-alike letters are what these tests are about

import json

import pytest
from django.test import Client

from classroom.forms import SchoolClassForm
from classroom.models import Participant
from tests.classroom.conftest import join_client, open_session

pytestmark = pytest.mark.django_db

IMPOSTORS = ["MALLORY", "mal\u200blory", "mаllory", "ma1lory", "ｍａｌｌｏｒｙ"]


def post_json(client, body):
    return client.post("/join/", json.dumps(body), content_type="application/json")


@pytest.mark.parametrize("impostor", IMPOSTORS)
def test_the_join_form_refuses_a_lookalike_of_a_taken_nickname(session, impostor):
    join_client(session, "mallory")
    response = Client().post("/join/", {"code": session.join_code, "nickname": impostor})
    assert response.status_code == 200
    assert "already uses this nickname" in response.content.decode()
    assert list(session.participants.values_list("nickname", flat=True)) == ["mallory"]


def test_the_join_form_refuses_a_reversed_nickname_and_says_why(session):
    response = Client().post("/join/", {"code": session.join_code, "nickname": "\u202eecila"})
    assert response.status_code == 200
    assert "turn the text around" in response.content.decode()
    assert not Participant.objects.exists()


def test_the_join_form_removes_a_zero_width_space(session):
    join_client(session, "mal\u200blory")
    assert session.participants.get().nickname == "mallory"


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("fr", "Quelqu'un"),
        ("es", "apodo"),
        ("ru", "уже взял этот ник"),
    ],
)
def test_the_json_api_refuses_an_impostor_in_the_sessions_language(school_class, language, message):
    session = open_session(school_class, language=language)
    assert (
        post_json(Client(), {"code": session.join_code, "nickname": "mallory"}).status_code == 201
    )
    response = post_json(Client(), {"code": session.join_code, "nickname": "mаllory"})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "nickname_taken"
    assert message in error["message"]
    assert session.participants.count() == 1


def test_the_json_api_refuses_a_disguised_refused_word_in_the_sessions_language(school_class):
    session = open_session(school_class, language="ru")
    response = post_json(Client(), {"code": session.join_code, "nickname": "Ѕh1t Head"})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error == {"code": "bad_nickname", "message": "Этот ник не разрешён. Выбери дружелюбный."}
    assert not Participant.objects.exists()


@pytest.mark.parametrize(
    ("nickname", "reason"),
    [
        ("Fuuuck", "not allowed"),
        ("0612345678", "phone number"),
        ("ana@mail.ru", "e-mail"),
        ("Teacher", "the teacher"),
        ("Admin", "an administrator"),
        ("Bot 1", "a bot"),
    ],
)
def test_the_json_api_refuses_stretched_words_contact_details_and_impostors(
    session, nickname, reason
):
    response = post_json(Client(), {"code": session.join_code, "nickname": nickname})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "bad_nickname" and reason in error["message"]
    assert not Participant.objects.exists()


def test_the_json_api_refuses_a_russian_bots_seat_name(school_class):
    session = open_session(school_class, language="ru")
    response = post_json(Client(), {"code": session.join_code, "nickname": "Бот 2"})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "bad_nickname" and error["message"]
    assert not Participant.objects.exists()


@pytest.mark.parametrize("raw", ["\u202eecila", "a\x1bb", "\u200b\u200b\u200b", "Jo\ue000"])
def test_the_json_api_refuses_invisible_and_control_characters(session, raw):
    response = post_json(Client(), {"code": session.join_code, "nickname": raw})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "bad_nickname" and error["message"]
    assert not Participant.objects.exists()


def test_the_json_api_answers_the_normalized_nickname(session):
    response = post_json(Client(), {"code": session.join_code, "nickname": " 𝐌𝐚𝐥\u200b𝐥𝐨𝐫𝐲 "})
    assert response.status_code == 201
    assert response.json()["nickname"] == "Mallory"
    participant = session.participants.get()
    assert participant.nickname == "Mallory" and participant.nickname_key == "rnallory"


def test_a_roster_cannot_list_a_bots_seat_name_or_a_phone_number():
    form = SchoolClassForm({"name": "4A", "roster": "Blue Fox\nBot 2\n06 12 34 56 78"})
    assert not form.is_valid()
    errors = " ".join(map(str, form.errors["roster"]))  # its messages (strings)
    assert "«Bot 2»" in errors and "«06 12 34 56 78»" in errors and "Blue Fox" not in errors


def test_a_roster_cannot_list_two_lookalike_pseudonyms():
    form = SchoolClassForm({"name": "4A", "roster": "Mallory\nMаllory\nBlue Fox"})
    assert not form.is_valid()
    assert "listed twice" in " ".join(map(str, form.errors["roster"]))


def test_the_join_form_refuses_an_impostor_in_the_sessions_language(school_class):
    session = open_session(school_class, language="fr")
    join_client(session, "Mallory")
    response = Client().post("/join/", {"code": session.join_code, "nickname": "Mаllory"})
    assert response.status_code == 200
    assert response["Content-Language"] == "fr"
    assert "utilise déjà ce pseudo dans cette séance" in response.content.decode()
    assert session.participants.count() == 1
