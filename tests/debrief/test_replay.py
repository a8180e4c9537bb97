"""The teacher's replay: rebuilt from the seed and the action log, every hand shown."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from debrief.replay import frame
from games.data_monsters.rules import State as DataMonstersState
from games.data_thief.rules import State as DataThiefState
from games.data_tycoon.rules import State as DataTycoonState
from games.matches import replay_match
from games.registry import get_game
from tests.debrief.recorded import record_session


@pytest.mark.django_db
def test_replay_reaches_the_live_matchs_final_state(recorded):
    tables = list(recorded.tables.select_related("match"))
    assert len(tables) == 3
    for table in tables:
        match = table.match
        replayed = replay_match(match)
        assert replayed.to_json() == match.snapshot  # snapshot equality
        assert replayed.result() == match.result
        last = frame(table, match.version, "en")
        assert last.state == match.snapshot and last.over


@pytest.mark.django_db
def test_every_move_rebuilds_the_state_stored_with_it(recorded):
    """Replaying up to move n equals applying the first n logged actions to a fresh deal."""
    table = recorded.tables.select_related("match").first()
    match = table.match
    game = get_game(match.game)
    state = game.new_state(match.num_seats, match.seed, match.variant, match.options or None)
    entries = list(match.actions.order_by("version")[:40])
    assert len(entries) == 40
    for entry in entries:
        assert state.apply(entry.seat, entry.action) == entry.events
    assert frame(table, 40, "en").state == state.to_json()


@pytest.mark.django_db
def test_the_replay_shows_every_hand(recorded, client_a):
    table = recorded.tables.select_related("match").get(number=1)
    move = 10
    state = replay_match(table.match, upto=move)
    assert isinstance(state, DataTycoonState)
    catalogue = {c["id"]: c for c in get_game("data_tycoon").cards(table.match.variant)}
    url = reverse("debrief:replay", args=[recorded.pk, 1])
    page = client_a.get(url, {"move": move}).content.decode()
    for seat in range(table.match.num_seats):
        for card in state.hands[seat]:
            assert f'title="{card}"' in page, (seat, card)
            assert catalogue[card]["name"]["en"] in page
    assert "Move 10 of" in page
    assert 'type="range"' in page and f'value="{move}"' in page
    # a sensitive card is marked in words, not by a colour alone, and the legend says so
    assert "Cards marked ★: sensitive data." in page
    shown = [c for s in range(table.match.num_seats) for c in state.hands[s]]
    sensitive = [c for c in shown if catalogue[c]["sensitive"]]
    plain = [c for c in shown if not catalogue[c]["sensitive"]]
    assert sensitive and plain, "hands of both kinds at this move"
    for card in sensitive:
        assert re.search(
            f'title="{card}"><span aria-hidden="true">★ </span>[^<]+'
            r'<span class="visually-hidden"> \(sensitive data\)</span>',
            page,
        ), card
    for card in plain:
        assert f'title="{card}">{catalogue[card]["name"]["en"]}</span>' in page, card
    # the deck, face down in play, is folded under its count; the table is not
    deck = re.search(
        r'<details class="replay-face-down" data-fold="\d+">\s*<summary><h2>Deck \(top last\) '
        r'<span class="muted">\((\d+)\)</span></h2></summary>',
        page,
    )
    assert deck and int(deck.group(1)) == len(state.deck) > 0
    assert '<h2>Table <span class="muted">' in page and "<summary><h2>Table" not in page
    for target in (
        "?move=0",
        f"?move={move - 1}",
        f"?move={move + 1}",
        f"?move={table.match.version}",
    ):
        assert target in page


@pytest.mark.django_db
def test_moves_out_of_range_are_clamped(recorded, client_a):
    table = recorded.tables.select_related("match").get(number=2)
    url = reverse("debrief:replay", args=[recorded.pk, 2])
    last = table.match.version
    assert f"Move {last} of {last}" in client_a.get(url, {"move": 99999}).content.decode()
    assert "The cards as dealt" in client_a.get(url, {"move": -3}).content.decode()
    assert "The cards as dealt" in client_a.get(url, {"move": "x"}).content.decode()


@pytest.mark.django_db
def test_each_move_is_described_in_plain_language(recorded):
    table = recorded.tables.select_related("match").get(number=1)
    described = [frame(table, move, "en") for move in range(1, 15)]
    assert all(f.actor for f in described)
    lines = [line for f in described for line in f.description]
    assert lines and all("%(" not in line for line in lines)


@pytest.mark.django_db
def test_a_data_thief_replay_shows_hands_and_face_down_measures(teacher_a, client_a):
    """The teacher's replay shows every card face up: hands, the thief's loot, and the
    measures still face down on the boards."""
    session = record_session(teacher_a, students=3, table_size=3, game="data_thief", seed=5)
    table = session.tables.select_related("match").get(number=1)
    last = table.match.version
    state = replay_match(table.match, upto=last)
    assert isinstance(state, DataThiefState)
    hidden = [c for s in range(state.n) for c in state.private_cards(s)]
    assert hidden, "some card was private at the end"
    catalogue = {c["id"]: c for c in get_game("data_thief").cards(table.match.variant)}
    url = reverse("debrief:replay", args=[session.pk, 1])
    page = client_a.get(url, {"move": last}).content.decode()
    for card in hidden + list(state.loot):
        assert f'title="{card}"' in page, card
        assert catalogue[card]["name"]["en"] in page
    assert "Paper board, opened with" in page or "Digital board, opened with" in page
    assert f"Move {last} of {last}" in page
    assert "Cards marked ★" not in page  # a game that highlights nothing has no legend


@pytest.mark.django_db
def test_a_data_monsters_replay_shows_hands_labs_the_challenge_deck_and_the_sets(
    teacher_a, client_a
):
    """The teacher's replay of a Data Monsters table: every hand and lab face up, the
    challenges completed and still in the deck, and each seat's starter set."""
    session = record_session(
        teacher_a,
        students=3,
        table_size=3,
        game="data_monsters",
        variant="standard",
        seed=5,
        quiz=False,
    )
    table = session.tables.select_related("match").get(number=1)
    move = table.match.version // 4
    state = replay_match(table.match, upto=move)
    assert isinstance(state, DataMonstersState)
    hands = [c for s in range(state.n) for c in state.hands[s]]
    labs = [c for s in range(state.n) for c in state.labs[s]]
    done = [c for s in range(state.n) for c in state.completed[s]]
    assert hands and labs and done and state.challenge_deck, "a match under way"
    catalogue = {c["id"]: c for c in get_game("data_monsters").cards(table.match.variant)}
    url = reverse("debrief:replay", args=[session.pk, 1])
    page = client_a.get(url, {"move": move}).content.decode()
    for card in hands + labs + done + state.challenge_deck + state.market:
        assert f'title="{card}"' in page, card
        assert catalogue[card]["name"]["en"] in page
    assert "Startup set" in page and "Enterprise set" in page
    assert "Cards marked ★: safeguards, which protect personal data." in page
    safeguards = [c for c in hands + labs + done if catalogue[c].get("safeguard")]
    assert safeguards, "a safeguard in play at this move"
    for card in safeguards:
        assert f'title="{card}"><span aria-hidden="true">★ </span>' in page, card
    assert f"Move {move} of {table.match.version}" in page
    described = [frame(table, m, "en") for m in range(1, 20)]
    assert all("%(" not in line for f in described for line in f.description)


@pytest.mark.django_db
def test_the_french_replay_puts_a_space_before_the_scores_colons(recorded, client_a):
    """French writes "Trésors : 1", a no-break space before the colon (as its catalogue
    does), never "Trésors: 1"."""
    url = reverse("debrief:replay", args=[recorded.pk, 1])
    try:
        page = client_a.get(url, {"move": 10}, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    finally:
        translation.deactivate()  # the request left French active in this thread
    seat_score = r'<section class="card replay-seat.*?<p class="muted">(.*?)</p>'
    scores = re.findall(seat_score, page, re.S)
    assert scores and all("\u00a0: " in line for line in scores), scores
    assert not [line for line in scores if re.search(r"\S: ", line)], scores
