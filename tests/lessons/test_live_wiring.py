"""How the teacher drives lessons in live play: the lesson mode
chosen at launch and on the dashboard, ending a lesson pause from the dashboard, and the
dashboard's count of finished quizzes."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from classroom import actions
from classroom.identity import new_device_id
from classroom.models import Participant, Table
from games.models import Match
from games.registry import get_game
from lessons.actions import do_answer, do_set_lesson_mode, draw_quiz, lesson_mode
from lessons.links import kept_links
from lessons.models import Lesson, LessonMoment, LessonOverride, SessionLessonMode
from lessons.moments import forget_kept_cards, forget_kept_modes, forget_seen, lesson_moments
from lessons.texts import LessonGone
from live import messages, scheduling, write
from tests.lessons.conftest import PASSWORD
from tests.live.test_lessons_live import sanction_table


def logged_in(teacher):
    client = Client()
    response = client.post(reverse("login"), {"username": teacher.username, "password": PASSWORD})
    assert response.status_code == 302
    return client


def launch(client, school_class, **extra):
    data = {
        "game": "data_tycoon",
        "variant": "standard",
        "language": "en",
        "table_size": 2,
        **extra,
    }
    return client.post(reverse("classroom:session_create", args=[school_class.pk]), data)


@pytest.mark.django_db
def test_the_teacher_chooses_the_lesson_mode_when_launching(teacher_a):
    client = logged_in(teacher_a)
    school_class = actions.do_create_class(teacher_a, "2B")
    form = client.get(reverse("classroom:session_create", args=[school_class.pk]))
    assert 'name="lesson_mode"' in form.content.decode()
    assert launch(client, school_class, lesson_mode="pause").status_code == 302
    assert lesson_mode(school_class.sessions.get()) == "pause"
    other = actions.do_create_class(teacher_a, "2C")
    assert launch(client, other).status_code == 302  # not given: lesson cards show
    assert lesson_mode(other.sessions.get()) == "show"
    third = actions.do_create_class(teacher_a, "2D")
    assert launch(client, third, lesson_mode="loud").status_code == 200
    assert not third.sessions.exists()


@pytest.mark.django_db(transaction=True)
def test_the_dashboard_sets_the_mode_and_ends_a_lesson_pause(teacher_a):
    school_class = actions.do_create_class(teacher_a, "3C")
    session, table, card, _people = sanction_table(school_class, "pause")
    client = logged_in(teacher_a)
    dashboard = reverse("live:session_live", args=[session.pk])
    page = client.get(dashboard).content.decode()
    assert "GDPR lessons" in page
    assert 'name="mode" value="pause" form="lesson-mode-form" checked' in page  # a radio

    write.act(table.match_id, 0, {"type": "attack", "card": card, "target": 1}, 0)
    assert Match.objects.get(pk=table.match_id).status == Match.Status.PAUSED
    assert LessonMoment.objects.filter(session=session, lesson__slug="sanctions").count() == 2
    page = client.get(dashboard).content.decode()
    assert "Lesson pause: Sanctions" in page and "still reading: Ana, Ben" in page

    mode_url = reverse("lessons:session_mode", args=[session.pk])
    response = client.post(mode_url, {"dismiss": table.pk, "next": dashboard})
    assert response.status_code == 302 and response["Location"] == dashboard
    assert messages.lesson_pause(table.match_id) is None
    assert Match.objects.get(pk=table.match_id).status == Match.Status.RUNNING
    assert "Lesson pause" not in client.get(dashboard).content.decode()

    response = client.post(mode_url, {"mode": "off", "next": "https://example.com/"})
    assert response["Location"] == reverse("lessons:session_results", args=[session.pk])
    assert lesson_mode(session) == "off"


@pytest.mark.django_db(transaction=True)
def test_leaving_the_pause_mode_ends_the_lesson_pauses_but_not_the_teachers(teacher_a, monkeypatch):
    monkeypatch.setattr(scheduling, "send_task", lambda *args, **kwargs: None)
    school_class = actions.do_create_class(teacher_a, "3D")
    session, table, card, _people = sanction_table(school_class, "pause")
    write.act(table.match_id, 0, {"type": "attack", "card": card, "target": 1}, 0)
    actions.do_set_table_paused(table, True)
    match = Match.objects.get(pk=table.match_id)
    assert sorted(match.holds.values_list("kind", flat=True)) == ["lesson", "table"]

    mode_url = reverse("lessons:session_mode", args=[session.pk])
    assert logged_in(teacher_a).post(mode_url, {"mode": "show"}).status_code == 302
    assert messages.lesson_pause(table.match_id) is None
    assert list(match.holds.values_list("kind", flat=True)) == ["table"]
    assert Match.objects.get(pk=table.match_id).status == Match.Status.PAUSED
    actions.do_set_table_paused(table, False)
    assert Match.objects.get(pk=table.match_id).status == Match.Status.RUNNING


@pytest.mark.django_db
def test_the_dashboard_shows_who_finished_the_quiz(teacher_a):
    school_class = actions.do_create_class(teacher_a, "4D")
    session = actions.do_create_session(
        school_class,
        game="data_tycoon",
        variant="standard",
        language="en",
        table_size=2,
        bots_fill=True,
    )
    ana = actions.do_join_session(session, "Ana", new_device_id())
    assert isinstance(ana, Participant)
    actions.do_join_session(session, "Ben", new_device_id())
    actions.do_start_session(session)
    quiz = draw_quiz(session, ana, 1)
    for question in quiz.questions():
        do_answer(quiz, question, question.answer)
    page = logged_in(teacher_a).get(reverse("live:session_live", args=[session.pk]))
    html = page.content.decode()
    assert "Quiz: 1 of 2 students finished." in html
    assert reverse("lessons:session_results", args=[session.pk]) in html
    assert "Ana" in html and "finished" in html


@pytest.mark.parametrize("mode", ["show", "pause"])
@pytest.mark.django_db(transaction=True)
def test_a_lesson_this_process_kept_that_is_gone_is_read_again(teacher_a, mode):
    """In the "pause" mode the moments and the hold are one transaction, whose foreign
    keys are checked only at its COMMIT: the card's texts, read before it, are found
    missing first."""
    school_class = actions.do_create_class(teacher_a, "3E")
    session, table, card, _people = sanction_table(school_class, mode)
    attack = {"type": "attack", "seat": 0, "target": 1, "card": card, "kind": "sanction"}
    # As a server that kept the links while the content was loaded anew with new rows.
    link = kept_links("data_tycoon").event_link(attack)
    assert link is not None and link.lesson is not None
    link.lesson.pk = 10**6
    match = Match.objects.get(pk=table.match_id)
    sent = lesson_moments(match, [attack], table)
    assert [message["lesson"]["slug"] for message in sent] == ["sanctions"]
    assert sent[0]["languages"]["fr"]["title"] != sent[0]["languages"]["en"]["title"]
    moments = LessonMoment.objects.filter(session=session)
    assert list(moments.order_by("seat").values_list("seat", flat=True)) == [0, 1]
    assert {moment.lesson.slug for moment in moments} == {"sanctions"}
    assert sent[0]["moment"] in {moment.pk for moment in moments}
    link = kept_links("data_tycoon").event_link(attack)
    assert link is not None and link.lesson is not None
    assert link.lesson.pk != 10**6
    held = Match.objects.get(pk=match.pk).status == Match.Status.PAUSED
    assert (sent[0]["waiting"], held) == (([0, 1], True) if mode == "pause" else ([], False))


@pytest.mark.django_db(transaction=True)
def test_a_lesson_left_without_any_text_is_recorded_once_and_told_as_an_error(teacher_a):
    """Not a reload (the lesson's row is the same): its moments are not recorded again."""
    school_class = actions.do_create_class(teacher_a, "3E")
    session, table, card, _people = sanction_table(school_class, "show")
    attack = {"type": "attack", "seat": 0, "target": 1, "card": card, "kind": "sanction"}
    Lesson.objects.get(slug="sanctions").texts.all().delete()
    with pytest.raises(LessonGone):
        lesson_moments(Match.objects.get(pk=table.match_id), [attack], table)
    moments = LessonMoment.objects.filter(session=session)
    assert list(moments.order_by("seat").values_list("seat", flat=True)) == [0, 1]


def lesson_queries(queries: list[dict[str, str]]) -> list[str]:
    """The statements of a capture that read the lessons' texts, wordings or moments."""
    tables = ("lessons_lessontext", "lessons_lessonoverride", "lessons_lessonmoment")
    return [
        query["sql"]
        for query in queries
        if query["sql"].startswith("SELECT") and any(name in query["sql"] for name in tables)
    ]


@pytest.mark.django_db(transaction=True)
def test_a_lesson_card_is_built_once_per_process_and_a_wording_saved_here_is_used_at_once(
    teacher_a, settings
):
    settings.LESSON_LINKS_SECONDS = 60
    school_class = actions.do_create_class(teacher_a, "3E")
    _session, table, card, _people = sanction_table(school_class, "show")
    attack = {"type": "attack", "seat": 0, "target": 1, "card": card, "kind": "sanction"}
    match = Match.objects.get(pk=table.match_id)
    first = lesson_moments(match, [attack], table)
    shipped = first[0]["languages"]["en"]["title"]
    with CaptureQueriesContext(connection) as queries:
        again = lesson_moments(match, [attack], table)
    assert again[0]["languages"] == first[0]["languages"]
    assert lesson_queries(queries.captured_queries) == []  # texts and wordings kept
    assert len(queries.captured_queries) >= 1  # the moments are still recorded

    sanctions = Lesson.objects.get(slug="sanctions")
    wording = LessonOverride.objects.create(
        teacher=teacher_a, lesson=sanctions, language="en", title="Fines, in my words"
    )
    sent = lesson_moments(match, [attack], table)
    assert sent[0]["languages"]["en"]["title"] == "Fines, in my words" != shipped
    assert sent[0]["languages"]["fr"] == first[0]["languages"]["fr"]
    # A change that sends no signal, as another process's looks to this one: used once
    # the kept card expires.
    LessonOverride.objects.filter(pk=wording.pk).update(title="Fines, said again")
    assert lesson_moments(match, [attack], table)[0]["languages"]["en"]["title"] == (
        "Fines, in my words"
    )
    settings.LESSON_LINKS_SECONDS = 0
    forget_kept_cards()
    lesson_moments(match, [attack], table)  # built now, expired at once
    assert lesson_moments(match, [attack], table)[0]["languages"]["en"]["title"] == (
        "Fines, said again"
    )


def mode_queries(queries: list[dict[str, str]]) -> list[str]:
    return [query["sql"] for query in queries if "lessons_sessionlessonmode" in query["sql"]]


@pytest.mark.django_db(transaction=True)
def test_a_session_lesson_mode_is_read_once_per_process_and_a_mode_saved_here_is_used_at_once(
    teacher_a, settings
):
    settings.LESSON_MODE_SECONDS = 60
    school_class = actions.do_create_class(teacher_a, "3E")
    session, table, card, _people = sanction_table(school_class, "show")
    attack = {"type": "attack", "seat": 0, "target": 1, "card": card, "kind": "sanction"}
    match = Match.objects.get(pk=table.match_id)
    with CaptureQueriesContext(connection) as queries:
        assert lesson_moments(match, [attack], table)
    assert len(mode_queries(queries.captured_queries)) == 1
    with CaptureQueriesContext(connection) as queries:
        assert lesson_moments(match, [attack], table)
    assert mode_queries(queries.captured_queries) == []  # kept

    do_set_lesson_mode(session, "off")  # the teacher's choice, saved in this process
    assert lesson_moments(match, [attack], table) == []
    # A change that sends no signal, as another process's looks to this one: used once
    # the kept mode expires.
    SessionLessonMode.objects.filter(session=session).update(mode="show")
    assert lesson_moments(match, [attack], table) == []
    settings.LESSON_MODE_SECONDS = 0
    forget_kept_modes()
    assert lesson_moments(match, [attack], table)  # read now, expired at once
    SessionLessonMode.objects.filter(session=session).update(mode="off")
    assert lesson_moments(match, [attack], table) == []


@pytest.mark.django_db(transaction=True)
def test_a_frequent_lesson_shown_at_a_table_is_not_looked_for_again(teacher_a):
    school_class = actions.do_create_class(teacher_a, "3E")
    _session, table, _card, _people = sanction_table(school_class, "show")
    other = actions.do_create_class(teacher_a, "3F")
    _session_b, table_b, _card_b, _people_b = sanction_table(other, "show")
    game = get_game("data_tycoon")
    genetic = next(c for c in game.cards("expert") if c["sign"] == "genetic")
    plain = next(c for c in game.cards("expert") if c["kind"] == "dataset" and not c["sign"])
    capture = {"type": "capture", "seat": 0, "card": plain["id"], "captured": genetic["id"]}
    match = Match.objects.get(pk=table.match_id)

    def slugs(at: Table) -> list[str]:
        return [message["lesson"]["slug"] for message in lesson_moments(match, [capture], at)]

    with CaptureQueriesContext(connection) as queries:
        assert slugs(table) == ["genetic-data"]
    assert any("lessons_lessonmoment" in sql for sql in lesson_queries(queries.captured_queries))
    with CaptureQueriesContext(connection) as queries:
        assert "genetic-data" not in slugs(table)  # once per table
    assert lesson_queries(queries.captured_queries) == []
    # Another table, and the same table as another process sees it: read from the moments.
    assert slugs(table_b) == ["genetic-data"]
    forget_seen()
    with CaptureQueriesContext(connection) as queries:
        assert "genetic-data" not in slugs(table)
    assert len(lesson_queries(queries.captured_queries)) == 1
