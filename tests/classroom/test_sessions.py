"""Sessions: the launch form with and without games, the QR code, the state machine."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from classroom import actions, catalogue
from classroom.models import ClassSession
from classroom.qr import qr_svg
from games.matches import load_state
from tests.classroom.conftest import join_client

pytestmark = pytest.mark.django_db


def create_url(school_class):
    return reverse("classroom:session_create", args=[school_class.pk])


def launch(client, school_class, **overrides):
    data = {
        "game": "fake_game",
        "variant": "short",
        "language": "fr",
        "table_size": "3",
        "bots_fill": "on",
    }
    data.update(overrides)
    return client.post(create_url(school_class), data)


def test_form_says_no_game_is_available(client_a, school_class, no_game):
    response = client_a.get(create_url(school_class))
    assert response.status_code == 200
    assert "No game is available yet" in response.content.decode()
    response = launch(client_a, school_class)
    assert response.status_code == 200
    assert not ClassSession.objects.exists()


def test_catalogue_reads_the_real_registry():
    registry = pytest.importorskip("games.registry")
    offered = [g.slug for g in registry.all_games() if g.in_class]
    assert offered
    assert [g.slug for g in catalogue.available_games()] == offered


def test_a_game_without_its_board_is_not_offered(client_a, school_class, monkeypatch):
    """A registered game whose browser board does not exist yet (``in_class`` False)
    is left off the session form, and a launch naming it is refused."""
    registry = pytest.importorskip("games.registry")
    games = registry.all_games()
    assert len(games) >= 2
    # Every registered game has its board now: one of them plays the game without one.
    monkeypatch.setattr(type(games[-1]), "in_class", False)
    hidden = [g for g in registry.all_games() if not g.in_class]
    assert hidden, "no registered game is kept off the session form"
    offered = {g.slug for g in catalogue.available_games()}
    page = client_a.get(create_url(school_class)).content.decode()
    for game in hidden:
        assert game.slug not in offered
        assert catalogue.find_game(game.slug) is None
        assert f'value="{game.slug}"' not in page
        variant = game.default_variant
        response = launch(client_a, school_class, game=game.slug, variant=variant)
        assert response.status_code == 200
    assert not ClassSession.objects.exists()


def test_form_offers_registered_games(client_a, school_class, fake_game):
    body = client_a.get(create_url(school_class)).content.decode()
    assert "Fake Game" in body and "Short" in body
    assert "No game is available yet" not in body


def test_launch_creates_a_session_in_the_lobby(client_a, school_class, fake_game):
    response = launch(client_a, school_class)
    session = ClassSession.objects.get()
    assert response.status_code == 302
    assert response["Location"] == session.get_absolute_url()
    assert (session.game, session.variant, session.language) == ("fake_game", "short", "fr")
    assert session.table_size == 3 and session.bots_fill
    assert session.state == ClassSession.State.LOBBY


def test_the_chosen_games_options_are_kept_and_the_others_dropped(client_a, school_class):
    """Each game's options are fields of their own; blank ones take the game's default."""
    body = client_a.get(create_url(school_class)).content.decode()
    assert 'name="option__conspiranoia__life_points"' in body
    assert 'name="option__data_tycoon__call_seconds"' in body
    response = launch(
        client_a,
        school_class,
        game="conspiranoia",
        variant="quick",
        option__conspiranoia__life_points="12",
        option__conspiranoia__defence_seconds="",
        option__data_tycoon__call_seconds="5",
    )
    assert response.status_code == 302
    session = ClassSession.objects.get()
    assert session.options == {"life_points": 12}
    session.participants.create(nickname="Ana", nickname_key="ana", device_id="d" * 32)
    actions.do_start_session(session)
    match = session.tables.get().match
    assert match.options == {"life_points": 12}
    assert {score["life"] for score in load_state(match).scores()} == {12}


def test_the_teacher_leaves_special_cards_out_of_the_variant(client_a, school_class):
    """The rule book lets a class play with fewer special cards, in any combination."""
    body = client_a.get(create_url(school_class)).content.decode()
    assert "<legend>Leave out these special cards" in body
    assert 'type="checkbox" name="option__data_tycoon__left_out" value="sanction"' in body
    response = client_a.post(
        create_url(school_class),
        {
            "game": "data_tycoon",
            "variant": "expert",
            "language": "en",
            "table_size": "2",
            "bots_fill": "on",
            "option__data_tycoon__left_out": ["time", "sanction"],
        },
    )
    assert response.status_code == 302
    session = ClassSession.objects.get()
    assert session.options == {"left_out": ["sanction", "time"]}  # in the book's order
    session.participants.create(nickname="Ana", nickname_key="ana", device_id="d" * 32)
    actions.do_start_session(session)
    state = load_state(session.tables.get().match)
    dealt = [card for zone in state.zones().values() for card in zone]
    kinds = {card["kind"] for card in state.game.cards("expert") if card["id"] in set(dealt)}
    assert "complaint" in kinds and not {"sanction", "time"} & kinds


def test_leaving_out_a_card_that_is_not_special_is_refused(client_a, school_class):
    response = client_a.post(
        create_url(school_class),
        {
            "game": "data_tycoon",
            "variant": "expert",
            "language": "en",
            "table_size": "2",
            "option__data_tycoon__left_out": ["dataset"],
        },
    )
    assert response.status_code == 200
    assert "dataset is not one of the available choices" in response.content.decode()
    assert not ClassSession.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("option__conspiranoia__life_points", "500", "the largest allowed here is 50"),
        ("option__conspiranoia__life_points", "many", "Type a whole number, like 4."),
    ],
)
def test_a_bad_option_is_refused_with_a_message(client_a, school_class, field, value, message):
    response = launch(client_a, school_class, game="conspiranoia", variant="", **{field: value})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not ClassSession.objects.exists()


def test_default_variant(client_a, school_class, fake_game):
    launch(client_a, school_class, variant="")
    assert ClassSession.objects.get().variant == "standard"


@pytest.mark.parametrize("size", ["1", "6", "0", "99", "-3"])
def test_table_size_within_the_games_limits(client_a, school_class, fake_game, size):
    response = launch(client_a, school_class, table_size=size)
    assert response.status_code == 200
    assert "2 to 5 players per table" in response.content.decode()  # the game's, always
    assert not ClassSession.objects.exists()


def test_a_number_field_refuses_in_the_platforms_words(client_a, school_class, fake_game):
    body = launch(client_a, school_class, table_size="four").content.decode()
    assert "Type a whole number, like 4." in body
    assert "Enter a whole number" not in body


def test_unknown_game_or_language_refused(client_a, school_class, fake_game):
    assert launch(client_a, school_class, game="chess").status_code == 200
    assert launch(client_a, school_class, language="de").status_code == 200
    assert launch(client_a, school_class, variant="nope").status_code == 200
    assert not ClassSession.objects.exists()


def test_archived_class_launches_nothing(client_a, school_class, fake_game):
    actions.do_archive_class(school_class)
    response = launch(client_a, school_class)
    assert response.status_code == 200
    assert "archived" in response.content.decode()
    assert not ClassSession.objects.exists()


def test_session_page_shows_code_qr_and_join_url(client_a, session):
    body = client_a.get(session.get_absolute_url()).content.decode()
    assert session.join_code in body
    assert "<svg" in body
    assert f"http://testserver/join/{session.join_code}/" in body
    assert 'ws-connect="/ws/session/' in body
    assert "/static/django_htmx/ext/hx-ws-2" in body
    assert "unpkg" not in body and "cdn" not in body.lower()


def test_qr_encodes_the_join_url():
    svg = str(qr_svg("http://example.org/join/ABCDEF/", title="Join"))
    assert svg.startswith("<svg") and "<title>Join</title>" in svg


def post(client: Client, name: str, session: ClassSession) -> str:
    """POST a control, follow the redirect, return the page's text."""
    response = client.post(reverse(f"classroom:{name}", args=[session.pk]), follow=True)
    return response.content.decode()


def test_state_machine_through_the_views(client_a, session):
    assert "Only a running session can be paused" in post(client_a, "session_pause", session)
    assert "Only a paused session can be resumed" in post(client_a, "session_resume", session)
    post(client_a, "session_start", session)
    session.refresh_from_db()
    assert session.state == "running" and session.started_at
    assert "Only a session in the lobby can start" in post(client_a, "session_start", session)
    post(client_a, "session_pause", session)
    session.refresh_from_db()
    assert session.state == "paused" and session.paused_at
    post(client_a, "session_resume", session)
    session.refresh_from_db()
    assert session.state == "running" and session.resumed_at
    post(client_a, "session_end", session)
    session.refresh_from_db()
    assert session.state == "finished" and session.ended_at
    assert "already ended" in post(client_a, "session_end", session)
    assert "has ended" in post(client_a, "session_lock", session)


def test_teacher_pages_follow_the_chosen_language(client_a, session):
    client_a.post(reverse("set_language"), {"language": "fr", "next": "/"})
    body = post(client_a, "session_pause", session)
    assert '<html lang="fr"' in body


def test_ending_a_session_frees_nobody_to_rejoin(session):
    join_client(session, "Sam")
    actions.do_end_session(session)
    response = Client().post("/join/", {"code": session.join_code, "nickname": "Late"})
    assert "No game is open with this code" in response.content.decode()


def test_the_form_says_what_each_variant_is_and_fills_tables_with_bots(client_a, school_class):
    page = client_a.get(create_url(school_class)).content.decode()
    games = catalogue.available_games()
    assert games
    for game in games:
        assert f'class="variant-help" data-game="{game.slug}"' in page
        for slug in game.variants:
            assert escape(game.variant_descriptions[slug]["en"]) in page, (game.slug, slug)
    bots = page.split('name="bots_fill"')[1].split(">")[0]
    assert "checked" in bots


def test_the_teacher_chooses_how_the_bots_play(client_a, school_class):
    """The level a teacher picks is stored as the game's bot kind: the bot seats are
    dealt to it, and so is a student's seat handed to a bot."""
    body = client_a.get(create_url(school_class)).content.decode()
    assert "<legend>Bots</legend>" in body
    assert 'type="radio" name="bot_level" value="friendly"' in body
    response = launch(client_a, school_class, game="data_tycoon", variant="expert", bot_level="")
    assert response.status_code == 302
    session = ClassSession.objects.get()
    assert session.bot == "heuristic"  # no choice sent: friendly
    page = client_a.get(reverse("classroom:session_detail", args=[session.pk])).content.decode()
    assert "bots: Friendly" in page
    for nickname in ("Ana", "Ben"):
        key = nickname.lower()
        session.participants.create(nickname=nickname, nickname_key=key, device_id=key * 16)
    session.table_size = 4
    session.save(update_fields=["table_size"])
    actions.do_start_session(session)
    seats = session.tables.get().seats.order_by("number")
    assert [seat.bot_kind for seat in seats] == ["", "", "heuristic", "heuristic"]
    handed = actions.do_hand_seat_to_bot(seats[0], True)
    assert handed.bot_kind == "heuristic"
    assert actions.do_hand_seat_to_bot(seats[0], False).bot_kind == ""


def test_a_strong_session_seats_the_searching_bot(client_a, school_class):
    response = launch(
        client_a, school_class, game="data_tycoon", variant="expert", bot_level="strong"
    )
    assert response.status_code == 302
    session = ClassSession.objects.get()
    assert session.bot == "search"
    page = client_a.get(reverse("classroom:session_detail", args=[session.pk])).content.decode()
    assert "bots: Strong" in page
    session.participants.create(nickname="Ana", nickname_key="ana", device_id="a" * 16)
    session.table_size = 3
    session.save(update_fields=["table_size"])
    actions.do_start_session(session)
    seats = session.tables.get().seats.order_by("number")
    assert [seat.bot_kind for seat in seats] == ["", "search", "search"]


def test_a_level_the_game_has_no_bot_for_is_refused_with_a_message(client_a, school_class):
    games = catalogue.available_games()
    assert games
    weak = [game for game in games if catalogue.bot_levels(game) == ["friendly"]]
    assert weak, "a game whose bots are all friendly"
    game = weak[0]
    response = launch(client_a, school_class, game=game.slug, variant="", bot_level="strong")
    assert response.status_code == 200
    assert "has no bot of this level yet: choose another." in response.content.decode()
    assert not ClassSession.objects.exists()
    with pytest.raises(actions.ActionRefused, match="no such bot"):
        actions.do_create_session(
            school_class, game=game.slug, variant=game.default_variant, language="en",
            table_size=2, bots_fill=True, bot="a-bot-it-does-not-have",
        )  # fmt: skip


def test_every_game_on_the_form_offers_the_friendly_bots():
    """The form's default level: a game without it could not be launched as it comes."""
    games = catalogue.available_games()
    assert games
    for game in games:
        assert "friendly" in catalogue.bot_levels(game), game.slug


def test_each_variant_names_its_game_and_another_games_is_refused(client_a, school_class):
    """The Variant list groups every game's variants, each option naming its game
    (static/js/session_form.js keeps the chosen game's); the server still refuses a
    variant of another game, sent without the script."""
    page = client_a.get(create_url(school_class)).content.decode()
    select = page.split('id="id_variant"', 1)[1].split("</select>", 1)[0]
    for game in catalogue.available_games():
        for slug in game.variants:
            assert f'<option value="{slug}" data-game="{game.slug}"' in select, (game.slug, slug)
    assert '<option value="" selected>' in select  # the default names no game
    answer = client_a.post(
        create_url(school_class),
        {
            "game": "data_thief",
            "variant": "lawyers",
            "language": "en",
            "table_size": "3",
            "bots_fill": "on",
        },
    )
    assert answer.status_code == 200
    assert "This variant does not belong to the chosen game." in answer.content.decode()
    assert not ClassSession.objects.exists()
