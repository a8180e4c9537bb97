"""Join codes: alphabet without look-alikes, normalization, uniqueness among open sessions."""

import pytest
from django.db import IntegrityError, transaction

from classroom import codes
from classroom.actions import do_end_session
from classroom.models import ClassSession
from tests.classroom.conftest import open_session


def test_alphabet_has_no_look_alikes():
    for char in "0O1IL":
        assert char not in codes.ALPHABET
    assert len(set(codes.ALPHABET)) == len(codes.ALPHABET)


def test_generated_codes_use_the_alphabet():
    for _ in range(500):
        code = codes.generate_code()
        assert len(code) == 6
        assert set(code) <= set(codes.ALPHABET)
        assert codes.is_well_formed(code)


def test_a_code_shown_to_a_class_spells_no_word():
    """No vowel, no digit read as one, none of the refused groups: 2,000 codes drawn
    from the typed alphabet would hold a refused group about 400 times."""
    drawn = [codes.generate_code() for _ in range(2000)]
    assert not [code for code in drawn if set(code) & set("AEUY34")]
    assert not [code for code in drawn if codes.spells_a_refused_group(code)]
    assert len(codes.refused_groups()) > 20


@pytest.mark.parametrize(
    ("code", "refused"),
    [("FCKBNV", True), ("BXK5SQ", True), ("QW7FNJ", True), ("QW7KNJ", False), ("2H88QZ", True)],
)
def test_the_refused_groups_are_found_anywhere_five_read_as_s(code, refused):
    assert codes.spells_a_refused_group(code) is refused


def test_a_code_drawn_before_the_vowels_were_left_out_is_still_typed():
    assert codes.is_well_formed("FACE42")


def test_normalize_code():
    assert codes.normalize_code(" ab c-d e\tf ") == "ABCDEF"
    assert not codes.is_well_formed("ABC0EF")
    assert not codes.is_well_formed("ABCDE")


@pytest.mark.django_db
def test_new_code_avoids_open_sessions_only(school_class, monkeypatch):
    first = open_session(school_class)
    taken = first.join_code
    sequence = iter([taken, taken, "HJK234"])
    monkeypatch.setattr(codes, "generate_code", lambda: next(sequence))
    assert codes.new_open_session_code() == "HJK234"
    # once the session is finished, its code may be handed out again
    do_end_session(first)
    monkeypatch.setattr(codes, "generate_code", lambda: taken)
    second = open_session(school_class)
    assert second.join_code == taken


@pytest.mark.django_db
def test_database_refuses_two_open_sessions_with_one_code(school_class):
    first = open_session(school_class)
    with pytest.raises(IntegrityError), transaction.atomic():
        ClassSession.objects.create(
            school_class=school_class,
            game="g",
            variant="v",
            language="en",
            table_size=2,
            join_code=first.join_code,
        )
