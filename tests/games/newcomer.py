"""A newcomer's game of Data-Tycoon, simulated over the engine: the strategy that
tests/browser/test_newcomer.py clicks on the page, played against the live server's bots.

The page turns every legal action into one control (docs/ui.md), in the order of the
legal actions, the hand and the table; so the child's rule "press what the page
offers" is a rule over the seat's legal actions and view:

1. the prompt offers DATA!: press it;
2. a "Build a Data-Treasure…" button is offered: press the first one;
3. else try the hand cards in their order: the first one whose tray says it can
   capture, capturing the first highlighted table card;
4. else place the first Purpose beside the collection ("Place it beside your
   collection");
5. else lay the first card on the table ("Lay it on the table").

Any other prompt (a bot froze some of the newcomer's cards with a Purpose and the page
asks which) is not one of these moves: the newcomer presses nothing and the prompt's
timer runs out, as the live server's referee then does (the engine freezes the least
valuable cards).

The bots play as live.background.play_bot does: the session's bot kind, a
``random.Random`` seeded by the match's seed, the match's version (one per stored
action) and the bot's seat, choosing from the view of a state read back from its JSON
snapshot. With the newcomer's moves fixed by the page, the whole game follows from the
table's seed: this module finds a seed where the newcomer builds a Data-Treasure
early, and tells how (``Newcomer``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from games.registry import get_game

GAME = "data_tycoon"
VARIANT = "beginner"
SEATS = 3  # the browser test's table: the student (seat 0, first to play) and two bots
STUDENT = 0
MAX_ACTIONS = 2000
# The browser test's deal: the newcomer calls DATA!, captures, keeps the Purpose,
# captures twice more and builds a blue Data-Treasure, on their fifth turn.
NEWCOMER_SEED = 280
NEWCOMER_TURNS = 4  # card plays before the build


def newcomer_choice(view: dict, legal: list[dict]) -> dict | None:
    """Return the action the newcomer's clicks send, or None when the page offers none
    of the moves the newcomer knows (a prompt other than DATA!)."""
    calls = [a for a in legal if a["type"] == "call_data"]
    if calls:
        return calls[0]
    builds = [a for a in legal if a["type"] == "build"]
    if builds:
        return builds[0]
    for card in view["hand"]:
        for action in legal:
            if action["type"] == "play" and action["card"] == card and "capture" in action:
                # the highlighted table cards, in the table's order
                targets = [a for a in legal if a.get("card") == card and "capture" in a]
                return min(targets, key=lambda a: view["table"].index(a["capture"]))
    for card in view["hand"]:
        keep = {"type": "keep", "card": card}
        if keep in legal:
            return keep
    for card in view["hand"]:
        lay = {"type": "play", "card": card}
        if lay in legal:
            return lay
    return None


@dataclass
class Newcomer:
    """How the newcomer's game went: ``built`` once a Data-Treasure is theirs."""

    seed: int
    built: bool = False
    turns: int = 0  # the newcomer's card plays before the Data-Treasure
    actions: int = 0  # actions stored (the match's version) when it was built
    stuck: str = ""  # why the strategy could not go on, if it could not
    waited: int = 0  # prompts the newcomer left to run out (the browser test waits for each)
    moves: list[dict] = field(default_factory=list)  # the newcomer's actions, in order


def play_newcomer(seed: int, bot_kind: str = "heuristic", max_turns: int = 99) -> Newcomer:
    """Play the newcomer at seat 0 against two bots until a Data-Treasure or the end."""
    game = get_game(GAME)
    state = game.new_state(SEATS, seed, VARIANT)
    bot = game.bot(bot_kind)
    out = Newcomer(seed)
    for version in range(MAX_ACTIONS):
        if state.is_over():
            out.stuck = "the game ended"
            return out
        movers = state.to_move()
        if not movers:
            out.stuck = "only a timer could go on"
            return out
        seat = movers[0]
        legal = state.legal_actions(seat)
        if seat == STUDENT:
            action = newcomer_choice(state.view(seat), legal)
            window = state.view(seat)["window"]
            if action is None and window is None:
                out.stuck = "the page offers no move"
                return out
            if action is None:  # a prompt the newcomer does not know: its timer runs out
                seat, action = None, {"type": "expire", "timer": window["id"]}
                out.waited += 1
            else:
                out.moves.append(action)
            if action["type"] in ("play", "keep"):
                out.turns += 1
                if out.turns > max_turns:
                    out.stuck = f"no Data-Treasure in {max_turns} turns"
                    return out
        else:
            rng = random.Random(f"{seed}:{version}:{seat}")
            action = bot.choose(state.view(seat), legal, rng)
        state.apply(seat, action)
        state = game.from_json(state.to_json())  # as the server reads its snapshot
        if state.treasures[STUDENT]:
            out.built, out.actions = True, version + 1
            return out
    out.stuck = f"more than {MAX_ACTIONS} actions"
    return out


def quickest_seeds(seeds: Iterable[int], bot_kind: str = "heuristic") -> list[Newcomer]:
    """Return the games of ``seeds`` where the newcomer builds, fewest turns first."""
    games = [play_newcomer(seed, bot_kind) for seed in seeds]
    return sorted((g for g in games if g.built), key=lambda g: (g.turns, g.seed))
