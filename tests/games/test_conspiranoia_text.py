"""Every Conspiranoia event has a translatable plain-language log line."""

import ast
import random
import re
from pathlib import Path

import pytest

from games.conspiranoia import rules, text
from games.conspiranoia.rules import Conspiranoia

GAME = Conspiranoia()
RULES = Path(rules.__file__)


def emitted_types():
    """Return every event type the rules emit (attacks are emitted by their action type)."""
    source = RULES.read_text(encoding="utf-8")
    return set(re.findall(r'_emit\(\s*"([a-z_]+)"', source)) | set(rules.ATTACKS)


def literal(node: ast.expr) -> object:
    """Return the constant ``node`` stands for (a marked template is a literal)."""
    assert isinstance(node, ast.Constant)
    return node.value


def test_every_emitted_event_type_has_a_template():
    assert emitted_types() == set(text.TEMPLATES) | set(text.PLURALS)
    assert not set(text.TEMPLATES) & set(text.PLURALS)
    assert set(text.DOUBLED) == {"attack", "special_attack", "defend"}


def test_notable_events_and_lesson_labels_name_emitted_events():
    assert GAME.notable_events <= emitted_types()
    assert set(GAME.event_labels) <= emitted_types()
    assert GAME.describe_event({"type": "turn", "seat": 0}) == (
        text.TEMPLATES["turn"],
        {"player": "Player 1"},
    )


def test_templates_are_marked_for_makemessages():
    tree = ast.parse(Path(text.__file__).read_text(encoding="utf-8"))
    marked = {
        literal(node.args[0])
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "gettext_noop"
    }
    assert set(text.TEMPLATES.values()) | set(text.DOUBLED.values()) <= marked
    assert set(text.EVENT_LABELS.values()) <= marked


def test_refusal_messages_are_marked_for_makemessages():
    tree = ast.parse(RULES.read_text(encoding="utf-8"))
    marked = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "gettext_noop"
    ]
    assert len(marked) >= 12
    assert all(isinstance(node.args[0], ast.Constant) for node in marked)


@pytest.mark.parametrize("variant", list(GAME.variants))
def test_describe_event_formats_every_event_of_random_games(variant):
    seen = set()
    for seed in range(8):
        players = 2 + seed % 3
        state = GAME.new_state(players, seed, variant, {"max_rounds": 5 + seed})
        events = list(state.last_events)
        rng = random.Random(seed)
        while not state.is_over():
            movers = state.to_move()
            seat = rng.choice(movers) if movers else None
            if seat is not None and rng.random() < 0.1 and state.timers():
                seat = None
            events += state.apply(seat, rng.choice(state.legal_actions(seat)))
        for event in events:
            template, params = text.describe_event(event, player_name=lambda s: f"P{s}")
            line = template % params
            assert "%(" not in line and line.endswith((".", "!"))
            seen.add(event["type"])
    assert {"setup", "character_chosen", "deal", "turn", "attack", "damage", "game_over"} <= seen


def test_describe_event_uses_given_names():
    event = {
        "type": "attack",
        "seat": 0,
        "target": 1,
        "cards": ["cp-01", "cp-02", "cp-37"],
        "points": 6,
        "doubled": True,
    }
    template, params = text.describe_event(
        event, player_name=lambda s: ["Ada", "Bo"][s], card_name=lambda c: c.upper()
    )
    assert template % params == (
        "Ada attacks Bo with CP-01, CP-02, CP-37: an Attack worth 6, doubled by an Avatar."
    )
    template, params = text.describe_event({"type": "character_chosen", "seat": 1, "card": "cp-49"})
    assert template % params == "Player 2 chooses Avatar: Men in Black."
