"""Every card says what it does: an ``effect`` in every language, in the catalogue.

The board shows a card's effect in the card tray and under an attack's card, so every
card of every variant of every game must carry one, translated (no English left), and
it must agree with the rules as implemented in that variant.
"""

import re

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
    by_kind = {}
    for card in game.cards(variant):
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


def _effects(variant):
    return {card["id"]: card["effect"]["en"] for card in dt_cards.cards(variant)}


@pytest.mark.parametrize("variant", list(dt_cards.VARIANT_KINDS))
def test_data_tycoon_effects_name_only_cards_of_the_variant(variant):
    """A beginner never reads of a Complaint: an effect names no kind missing from the deck."""
    missing = [kind for kind in KIND_NAMES if kind not in dt_cards.VARIANT_KINDS[variant]]
    effects = _effects(variant)
    assert effects
    for card_id, text in effects.items():
        for kind in missing:
            assert KIND_NAMES[kind] not in text, (variant, card_id, kind)


@pytest.mark.parametrize("kind", sorted(k for k, rule in CARD_RULES.items() if rule.counters))
def test_data_tycoon_attack_effects_name_what_stops_them(kind):
    effects = _effects("expert")
    card_id = next(c for c in effects if dt_cards.KIND[c] == kind)
    for counter in CARD_RULES[kind].counters:
        assert KIND_NAMES[counter] in effects[card_id], (kind, counter)


def test_data_tycoon_lawyer_stops_a_complaint_only_where_there_are_complaints():
    lawyer = next(c for c in dt_cards.ALL_CARDS if c["kind"] == "lawyer")["id"]
    assert "Complaint" in dt_cards.effect(lawyer, "expert")["en"]
    assert "Complaint" not in dt_cards.effect(lawyer, "lawyers")["en"]
    assert "Sanction" in dt_cards.effect(lawyer, "lawyers")["en"]


def test_data_tycoon_sensitive_cards_say_they_capture_by_sign():
    simple, sensitive = (
        next(c["id"] for c in dt_cards.ALL_CARDS if c["kind"] == "dataset" and c["sensitive"] is s)
        for s in (False, True)
    )
    assert "same sign" in dt_cards.effect(sensitive, "beginner")["en"]
    assert "sign" not in dt_cards.effect(simple, "beginner")["en"]
