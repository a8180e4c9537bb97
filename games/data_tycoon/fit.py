"""Fit the strong bot's evaluation (``search.WEIGHTS``) on friendly-bot games.

    python -m games.data_tycoon.fit [--games 3000] [--variant expert]

A development tool, not used in play (it needs numpy). It plays friendly-bot games of
2, 3 and 4 players, notes the evaluation's features of every seat at about one move in
twelve, and fits by conditional logistic regression (Newton's method, a little ridge)
which seat won: a seat's chance is the softmax over the seats of ``weights . features``,
with one set of weights at each of the three moments of ``search.WEIGHTS``, interpolated
in between. It learns from the first half of the games and prints the log-loss on the
other half (against the uniform guess), then the weights to paste into ``search.py``
(the deck full, half drawn, empty).
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import TYPE_CHECKING

import numpy as np

from games.data_tycoon import search
from games.engine.driver import play
from games.registry import get_game

if TYPE_CHECKING:
    from games.data_tycoon.rules import State

SAMPLE = 1 / 12  # share of the moves after which the features are noted
RIDGE = 1e-3
STEPS = 30


def samples(players: int, games: int, variant: str) -> list[tuple[float, list, list]]:
    """Return ``(left, features per seat, winners)`` noted in friendly-bot games."""
    game = get_game("data_tycoon")
    rows: list[tuple[float, list, list]] = []
    for seed in range(games):
        state = game.new_state(players, seed, variant, {"time_mode": "turns"})
        noted: list[tuple[float, list[list[float]]]] = []
        note = _Noter(state, noted, random.Random(-seed - 1))
        bots = [game.bot("heuristic") for _ in range(players)]
        play(state, bots, random.Random(seed), on_step=note)
        winners = state.result()["winners"]
        rows.extend((left, x, winners) for left, x in noted)
    return rows


class _Noter:
    """The driver's ``on_step``: note the features after about one move in twelve."""

    def __init__(
        self,
        state: State,
        noted: list[tuple[float, list[list[float]]]],
        rng: random.Random,
    ) -> None:
        self.state, self.noted, self.rng = state, noted, rng

    def __call__(self, seat, action, events):
        if not self.state.is_over() and self.rng.random() < SAMPLE:
            self.noted.append(search.snapshot(self.state))


def design(rows: list) -> tuple[np.ndarray, np.ndarray]:
    """Return the features spread over the three moments, and the winners' shares."""
    left = np.array([r[0] for r in rows])
    x = np.array([r[1] for r in rows], dtype=float)
    hats = np.stack(
        [np.clip((left - 0.5) * 2, 0, 1), 1 - np.abs(left - 0.5) * 2, np.clip(1 - left * 2, 0, 1)],
        axis=1,
    )
    z = np.einsum("nh,npf->npfh", hats, x).reshape(len(x), x.shape[1], -1)
    y = np.zeros(x.shape[:2])
    for i, (_left, _x, winners) in enumerate(rows):
        y[i, winners] = 1 / len(winners)
    return z, y


def _terms(z, y, w):
    """Return the gradient, the Hessian and the log-loss of the weights ``w``."""
    logits = z @ w
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    grad = np.einsum("np,npf->f", p - y, z)
    mean = np.einsum("np,npf->nf", p, z)
    hess = np.einsum("np,npf,npg->fg", p, z, z) - mean.T @ mean
    return grad, hess, -(y * np.log(p + 1e-12)).sum()


def fit(groups: list) -> np.ndarray:
    """Return the weights that best predict the winners of ``groups`` (one per table size)."""
    size = groups[0][0].shape[2]
    count = sum(len(z) for z, _y in groups)
    w = np.zeros(size)
    for _ in range(STEPS):
        grad, hess = RIDGE * count * w, RIDGE * count * np.eye(size)
        for z, y in groups:
            g, h, _loss = _terms(z, y, w)
            grad, hess = grad + g, hess + h
        w -= np.linalg.solve(hess, grad)
    return w


def main(argv: list[str] | None = None) -> int:
    """Play, fit and print the log-loss and the weights."""
    parser = argparse.ArgumentParser(prog="python -m games.data_tycoon.fit", description=__doc__)
    parser.add_argument("--games", type=int, default=3000, help="games per table size")
    parser.add_argument("--variant", default="expert")
    args = parser.parse_args(argv)
    train, test = [], []
    for players in (2, 3, 4):
        rows = samples(players, args.games, args.variant)
        half = len(rows) // 2  # rows come game by game: the halves share no game but one
        train.append(design(rows[:half]))
        test.append((players, *design(rows[half:])))
    w = fit(train)
    for players, z, y in test:
        loss = _terms(z, y, w)[2] / len(z)
        sys.stdout.write(
            f"{players} players: log-loss {loss:.4f} on {len(z)} positions "
            f"(uniform guess {np.log(players):.4f})\n"
        )
    sys.stdout.write("WEIGHTS = {\n")
    for name, (full, half, empty) in zip(search.WEIGHTS, w.reshape(-1, 3), strict=True):
        sys.stdout.write(f'    "{name}": ({full:.3f}, {half:.3f}, {empty:.3f}),\n')
    sys.stdout.write("}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
