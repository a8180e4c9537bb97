"""The deck builder: a teacher builds, checks, saves, renames and deletes decks for a game
with deck building; each broken deck-building rule is refused with its own message; the
session form offers the teacher's own decks (no one else's) and a match deals them."""

from collections import Counter

import pytest
from django.urls import reverse
from django.utils.html import escape

from classroom import actions, catalogue
from classroom.models import ClassSession, Deck
from games.data_monsters.rules import State as DataMonstersState
from games.matches import load_state
from games.registry import get_game

pytestmark = pytest.mark.django_db

SLUG = "data_monsters"
GAME = get_game(SLUG)
STARTUP = GAME.starter_decks()["startup"]["cards"]
NAMES = {card["key"]: card["name"] for card in GAME.deck_catalogue()}


def counts(keys):
    """Return the deck form's card fields for a deck of ``keys`` (every card, 0 or more)."""
    data = {f"card__{key}": "0" for key in NAMES}
    for key, count in Counter(keys).items():
        data[f"card__{key}"] = str(count)
    return data


def create_url():
    return reverse("classroom:deck_create", args=[SLUG])


def save(client, keys, name="My deck", url=None, **headers):
    return client.post(url or create_url(), {"name": name, **counts(keys)}, **headers)


# Each deck-building rule, a deck that breaks only it, and its message in English and in
# French (the card names come from the game's fixture, in every language).
RULES = {
    "too_few": (STARTUP[:19], "A deck needs at least 20 cards.", "au moins 20 cartes"),
    "too_many": (
        [*STARTUP, "junior_lambert", "junior_lambert", "sql_query", "sql_query", "sql_query"],
        "A deck holds at most 30 cards.",
        "au plus 30 cartes",
    ),
    "copies": (
        [*STARTUP, "ab_test"],
        "At most 2 copies of A/B Test (this deck has 3).",
        NAMES["ab_test"]["fr"],
    ),
    "one": (
        [*STARTUP, "chief_krol"],
        'Chief Krol is a "one" card: at most 1 copy (this deck has 2).',
        NAMES["chief_krol"]["fr"],
    ),
    "many": (
        [*STARTUP, "python_script"],
        "Python Script says how many: at most 3 copies (this deck has 4).",
        NAMES["python_script"]["fr"],
    ),
}


def test_the_deck_builder_lists_the_game_and_its_starter_sets(client_a):
    body = client_a.get(reverse("classroom:deck_list")).content.decode()
    assert escape(GAME.name["en"]) in body
    assert f"{create_url()}?start=startup" in body
    assert f"{create_url()}?start=enterprise" in body
    dashboard = client_a.get(reverse("classroom:dashboard")).content.decode()
    assert reverse("classroom:deck_list") in dashboard


def test_a_deck_starts_from_a_starter_set(client_a):
    body = client_a.get(f"{create_url()}?start=startup").content.decode()
    assert 'name="card__junior_krol" value="2"' in body
    assert 'name="card__python_script" value="3"' in body
    assert 'name="card__junior_lambert" value="0"' in body


def test_a_deck_that_keeps_the_rules_is_saved_for_its_teacher(client_a, teacher_a):
    response = save(client_a, STARTUP, name="Startup, my way")
    assert response.status_code == 302
    deck = Deck.objects.get()
    assert (deck.teacher, deck.game, deck.name) == (teacher_a, SLUG, "Startup, my way")
    assert Counter(deck.cards) == Counter(STARTUP)


@pytest.mark.parametrize("rule", list(RULES))
def test_every_broken_rule_is_refused_with_its_message_and_nothing_is_lost(client_a, rule):
    keys, english, _french = RULES[rule]
    response = save(client_a, keys, name="Almost a deck")
    assert response.status_code == 200
    assert not Deck.objects.exists()
    body = response.content.decode()
    assert body.count(escape(english)) == 1  # in the check beside the cards, not twice
    assert "This deck cannot be saved yet:" in body
    # what the teacher typed comes back: the name and every count
    assert 'value="Almost a deck"' in body
    for key, count in Counter(keys).items():
        assert f'name="card__{key}" value="{count}"' in body


@pytest.mark.parametrize("rule", list(RULES))
def test_every_broken_rule_is_refused_in_french_too(client_a, rule):
    keys, english, french = RULES[rule]
    response = save(client_a, keys, HTTP_ACCEPT_LANGUAGE="fr")
    assert not Deck.objects.exists()
    body = response.content.decode()
    assert '<html lang="fr"' in body
    assert escape(french) in body
    assert escape(english) not in body


def test_the_live_check_names_each_broken_rule(client_a):
    url = reverse("classroom:deck_check", args=[SLUG])
    keys = [*STARTUP[:19], "chief_krol"]  # the Startup set holds one already
    body = client_a.post(url, {"name": "", **counts(keys)}).content.decode()
    assert "20 cards in the deck" in body
    assert escape('Chief Krol is a "one" card: at most 1 copy (this deck has 2).') in body
    assert "A deck needs at least 20 cards." not in body  # 20 cards: enough
    good = client_a.post(url, {"name": "", **counts(STARTUP)}).content.decode()
    assert "This deck keeps every deck-building rule." in good
    assert client_a.get(url).status_code == 405


@pytest.mark.parametrize("number", ["-1", "two", "100"])
def test_a_refused_number_is_told_before_the_decks_rules(client_a, number):
    url = reverse("classroom:deck_check", args=[SLUG])
    wrong = {"name": "", **counts(STARTUP), "card__chief_krol": number}
    for body in (
        client_a.post(url, wrong).content.decode(),
        client_a.post(create_url(), {**wrong, "name": "My deck"}).content.decode(),
    ):
        assert "A number below is not right: correct it to count the deck." in body
        assert "This deck keeps every deck-building rule." not in body
        assert "cards in the deck" not in body
    assert not Deck.objects.exists()


def test_a_deck_is_renamed_changed_and_deleted(client_a, teacher_a):
    save(client_a, STARTUP, name="First")
    deck = Deck.objects.get()
    edit = reverse("classroom:deck_edit", args=[deck.pk])
    body = client_a.get(edit).content.decode()
    assert 'value="First"' in body and 'name="card__junior_krol" value="2"' in body
    changed = [*STARTUP[:-1], "chief_lambert"]
    assert save(client_a, changed, name="Second", url=edit).status_code == 302
    deck.refresh_from_db()
    assert deck.name == "Second" and Counter(deck.cards) == Counter(changed)
    assert Deck.objects.count() == 1
    delete = reverse("classroom:deck_delete", args=[deck.pk])
    assert client_a.get(delete).status_code == 200
    assert Deck.objects.exists()  # a GET only asks
    assert client_a.post(delete).status_code == 302
    assert not Deck.objects.exists()


def test_another_teacher_can_neither_see_nor_change_nor_delete_a_deck(client_a, client_b):
    save(client_a, STARTUP, name="Secret plan")
    deck = Deck.objects.get()
    assert "Secret plan" not in client_b.get(reverse("classroom:deck_list")).content.decode()
    edit = reverse("classroom:deck_edit", args=[deck.pk])
    assert client_b.get(edit).status_code == 404
    assert save(client_b, STARTUP, name="Mine now", url=edit).status_code == 404
    assert client_b.post(reverse("classroom:deck_delete", args=[deck.pk])).status_code == 404
    deck.refresh_from_db()
    assert deck.name == "Secret plan"


def test_the_deck_builder_needs_a_login_and_a_game_with_deck_building(client, client_a):
    login = reverse("login")
    assert client.get(reverse("classroom:deck_list"))["Location"].startswith(login)
    assert client.get(create_url())["Location"].startswith(login)
    assert save(client, STARTUP)["Location"].startswith(login)
    check = reverse("classroom:deck_check", args=[SLUG])
    assert client.post(check, counts(STARTUP))["Location"].startswith(login)
    assert not Deck.objects.exists()
    assert client_a.get(reverse("classroom:deck_create", args=["no_such_game"])).status_code == 404


# ----------------------------------------------------------- the session form


@pytest.fixture
def offered(monkeypatch):
    """Offer the game with deck building on the session form (its board may not exist)."""
    monkeypatch.setattr(catalogue, "available_games", lambda: [GAME])


def launch(client, school_class, **fields):
    data = {
        "game": SLUG,
        "variant": "standard",
        "language": "en",
        "table_size": "2",
        "bots_fill": "on",
        **fields,
    }
    return client.post(reverse("classroom:session_create", args=[school_class.pk]), data)


DECK_FIELD = f"option__{SLUG}__{GAME.deck_option}"


def test_a_session_plays_the_teachers_deck(offered, client_a, school_class):
    mixed = [*STARTUP[:-2], "chief_lambert", "sql_query"]
    save(client_a, mixed, name="Mixed")
    deck = Deck.objects.get()
    form = client_a.get(reverse("classroom:session_create", args=[school_class.pk]))
    body = form.content.decode()
    assert f'name="option__{SLUG}__decks"' in body  # the starter sets are still offered
    assert f'<option value="{deck.pk}">Mixed</option>' in body
    response = launch(client_a, school_class, **{DECK_FIELD: str(deck.pk)})
    assert response.status_code == 302, response.content.decode()[:3000]
    session = ClassSession.objects.get()
    assert session.options[GAME.deck_option] == [deck.cards]
    deck.delete()  # the session keeps its own copy of the cards
    session.participants.create(nickname="Ana", nickname_key="ana", device_id="d" * 32)
    actions.do_start_session(session)
    state = load_state(session.tables.get().match)
    assert isinstance(state, DataMonstersState)
    assert state.n == 2
    for seat in range(2):
        held = state.decks[state.pile[seat]] + state.hands[seat]
        assert Counter(c.split("-", 1)[1].rsplit("-", 1)[0] for c in held) == Counter(mixed)


def test_without_a_chosen_deck_the_starter_sets_are_played(offered, client_a, school_class):
    save(client_a, STARTUP, name="Unused")
    response = launch(client_a, school_class, **{f"option__{SLUG}__decks": "startup"})
    assert response.status_code == 302
    assert ClassSession.objects.get().options == {"decks": "startup"}


def test_another_teachers_deck_cannot_be_chosen(offered, client_a, client_b, teacher_b):
    save(client_a, STARTUP, name="Secret plan")
    deck = Deck.objects.get()
    other_class = actions.do_create_class(teacher_b, "6C")
    url = reverse("classroom:session_create", args=[other_class.pk])
    assert "Secret plan" not in client_b.get(url).content.decode()
    response = launch(client_b, other_class, **{DECK_FIELD: str(deck.pk)})
    assert response.status_code == 200
    assert not ClassSession.objects.exists()
    assert "Select a valid choice" in response.content.decode()


def test_a_variant_that_takes_no_built_deck_refuses_it(offered, client_a, school_class):
    save(client_a, STARTUP, name="Office deck")
    deck = Deck.objects.get()
    response = launch(client_a, school_class, variant="office", **{DECK_FIELD: str(deck.pk)})
    assert response.status_code == 200
    assert not ClassSession.objects.exists()
    assert "a built deck cannot be played in it" in response.content.decode()


def test_a_teachers_decks_go_with_their_account(client_a, teacher_a):
    save(client_a, STARTUP)
    assert Deck.objects.count() == 1
    teacher_a.delete()
    assert not Deck.objects.exists()
