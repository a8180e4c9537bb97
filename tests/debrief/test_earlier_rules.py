"""A match played under rules that an upgrade changed: a logged move today's rules refuse
stops the replay (the debrief's chart and summary, the replay page), never the report or
the page, and the report says where (games.matches.replay_stored)."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from classroom.models import ClassSession
from debrief import data, render
from debrief.replay import frame
from games.matches import replay_stored
from games.models import Match, MatchAction
from tests.debrief.recorded import record_session
from tests.matches.test_unreadable_state import from_a_later_release

pytestmark = pytest.mark.django_db

# What an earlier release's rules took and today's refuse: no engine knows this move.
EARLIER_MOVE = {"type": "played under earlier rules"}


def report_in_english(session: ClassSession) -> data.Report:
    with translation.override("en"):
        built = data.build(session)
        render.draw_charts(built)
    return built


def first_match(session: ClassSession) -> Match:
    return session.tables.select_related("match").get(number=1).match


def earlier_move_at_half_time(match: Match) -> int:
    """Make the match's middle move one that today's rules refuse; return its version."""
    refused = match.version // 2
    changed = MatchAction.objects.filter(match=match, version=refused).update(action=EARLIER_MOVE)
    assert changed == 1
    return refused


@pytest.mark.parametrize(
    ("game", "variant"), [("data_tycoon", "expert"), ("data_monsters", "standard")]
)
def test_a_move_todays_rules_refuse_stops_the_replay_not_the_report(
    teacher_a: User, game: str, variant: str
) -> None:
    session = record_session(teacher_a, students=6, table_size=4, game=game, variant=variant)
    before = report_in_english(session)
    match = first_match(session)
    refused = earlier_move_at_half_time(match)
    after = report_in_english(session)
    old, new = before.tables[0], after.tables[0]
    assert old.replayed_to is None and old.replay_matches
    assert new.replayed_to == refused - 1 and not new.replay_matches
    # The events from the refused move on are those stored as the moves were played: the
    # timeline and the lessons it brings up are the game's whole.
    assert [(item.move, item.text) for item in new.timeline] == [
        (item.move, item.text) for item in old.timeline
    ]
    assert [item for item in new.timeline if item.move >= refused]
    assert new.lesson_counts == old.lesson_counts
    # The final standing is the stored game's; the chart stops before the refused move,
    # then its last point is the end.
    assert match.result is not None
    assert new.over and new.scores == old.scores == match.result["scores"]
    assert new.ranks == old.ranks and new.winners == old.winners
    assert [move for move, _scores in new.progression[:-1]] == [
        move for move, _scores in old.progression if move < refused
    ]
    assert new.progression[-1] == (match.version, old.scores)
    assert new.chart
    html = render.render_html(after)
    assert f"today's rules replay its moves up to move {refused - 1} of {match.version}" in html
    assert "earlier version of its rules" not in render.render_html(before)
    assert after.tables[1:] and all(table.replayed_to is None for table in after.tables[1:])


def test_the_replay_page_stops_before_the_move_todays_rules_refuse(
    teacher_a: User, client_a: Client
) -> None:
    session = record_session(teacher_a, students=6, table_size=4)
    match = first_match(session)
    table = session.tables.get(number=1)
    refused = earlier_move_at_half_time(match)
    replayed = replay_stored(match)
    assert (replayed.reached, replayed.refused) == (refused - 1, refused)
    # Every move's page knows where today's rules stop: the slider ends there.
    before = frame(table, refused - 2, "en")
    assert (before.move, before.last, before.refused) == (refused - 2, refused - 1, refused)
    assert before.state == replay_stored(match, upto=refused - 2).state.to_json()
    stopped = frame(table, match.version, "en")
    assert (stopped.move, stopped.last, stopped.refused) == (refused - 1, refused - 1, refused)
    assert stopped.state == frame(table, refused - 1, "en").state
    url = reverse("debrief:replay", args=[session.pk, 1])
    for asked in (match.version, refused - 2):
        page = client_a.get(url, {"move": asked})
        assert page.status_code == 200
        text = page.content.decode()
        assert f"refuse its move {refused}, so the replay stops at move {refused - 1}." in text
        assert f'max="{refused - 1}"' in text
    untouched = frame(session.tables.get(number=2), 5, "en")
    assert untouched.refused is None and untouched.last == untouched_version(session)


def untouched_version(session: ClassSession) -> int:
    return session.tables.select_related("match").get(number=2).match.version


def test_a_match_whose_stored_state_is_unreadable_too_ends_its_report_at_the_replay(
    teacher_a: User,
) -> None:
    session = record_session(teacher_a, students=6, table_size=4)
    match = first_match(session)
    refused = earlier_move_at_half_time(match)
    Match.objects.filter(pk=match.pk).update(snapshot=from_a_later_release(match.snapshot))
    report = report_in_english(session)
    table = report.tables[0]
    # no stored state to end on: the report ends where today's rules stop
    assert table.replayed_to == refused - 1 and not table.over
    assert table.scores == replay_stored(match).state.scores()
    assert table.progression[-1] == (match.version, table.scores)
    assert "today's rules replay its moves up to move" in render.render_html(report)
