"""A bot that thinks ahead over the cards it cannot see: information-set Monte Carlo
tree search, single observer (Cowling, Powley & Whitehouse 2012, "SO-ISMCTS").

Each iteration asks the game for a *determinisation*, a full state that the bot's own
view could have come from (``game.sample_state(view, rng)``: the unseen cards dealt at
random), and walks one tree shared by all of them:

- selection: UCB1 over the actions legal in this determinisation, each child counting
  how often it was *available* (its ``avail``) in place of the parent's visits;
- expansion: one untried action gets a node;
- playout: every seat moves by the game's quick policy (``game.rollout_action``), the
  referee fires a random timer when nobody may act (as ``games.engine.driver`` does),
  until the end or ``depth`` moves, where ``game.evaluate`` guesses each seat's chance;
- back-propagation: each node adds the reward of the seat that chose its action.

Forced moves (one legal action) and the referee's get no node: the tree branches at
real choices only. Other seats' moves are in the tree, as if seen (the single-observer
simplification). The budget is a number of iterations, never a clock, so a seeded
choice is the same on every run and a replay reproduces it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from games.engine.bots import Bot
from games.engine.i18n import gettext_noop

if TYPE_CHECKING:
    from games.engine.base import Game, State


class _Node:
    """One choice in the tree: who chose it, how often it was tried, and its rewards."""

    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.children: dict[tuple, _Node] = {}


def action_key(seat: int | None, action: dict) -> tuple:
    """Return a hashable key of ``seat`` taking ``action`` (a flat JSON dict)."""
    return (seat, *sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in action.items()))


class SearchBot(Bot):
    """Search ahead over determinisations of the view; play the most tried action."""

    name = "search"
    label = gettext_noop("Strong")
    description = gettext_noop(
        "thinks ahead over the cards it cannot see: for players who know the game"
    )
    iterations = 300  # determinisations, each one walk down the tree and one playout
    depth = 40  # playout moves past the tree before the evaluation
    exploration = 0.7  # UCB1's constant (rewards are in [0, 1])
    others_in_tree = False  # True: other seats' choices get nodes too; False: the policy

    def __init__(
        self,
        game: Game | None = None,
        iterations: int | None = None,
        depth: int | None = None,
        exploration: float | None = None,
    ) -> None:
        super().__init__(game)
        if iterations is not None:
            self.iterations = iterations
        if depth is not None:
            self.depth = depth
        if exploration is not None:
            self.exploration = exploration
        self.last_iterations = 0  # what the last choice spent (0: forced, no search)

    def choose(self, view: dict, legal_actions: list[dict], rng) -> dict:
        """Return the legal action the search tried most (it alone, if forced)."""
        self.last_iterations = 0
        if len(legal_actions) == 1:
            return legal_actions[0]
        seat = view["seat"]
        root = _Node(None)
        allowed = {action_key(seat, a) for a in legal_actions}
        for _ in range(self.iterations):
            state = self.game.sample_state(view, rng)
            self._iterate(state, root, seat, allowed, rng)
        self.last_iterations = self.iterations
        best, best_rank = legal_actions[0], None
        for action in legal_actions:
            child = root.children.get(action_key(seat, action))
            if child is None:
                continue
            rank = (child.visits, child.total / child.visits)
            if best_rank is None or rank > best_rank:
                best, best_rank = action, rank
        return best

    def _iterate(self, state: State, root: _Node, me: int, allowed: set, rng) -> None:
        """Walk down the tree on ``state``, expand one node, play out, back-propagate."""
        node, path = root, []
        c = self.exploration
        while not state.is_over():
            seat, legal = _mover(state, rng)
            if seat is None or len(legal) == 1:
                action = legal[0] if len(legal) == 1 else legal[rng.randrange(len(legal))]
                state.apply(seat, action)
                continue
            if seat != me and not self.others_in_tree:
                state.apply(seat, self.game.rollout_action(state, seat, legal, rng))
                continue
            children = node.children
            untried, chosen, best = [], None, -1.0
            for action in legal:
                key = action_key(seat, action)
                if node is root and key not in allowed:
                    continue  # a determinisation should never differ here: be safe
                child = children.get(key)
                if child is None:
                    untried.append((key, action))
                    continue
                child.avail += 1
                if not untried:
                    value = child.total / child.visits + c * math.sqrt(
                        math.log(child.avail) / child.visits
                    )
                    if value > best:
                        chosen, best = (child, action), value
            if untried:
                # the policy's favourite first: a new line starts with a sensible move
                action = self.game.rollout_action(state, seat, [a for _k, a in untried], rng)
                key = action_key(seat, action)
                child = children[key] = _Node(seat)
                child.avail = 1
                state.apply(seat, action)
                path.append(child)
                break
            if chosen is None:
                break
            node, action = chosen
            state.apply(seat, action)
            path.append(node)
        rewards = self._playout(state, rng)
        for node in path:
            node.visits += 1
            node.total += rewards[node.seat]

    def _playout(self, state: State, rng) -> list[float]:
        """Play ``depth`` quick moves (or to the end); return each seat's reward."""
        game = self.game
        for _ in range(self.depth):
            if state.is_over():
                break
            seat, legal = _mover(state, rng)
            if seat is None:
                action = legal[rng.randrange(len(legal))]
            else:
                action = game.rollout_action(state, seat, legal, rng)
            state.apply(seat, action)
        return game.evaluate(state)


def _mover(state: State, rng) -> tuple[int | None, list[dict]]:
    """Return who acts next and their legal actions: a seat, or the referee (None)."""
    movers = state.to_move()
    if movers:
        seat = movers[0] if len(movers) == 1 else movers[rng.randrange(len(movers))]
        return seat, state.legal_actions(seat)
    legal = state.legal_actions(None)
    if not legal:
        raise RuntimeError("nobody may act and no timer runs: the game is stuck")
    return None, legal
