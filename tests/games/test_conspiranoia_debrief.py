"""Conspiranoia's debrief prompts: each comes from something that happened at the table."""

import random

from games.engine.base import TableSummary
from games.engine.driver import play
from games.registry import get_game

GAME = get_game("conspiranoia")
NAMES = {0: "Ana", 1: "Ben", 2: "Cleo"}


def summary(events, scores=None, over=False, winners=()):
    """Return a table's summary with these notable events."""
    scores = scores or [
        {"seat": s, "life": 5, "rounds": 1, "damage_dealt": 0, "blocks": 0} for s in range(3)
    ]
    return TableSummary(
        number=2,
        names=NAMES,
        events=list(enumerate(events, start=1)),
        scores=scores,
        ranks=GAME.rank(scores),
        winners=list(winners),
        over=over,
    )


def attack(seat, target, kind="attack"):
    return {"type": kind, "seat": seat, "target": target, "cards": [], "points": 3}


def test_a_quiet_table_gives_no_prompt():
    assert GAME.debrief().prompts(summary([])) == []


def test_a_special_attack_asks_about_political_opinions():
    (prompt,) = GAME.debrief().prompts(summary([attack(0, 1, "special_attack")]))
    assert "Article 9" in prompt.message and "Cambridge Analytica" in prompt.message
    assert prompt.params == {"table": 2, "player": "Ana", "target": "Ben"}


def test_a_player_attacked_three_times_asks_about_profiling():
    twice = GAME.debrief().prompts(summary([attack(0, 2), attack(1, 2)]))
    assert twice == []
    (prompt,) = GAME.debrief().prompts(summary([attack(0, 2), attack(1, 2), attack(0, 2)]))
    assert "Article 22" in prompt.plural and prompt.count == 3
    assert prompt.params["player"] == "Cleo"


def test_a_block_and_the_characters_each_give_their_prompt():
    events = [
        {"type": "character_chosen", "seat": 1, "character": "investigators", "card": "cp-45"},
        {"type": "character_chosen", "seat": 2, "character": "men_in_black", "card": "cp-49"},
        {"type": "blocked", "seat": 0, "attacker": 1},
    ]
    prompts = GAME.debrief().prompts(summary(events))
    articles = ["Article 21", "Article 15", "Articles 12 to 14"]
    assert [next(a for a in articles if a in p.message) for p in prompts] == articles
    assert [p.params["player"] for p in prompts] == ["Ana", "Ben", "Cleo"]


def test_the_winner_prompt_counts_the_life_points_left():
    scores = [
        {"seat": 0, "life": 1, "rounds": 9, "damage_dealt": 20, "blocks": 2},
        {"seat": 1, "life": 0, "rounds": 8, "damage_dealt": 9, "blocks": 1},
        {"seat": 2, "life": 0, "rounds": 5, "damage_dealt": 3, "blocks": 0},
    ]
    assert GAME.debrief().winner_prompt(summary([], scores)) is None  # not over yet
    prompt = GAME.debrief().winner_prompt(summary([], scores, over=True, winners=["Ana"]))
    assert prompt is not None
    assert prompt.count == 1 and prompt.params["player"] == "Ana"


def test_real_games_give_prompts_whose_parameters_fill_their_templates():
    seen: set[str] = set()
    for seed in range(8):
        state = GAME.new_state(3, seed, "quick")
        bots = [GAME.bot("heuristic"), GAME.bot("random"), GAME.bot("heuristic")]
        events: list[dict] = []

        def keep(_seat, _action, step_events, events=events):
            events.extend(e for e in step_events if e["type"] in GAME.notable_events)

        play(state, bots, random.Random(seed), on_step=keep)
        scores = state.scores()
        ranks = GAME.rank(scores)
        table = summary(
            events, scores, state.is_over(), [NAMES[s] for s in state.result()["winners"]]
        )
        assert table.ranks == ranks
        prompts = GAME.debrief().prompts(table)
        winner = GAME.debrief().winner_prompt(table)
        assert winner is not None
        for prompt in [*prompts, winner]:
            assert (prompt.plural or prompt.message) % prompt.params
        seen.update(p.message[:40] for p in prompts)
    assert len(seen) >= 3
