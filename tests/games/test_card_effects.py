"""Every card says what it does: an ``effect`` in every language, in the catalogue.

The board shows a card's effect in the card tray and under an attack's card, so every
card of every variant of every game must carry one, translated (no English left), and
it must agree with the rules as implemented in that variant.
"""

import re
from itertools import chain, combinations

import pytest

from games.data_tycoon import cards as dt_cards
from games.data_tycoon.rules import CARD_RULES
from games.registry import all_games

LANGUAGES = ("en", "es", "fr", "ru")
# Words that only an English sentence has: one of them in a translation is English left.
ENGLISH = re.compile(r"\b(the|your|you|with|when|cards?|play|they|their|it)\b", re.IGNORECASE)

DECKS = [
    pytest.param(game, variant, id=f"{game.slug}-{variant}")
    for game in all_games()
    for variant in game.variants
]


def test_there_are_decks():
    assert len(DECKS) >= 6


@pytest.mark.parametrize(("game", "variant"), DECKS)
def test_every_card_has_an_effect_in_every_language(game, variant):
    cards = game.cards(variant)
    assert cards
    for card in cards:
        effect = card.get("effect")
        assert isinstance(effect, dict), card["id"]
        for language in LANGUAGES:
            assert effect.get(language, "").strip(), (card["id"], language)
        for language in LANGUAGES[1:]:
            text = effect[language]
            assert text != effect["en"], (card["id"], language)
            assert not ENGLISH.search(text), (card["id"], language, ENGLISH.search(text))


@pytest.mark.parametrize(("game", "variant"), DECKS)
def test_every_kind_has_its_own_effect(game, variant):
    """Effects are about the card: two kinds never share one text."""
    by_kind: dict[str, set[str]] = {}
    cards = game.cards(variant)
    assert cards
    for card in cards:
        by_kind.setdefault(card["kind"], set()).add(card["effect"]["en"])
    texts = [text for kind_texts in by_kind.values() for text in kind_texts]
    assert len(texts) == len(set(texts))


# --- Data-Tycoon: the effects agree with CARD_RULES and the variant's deck

KIND_NAMES = {
    "sanction": "Sanction",
    "lawyer": "Lawyer",
    "transparency": "Transparency",
    "cybersecurity": "Cybersecurity",
    "databreach": "DATABREACH",
    "consent": "Consent",
    "minimization": "Minimization",
    "time": "Time card",
    "complaint": "Complaint",
}


def _decks():
    """Every deck a session may deal: each variant less any set of its special kinds."""
    for variant, kinds in dt_cards.VARIANT_KINDS.items():
        special = sorted(kinds & set(KIND_NAMES))
        for left_out in chain.from_iterable(
            combinations(special, n) for n in range(len(special) + 1)
        ):
            yield variant, kinds - set(left_out)


DT_DECKS = list(_decks())
# one card of each effect text: a Dataset card of each sensitivity, one of each kind
ONE_OF_EACH = list({dt_cards.effect_key(c["id"]): c["id"] for c in dt_cards.ALL_CARDS}.values())


def test_a_session_may_deal_hundreds_of_data_tycoon_decks():
    assert len(DT_DECKS) == 1 + 2**2 + 2**5 + 2**9
    assert len(ONE_OF_EACH) == 12


def test_data_tycoon_effects_name_only_cards_the_deck_deals():
    """A beginner never reads of a Complaint, nor a class without Lawyers of a Lawyer."""
    assert DT_DECKS
    for variant, kinds in DT_DECKS:
        for card_id in (c for c in ONE_OF_EACH if dt_cards.KIND[c] in kinds):
            text = dt_cards.effect(card_id, kinds)
            for kind in set(KIND_NAMES) - kinds:
                assert KIND_NAMES[kind] not in text["en"], (variant, sorted(kinds), card_id)
            for language in LANGUAGES:
                assert text[language].strip() and "  " not in text[language], (card_id, language)
            for language in LANGUAGES[1:]:
                assert not ENGLISH.search(text[language]), (card_id, language, sorted(kinds))


@pytest.mark.parametrize("kind", sorted(k for k, rule in CARD_RULES.items() if rule.counters))
def test_data_tycoon_attack_effects_name_what_stops_them(kind):
    """In every deck, an attack names each dealt card that stops it."""
    card_id = next(c for c in ONE_OF_EACH if dt_cards.KIND[c] == kind)
    decks = [kinds for _variant, kinds in DT_DECKS if kind in kinds]
    assert decks
    for kinds in decks:
        text = dt_cards.effect(card_id, kinds)["en"]
        for counter in CARD_RULES[kind].counters:
            assert (KIND_NAMES[counter] in text) is (counter in kinds), (kind, sorted(kinds))


def test_data_tycoon_lawyer_says_what_it_stops_in_the_deck_dealt():
    lawyer = next(c for c in dt_cards.ALL_CARDS if c["kind"] == "lawyer")["id"]
    expert = dt_cards.VARIANT_KINDS["expert"]
    assert "Sanction or a Complaint" in dt_cards.effect(lawyer, expert)["en"]
    assert "Complaint" not in dt_cards.effect(lawyer, dt_cards.VARIANT_KINDS["lawyers"])["en"]
    assert "Sanction" in dt_cards.effect(lawyer, dt_cards.VARIANT_KINDS["lawyers"])["en"]
    without_sanctions = dt_cards.effect(lawyer, expert - {"sanction"})
    assert "Sanction" not in without_sanctions["en"] and "Complaint" in without_sanctions["en"]
    useless = dt_cards.effect(lawyer, expert - {"sanction", "complaint"})
    assert useless["en"].endswith("It has no effect in this game.")
    assert useless["ru"].endswith("ничего не даёт.")


def test_data_tycoon_time_and_databreach_follow_the_cards_left_out():
    time = next(c for c in ONE_OF_EACH if dt_cards.KIND[c] == "time")
    breach = next(c for c in ONE_OF_EACH if dt_cards.KIND[c] == "databreach")
    expert = dt_cards.VARIANT_KINDS["expert"]
    assert "no Purpose or Consent card" in dt_cards.effect(time, expert)["en"]
    assert "no Purpose card" in dt_cards.effect(time, expert - {"consent"})["en"]
    assert "«Цель» или «Согласие»" in dt_cards.effect(time, expert)["ru"]
    assert "Согласие" not in dt_cards.effect(time, expert - {"consent"})["ru"]
    assert "Ciberseguridad" in dt_cards.effect(breach, expert)["es"]
    assert "Cybersécurité" not in dt_cards.effect(breach, expert - {"cybersecurity"})["fr"]


def test_a_data_tycoon_game_gives_the_texts_of_its_deck():
    game = next(g for g in all_games() if g.slug == "data_tycoon")
    kinds = frozenset(game.dealt_kinds("expert", {"left_out": ["lawyer", "consent"]}))
    complaint = next(c for c in game.cards("expert", kinds) if c["kind"] == "complaint")
    assert complaint["effect"]["en"] == (
        "Play it against a player: 3 of their loose Dataset cards go back to the deck."
    )
    assert (
        "Lawyer or a Consent"
        in next(c for c in game.cards("expert") if c["kind"] == "complaint")["effect"]["en"]
    )


def test_data_tycoon_sensitive_cards_say_they_capture_by_sign():
    simple, sensitive = (
        next(c["id"] for c in dt_cards.ALL_CARDS if c["kind"] == "dataset" and c["sensitive"] is s)
        for s in (False, True)
    )
    beginner = dt_cards.VARIANT_KINDS["beginner"]
    assert "same sign" in dt_cards.effect(sensitive, beginner)["en"]
    assert "sign" not in dt_cards.effect(simple, beginner)["en"]
