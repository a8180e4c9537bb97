"""Every event has a translatable plain-language log line."""

import ast
import re
from pathlib import Path

import pytest

from games.data_tycoon import text
from games.data_tycoon.rules import DEFAULT_OPTIONS
from tests.games.arrange import GAME
from tests.games.playout import playout

RULES = Path(text.__file__).with_name("rules.py")


def emitted_types():
    """Return every event type the rules source emits."""
    source = RULES.read_text(encoding="utf-8")
    return set(re.findall(r'_emit\(\s*"([a-z_]+)"', source)) | {"setup"}


def literal(node: ast.expr) -> object:
    """Return the constant ``node`` stands for (a marked template is a literal)."""
    assert isinstance(node, ast.Constant)
    return node.value


def test_every_emitted_event_type_has_a_template():
    templates = set(text.TEMPLATES) | set(text.PLURALS)
    assert emitted_types() - {"datasets_returned", "countered"} <= templates
    assert not set(text.TEMPLATES) & set(text.PLURALS)
    assert set(text.RETURNED) == {"complaint", "minimization", "time", "databreach"}


def test_templates_are_marked_for_makemessages():
    tree = ast.parse(Path(text.__file__).read_text(encoding="utf-8"))
    marked = [
        literal(node.args[0])
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "gettext_noop"
    ]
    for table in (text.TEMPLATES, text.RETURNED, text.COUNTERED):
        assert set(table.values()) <= set(marked)
    plurals = [
        (literal(node.args[0]), literal(node.args[1]))
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "ngettext_noop"
    ]
    assert {forms for forms, _counted in text.PLURALS.values()} <= set(plurals)


@pytest.mark.parametrize("variant", list(GAME.variants))
def test_describe_event_formats_every_event_of_random_games(variant):
    seen = set()
    for seed in range(12):
        options = {"time_mode": DEFAULT_OPTIONS["time_mode"] if seed % 2 else "turns"}
        _state, log = playout(GAME, variant, 2 + seed % 5, seed, seed, options=options)
        replayed = GAME.new_state(2 + seed % 5, seed, variant, options)
        for event in replayed.last_events:
            template, params = text.describe_event(event)
            assert template % params
        for seat, action in log:
            for event in replayed.apply(seat, action):
                template, params = text.describe_event(event, player_name=lambda s: f"P{s}")
                line = template % params
                assert "%(" not in line
                seen.add(event["type"])
    assert {"turn", "deal", "game_over"} <= seen


def test_describe_event_uses_given_names():
    template, params = text.describe_event(
        {"type": "capture", "seat": 0, "card": "dt-001", "captured": "dt-002"},
        player_name=lambda s: "Ada",
        card_name=lambda c: {"dt-001": "uno", "dt-002": "dos"}[c],
    )
    assert template % params == "Ada plays uno and captures dos."
