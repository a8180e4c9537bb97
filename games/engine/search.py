"""A bot that thinks ahead over the cards it cannot see: information-set Monte Carlo
tree search, single observer (Cowling, Powley & Whitehouse 2012, "SO-ISMCTS").

Each iteration plays on a *determinisation*, a full state that the bot's own view
could have come from (``game.sample_state(view, rng)``: the unseen cards dealt at
random; the true state is never seen), and walks one tree shared by all of them:

- selection: below the root, UCB1 over the actions legal in this determinisation,
  each child counting how often it was *available* (``avail``) in place of the
  parent's visits;
- expansion: one untried action gets a node, the game's policy choosing which;
- playout: every seat moves by the game's quick policy (``game.rollout_action``), the
  referee fires a random timer when nobody may act (as ``games.engine.driver`` does),
  until the end or ``depth`` moves, where ``game.evaluate`` guesses each seat's chance;
- back-propagation: each node adds the reward of the seat that chose its action.

At the root, where the actions are the same in every determinisation (they are the
bot's own legal actions), the iterations come in rounds: one determinisation and one
playout seed per round, played once after each root action still in the race, and the
worse half of the race is dropped at each of ``log2(actions)`` stages (sequential
halving at the root, UCB below: Pepels, Cazenave, Winands & Lanctot 2014, "H-MCTS").
Every action still in the race has been played on the very same deals, so the choice
compares like with like: the luck of the draw, much larger in a card game than the
difference between two moves, cancels out.

Other seats' moves and the referee's are in the playouts and in the walk down the tree
(by the game's policy: the tree branches at the bot's own choices only), and so are
the bot's forced moves (one legal action). The budget is a number of iterations, never
a clock, so a seeded choice is the same on every run and a replay reproduces it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from games.engine.bots import Bot

if TYPE_CHECKING:
    from games.engine.base import Game, State
    from games.engine.rng import RandomSource


class _Node:
    """One choice in the tree: who chose it, how often it was tried, and its rewards."""

    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.children: dict[tuple, _Node] = {}


def action_key(seat: int | None, action: dict) -> tuple:
    """Return a hashable key of ``seat`` taking ``action`` (a flat JSON dict)."""
    return (seat, *sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in action.items()))


class SearchBot(Bot):
    """Search ahead over determinisations of the view; play the best action found."""

    name = "search"
    level = "strong"
    game: Game  # a search asks its game to deal and to play: a game always makes this bot
    iterations = 800  # playouts per choice (root action x determinisation)
    turns = 2  # the bot's own turns played out after this one, before the evaluation
    depth = 80  # at most this many moves in a playout
    exploration = 0.3  # UCB1's constant below the root (rewards are chances, in [0, 1])

    def __init__(
        self,
        game: Game | None = None,
        iterations: int | None = None,
        depth: int | None = None,
        exploration: float | None = None,
        turns: int | None = None,
    ) -> None:
        super().__init__(game)
        if turns is not None:
            self.turns = turns
        if iterations is not None:
            self.iterations = iterations
        if depth is not None:
            self.depth = depth
        if exploration is not None:
            self.exploration = exploration
        self.last_iterations = 0  # what the last choice spent (0: forced, no search)

    def choose(self, view: dict | None, legal_actions: list[dict], rng: RandomSource) -> dict:
        """Return the legal action the search rates best (it alone, if forced)."""
        self.last_iterations = 0
        if len(legal_actions) == 1:
            return legal_actions[0]
        if view is None:  # needs_view is True: a driver passes a view (one test per search)
            raise TypeError("a search needs the seat's view")
        seat = view["seat"]
        race = [(action, _Node(seat)) for action in legal_actions]
        stages = max(1, math.ceil(math.log2(len(race))))
        budget, spent = self.iterations, 0
        for stage in range(stages):
            rounds = max(1, (budget - spent) // ((stages - stage) * len(race)))
            for _ in range(rounds):
                deal = self.game.sample_state(view, rng)
                mark = rng.getstate()
                for action, node in race:
                    rng.setstate(mark)  # the same playout luck after every action
                    self._iterate(deal.copy(), action, node, seat, rng)
                spent += len(race)
            race.sort(key=lambda entry: -entry[1].total)  # stable: ties keep legal order
            race = race[: max(1, (len(race) + 1) // 2)] if stage < stages - 1 else race[:1]
        self.last_iterations = spent
        return race[0][0]

    def _iterate(self, state: State, action: dict, node: _Node, me: int, rng: RandomSource) -> None:
        """Play the root ``action``, walk down the tree, expand, play out, back-propagate.

        The playout ends with the game, or once the bot has played ``turns`` more turns
        (a turn: its moves in a row, until another seat moves), or after ``depth``
        moves: every line is judged at the same point of the round.
        """
        state.apply(me, action)
        path = [node]
        game = self.game
        in_tree, mine, passes = True, True, 0
        for _ in range(self.depth):
            if state.is_over():
                break
            seat, legal = _mover(state, rng)
            if seat == me:
                mine = True
            elif seat is not None and mine:
                mine, passes = False, passes + 1
                if passes > self.turns:
                    break
            if seat is None:
                action = legal[rng.randrange(len(legal))]
            elif len(legal) == 1:
                action = legal[0]
            elif seat != me or not in_tree:
                action = game.rollout_action(state, seat, legal, rng)
            else:
                node, action = self._select(node, seat, legal, state, rng)
                path.append(node)
                in_tree = node.visits > 0
            state.apply(seat, action)
        rewards = game.evaluate(state)
        for visited in path:
            visited.visits += 1
            visited.total += rewards[visited.seat]

    def _select(
        self, node: _Node, seat: int, legal: list[dict], state: State, rng: RandomSource
    ) -> tuple[_Node, dict]:
        """Return the child of ``node`` to walk to and its action: a new one if any
        action is untried (the policy's favourite first), else UCB1 over availability."""
        children = node.children
        untried, chosen, best = [], None, -1.0
        for candidate in legal:
            child = children.get(action_key(seat, candidate))
            if child is None:
                untried.append(candidate)
                continue
            child.avail += 1
            value = child.total / child.visits + self.exploration * math.sqrt(
                math.log(child.avail) / child.visits
            )
            if value > best:
                chosen, best = (child, candidate), value
        if untried:
            candidate = self.game.rollout_action(state, seat, untried, rng)
            child = children[action_key(seat, candidate)] = _Node(seat)
            child.avail = 1
            return child, candidate
        # legal is not empty and every child tried has a UCB value >= 0 > best's start:
        # chosen is set (a check would cost a step of every tree walk)
        return chosen  # type: ignore[return-value]


def _mover(state: State, rng: RandomSource) -> tuple[int | None, list[dict]]:
    """Return who acts next and their legal actions: a seat, or the referee (None)."""
    movers = state.to_move()
    if movers:
        seat = movers[0] if len(movers) == 1 else movers[rng.randrange(len(movers))]
        return seat, state.legal_actions(seat)
    legal = state.legal_actions(None)
    if not legal:
        raise RuntimeError("nobody may act and no timer runs: the game is stuck")
    return None, legal
