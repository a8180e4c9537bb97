"""Every debrief URL: the owner gets it, another teacher a 404, a visitor the login page."""

import pytest
from django.test import Client
from django.urls import get_resolver, reverse

from debrief.models import DebriefExport

SESSION_URLS = ["session", "delete_session_data"]
EXPORT_URLS = ["status", "progress"]
# The teacher's pages: every route of the debrief app but the public privacy page.
TEACHER_URLS = {*SESSION_URLS, *EXPORT_URLS, "file", "replay"}


def debrief_url_names():
    _prefix, sub = get_resolver().namespace_dict["debrief"]
    return {name for name in sub.reverse_dict if isinstance(name, str)}


def test_the_matrix_covers_every_debrief_url():
    assert debrief_url_names() == {*TEACHER_URLS, "privacy"}


def test_the_debrief_keeps_the_paths_it_had_under_lessons():
    """Teachers' bookmarks and the replay links inside exported reports still work."""
    assert reverse("debrief:session", args=[3]) == "/lessons/sessions/3/debrief/"
    assert reverse("debrief:replay", args=[3, 2]) == "/lessons/sessions/3/replay/2/"
    assert reverse("debrief:delete_session_data", args=[3]) == "/lessons/sessions/3/delete-data/"
    assert reverse("debrief:status", args=[5]) == "/lessons/debriefs/5/"
    assert reverse("debrief:progress", args=[5]) == "/lessons/debriefs/5/progress/"
    assert reverse("debrief:file", args=[5, "pdf"]) == "/lessons/debriefs/5/files/pdf/"
    assert reverse("debrief:privacy") == "/privacy/"


@pytest.fixture
def media(tmp_path, settings):
    """Keep this test's files in a temporary MEDIA_ROOT."""
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


@pytest.fixture
def world(recorded, teacher_a, client_a, client_b, media):
    export = DebriefExport.objects.create(
        session=recorded, requested_by=teacher_a, status="done", files={"csv": "debrief.csv"}
    )
    export.folder().mkdir(parents=True)
    (export.folder() / "debrief.csv").write_text("nickname\n")
    return {
        "session": recorded,
        "export": export,
        "clients": {"owner": client_a, "other_teacher": client_b, "anonymous": Client()},
    }


def urls(world):
    session, export = world["session"], world["export"]
    out = [reverse(f"debrief:{name}", args=[session.pk]) for name in SESSION_URLS]
    out += [reverse(f"debrief:{name}", args=[export.pk]) for name in EXPORT_URLS]
    out.append(reverse("debrief:file", args=[export.pk, "csv"]))
    out.append(reverse("debrief:replay", args=[session.pk, 1]))
    return out


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["other_teacher", "anonymous"])
@pytest.mark.parametrize("method", ["get", "post"])
def test_strangers_get_nothing(world, who, method):
    client = world["clients"][who]
    for url in urls(world):
        response = getattr(client, method)(url)
        if who == "other_teacher":
            assert response.status_code in (404, 405), url
            if response.status_code == 405:  # a GET on a POST-only URL: 404 on POST below
                assert client.post(url).status_code == 404, url
        else:
            assert response.status_code == 302, url
            assert response["Location"].startswith(reverse("login")), url
    # Nothing was deleted nor exported by them.
    assert world["session"].participants.count() == 10
    assert DebriefExport.objects.filter(session=world["session"]).count() == 1


@pytest.mark.django_db
def test_the_owner_gets_every_page(world):
    client = world["clients"]["owner"]
    session, export = world["session"], world["export"]
    for name in EXPORT_URLS:
        assert client.get(reverse(f"debrief:{name}", args=[export.pk])).status_code == 200
    assert client.get(reverse("debrief:session", args=[session.pk])).status_code == 200
    assert client.get(reverse("debrief:file", args=[export.pk, "csv"])).status_code == 200
    replay = reverse("debrief:replay", args=[session.pk, 1])
    assert client.get(replay).status_code == 200


@pytest.mark.django_db
def test_unknown_session_export_or_table_is_404(world):
    client = world["clients"]["owner"]
    assert client.post(reverse("debrief:session", args=[999999])).status_code == 404
    assert client.get(reverse("debrief:status", args=[999999])).status_code == 404
    export = world["export"]
    assert client.get(reverse("debrief:file", args=[export.pk, "pdf"])).status_code == 404
    assert client.get(reverse("debrief:file", args=[export.pk, "exe"])).status_code == 404
    replay = reverse("debrief:replay", args=[world["session"].pk, 99])
    assert client.get(replay).status_code == 404


@pytest.mark.django_db
def test_privacy_page_is_public_and_linked(client):
    response = client.get(reverse("debrief:privacy"))
    assert response.status_code == 200
    text = response.content.decode()
    for what in (
        "nicknames",
        "Device ids",
        "Participants",
        "Matches and action logs",
        "Lesson moments",
        "Quiz answers",
        "Debrief files",
        "Teachers' accounts",
        "Server logs",
        "30 days",
    ):
        assert what in text.replace("&#x27;", "'"), what
    assert reverse("debrief:privacy") in client.get(reverse("classroom:join")).content.decode()
    assert reverse("debrief:privacy") in client.get(reverse("home")).content.decode()
