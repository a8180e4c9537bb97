"""States a released version stored are read by today's engines, and play goes on.

Every move stores its match's state (``Match.snapshot``), and classrooms upgrade with
matches in progress and finished sessions kept: a change to what a state holds must
come with a data migration that converts the stored ones (docs/adding-a-game.md). The
files in ``stored/`` are states of each game as a released version wrote them (dealt,
half way, the end of a seeded game of random bots), made once and never rewritten. A
game whose ``FORMAT`` went up names the migration that converts them,
``games/migrations/NNNN_<game>_format_<N>.py`` with ``convert(snapshot) -> snapshot``,
and this test applies it.
"""

import importlib
import json
from pathlib import Path

import pytest

from games.engine.base import Game
from games.registry import all_games, get_game

STORED = Path(__file__).parent / "stored"
MIGRATIONS = Path(__file__).resolve().parents[2] / "games" / "migrations"


def current_format(game: Game) -> int:
    return game.new_state(game.min_players, 1, game.default_variant, None).to_json()["format"]


def upgraded(game: Game, snapshot: dict) -> dict:
    """Return ``snapshot`` converted, one format at a time, to the game's current one."""
    while snapshot["format"] < current_format(game):
        wanted = snapshot["format"] + 1
        found = sorted(MIGRATIONS.glob(f"[0-9][0-9][0-9][0-9]_{game.slug}_format_{wanted}.py"))
        assert found, (
            f"{game.slug}'s FORMAT is {current_format(game)}: no migration converts its "
            f"stored states to format {wanted} (games/migrations/NNNN_{game.slug}_format_"
            f"{wanted}.py with convert(snapshot))"
        )
        module = importlib.import_module(f"games.migrations.{found[0].stem}")
        snapshot = module.convert(snapshot)
        assert snapshot["format"] == wanted
    return snapshot


def test_every_game_has_stored_states():
    assert {path.stem for path in STORED.glob("*.json")} == {game.slug for game in all_games()}


@pytest.mark.parametrize("slug", sorted(game.slug for game in all_games()))
def test_a_state_a_released_version_stored_is_read_and_plays_on(slug):
    game = get_game(slug)
    stored = json.loads((STORED / f"{slug}.json").read_text(encoding="utf-8"))
    assert stored["game"] == slug and len(stored["states"]) == 3
    for number, as_stored in enumerate(stored["states"]):
        snapshot = upgraded(game, as_stored)
        state = game.from_json(snapshot)
        assert state.to_json() == snapshot, (
            f"{slug}'s state {number} does not read back as it was stored: a change to what "
            "the state holds bumps FORMAT and comes with a migration of the stored states"
        )
        if state.is_over():
            assert state.result() is not None
            continue
        movers = state.to_move()
        seat = movers[0] if movers else None  # nobody to move: a timer runs
        legal = state.legal_actions(seat)
        assert legal, (slug, number)
        state.apply(seat, legal[0])
    assert state.is_over()  # the last stored state is a game's end
