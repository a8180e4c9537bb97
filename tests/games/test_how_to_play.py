"""Every game tells students how to play: a few sections of short sentences, the goal
first, every word marked with gettext_noop so that the catalogues can translate it."""

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract

import games
from games.describe import how_to_play
from games.engine.base import Game, HowToPlay
from games.registry import all_games, get_game
from tests.i18n.test_catalogues import KEYWORDS, extracted

GAMES = all_games()
# For a 12-year-old: a line of a few short sentences.
MAX_WORDS_PER_SENTENCE = 20
MAX_LINES_PER_SECTION = 8


def texts(game: Game) -> list[str]:
    """Return every heading and line of a game's how-to-play."""
    return [text for section in game.how_to_play for text in (section.heading, *section.lines)]


def test_games_are_registered():
    assert GAMES


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.slug)
def test_the_game_declares_a_short_how_to_play_goal_first(game):
    sections = game.how_to_play
    assert sections and all(isinstance(section, HowToPlay) for section in sections)
    headings = [section.heading for section in sections]
    assert headings[0] == "The goal" and "Your turn" in headings
    assert len(set(headings)) == len(headings)
    for section in sections:
        assert section.heading.strip() and 1 <= len(section.lines) <= MAX_LINES_PER_SECTION
        for line in section.lines:
            sentences = [s for s in re.split(r"(?<=[.?!])\s+", line) if s]
            assert sentences and line.rstrip()[-1] in ".?!)", line
            for sentence in sentences:
                assert len(sentence.split()) <= MAX_WORDS_PER_SENTENCE, sentence


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.slug)
def test_every_text_is_marked_in_the_games_own_package(game):
    package = Path(games.__file__).parent / game.slug
    marked = set()
    for path in sorted(package.glob("*.py")):
        with path.open("rb") as source:
            marked |= {msgid for _line, msgid, _c, _ctx in extract("python", source, KEYWORDS)}
    assert marked
    game_texts = texts(game)
    assert game_texts
    for text in game_texts:
        assert text in marked, f"{text!r} is not marked with gettext_noop in {package}"
        # and makemessages finds it: the catalogues will ask for its translation
        assert (None, text) in extracted("django")


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.slug)
def test_sections_name_only_the_games_variants(game):
    for section in game.how_to_play:
        assert set(section.variants) <= set(game.variants), section.heading
    for variant in game.variants:
        headings = [s.heading for s in game.how_to_play if s.applies_to(variant)]
        assert headings[0] == "The goal" and "Your turn" in headings, variant


def test_data_tycoon_explains_a_special_card_exactly_in_the_variants_that_deal_it():
    """A beginner never reads about a Sanction; an expert reads about every card."""
    game = get_game("data_tycoon")
    kinds = {"sanction", "lawyer", "transparency", "cybersecurity", "databreach"}
    kinds |= {"consent", "minimization", "time", "complaint"}
    assert {"beginner", "expert"} <= set(game.variants)
    for variant in game.variants:
        dealt = {card["kind"] for card in game.cards(variant)}
        text = " ".join(line for s in how_to_play("data_tycoon", variant) for line in s["lines"])
        for kind in kinds:
            named = re.search(rf"\b{kind.capitalize()}\b", text) is not None
            assert named == (kind in dealt), (variant, kind)


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.slug)
def test_a_line_about_cards_names_kinds_the_game_deals(game):
    """A typo in a line's card kinds would hide the line in every game: each kind a line
    needs is dealt by at least one variant of the section."""
    assert game.how_to_play
    for section in game.how_to_play:
        variants = section.variants or tuple(game.variants)
        dealt = set().union(*(game.dealt_kinds(variant) for variant in variants))
        for line in section.lines:
            assert set(getattr(line, "needs", ())) <= dealt, line
            assert set(getattr(line, "any_of", ())) <= dealt, line


def test_data_tycoon_never_explains_a_card_the_teacher_left_out():
    """The teacher may leave out any special cards: the students' How to play then names
    none of them, and says what the cards still dealt do."""
    game = get_game("data_tycoon")
    every = ["sanction", "lawyer", "transparency", "cybersecurity", "databreach"]
    every += ["consent", "minimization", "time", "complaint"]
    for left_out in (["lawyer"], ["cybersecurity", "sanction"], ["time", "consent"], every):
        options = {"left_out": left_out}
        dealt = game.dealt_kinds("expert", options)
        assert not dealt & set(left_out)
        shown = how_to_play("data_tycoon", "expert", options)
        text = " ".join(line for section in shown for line in section["lines"])
        for kind in every:
            named = re.search(rf"\b{kind.capitalize()}\b", text) is not None
            assert named == (kind not in left_out), (left_out, kind)
    headings = [s["heading"] for s in how_to_play("data_tycoon", "expert", {"left_out": every})]
    assert headings == ["The goal", "Your turn", "DATA!"]
    only_lawyers = {"left_out": [kind for kind in every if kind != "lawyer"]}
    shown = how_to_play("data_tycoon", "expert", only_lawyers)
    assert [s["heading"] for s in shown][3:] == ["Attacks and defences"]
    assert shown[3]["lines"] == ["Set a card aside, face down, to stop an attack later."]
