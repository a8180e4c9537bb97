"""A small seeded random generator whose whole state is one integer (SplitMix64).

The state fits in JSON, so a saved game resumes with exactly the same shuffles,
on every Python version.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable

    # ``_packing``'s constants: a 1 in each lane, k * GAMMA in lane k, the lanes' mask, and
    # the unpacker of the lanes' low 64 bits
    _Packing = tuple[int, int, int, Callable[[bytes], tuple[int, ...]]]

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15  # the step of the state
MIX1, MIX2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
LANE = 128  # bits per number in a shuffle's packed integer: a 64-bit product fits
SMALL = 8  # a shuffle of fewer items draws one number at a time (packing costs more)


class RandomSource(Protocol):
    """The generator a driver hands to bots and searches: a ``random.Random`` seeded by
    the caller (the rules never import ``random``). Only the methods they use."""

    def random(self) -> float: ...

    def randrange(self, stop: int, /) -> int: ...

    def getrandbits(self, k: int, /) -> int: ...

    def shuffle(self, x: list, /) -> None: ...

    def getstate(self) -> tuple: ...

    def setstate(self, state: tuple, /) -> None: ...


class Rng:
    """Generate pseudo-random numbers from a 64-bit state."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = int(seed) & MASK

    def next(self) -> int:
        """Return the next 64-bit number and advance the state."""
        self.state = z = (self.state + GAMMA) & MASK
        z = ((z ^ (z >> 30)) * MIX1) & MASK
        z = ((z ^ (z >> 27)) * MIX2) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return an integer in ``range(n)``."""
        return self.next() % n

    def shuffle(self, items: list) -> None:
        """Shuffle ``items`` in place (Fisher-Yates, from the last item down).

        A shuffle is most of a deal's time: the numbers it needs are drawn at once
        (``draws``), the same as ``next`` would give one by one."""
        n = len(items)
        if n < 2:
            return
        i = n  # one past the item placed: its number of choices, with no sum per item
        for draw in self.draws(n - 1):
            j = draw % i
            i -= 1
            items[i], items[j] = items[j], items[i]

    def shuffle_in(self, items: list, new: Sequence) -> None:
        """Put each of ``new`` at a random place in ``items``, the ends included.

        When nobody knows the order of ``items`` (a shuffled deck, unseen), every order
        of the whole comes out as likely as with ``items += new`` and a shuffle: a
        uniform order of n items with one more at a uniform place of the n + 1 is a
        uniform order of n + 1. It costs a draw per new item, not one per item."""
        size = len(items)
        for item, draw in zip(new, self.draws(len(new)), strict=True):
            size += 1
            items.insert(draw % size, item)

    def draws(self, count: int) -> Sequence[int]:
        """Return the next ``count`` numbers of ``next`` and advance the state past them.

        SplitMix64's k-th state is ``state + k * GAMMA``, so every number can be mixed at
        once: each sits in its own 128-bit lane of one big integer, where a shift, a
        mask and a 64-bit product stay inside the lane. A few operations on that integer
        replace ten per number (much slower one by one in Python)."""
        if count < SMALL:
            return [self.next() for _ in range(count)]
        state = self.state
        self.state = (state + count * GAMMA) & MASK
        ones, steps, lanes, unpack = _packing(count)
        z = (state * ones + steps) & lanes
        z = ((z ^ (z >> 30)) & lanes) * MIX1 & lanes
        z = ((z ^ (z >> 27)) & lanes) * MIX2 & lanes
        # no mask after the last step: the next lane's bits it shifts in land in this
        # lane's high half, which ``unpack`` skips
        z ^= z >> 31
        return unpack(z.to_bytes(count * LANE // 8, "little"))


_PACKINGS: dict[int, _Packing] = {}


def _packing(count: int) -> _Packing:
    """Return the constants that mix ``count`` numbers at once (made once per count):
    a 1 in each lane, k * GAMMA in lane k (from 1), each lane's mask, and an unpacker
    of the lanes' low 64 bits."""
    packing = _PACKINGS.get(count)
    if packing is None:
        # each lane's bytes laid end to end: linear, where a sum of shifted numbers is not
        lane = LANE // 8
        ones = int.from_bytes((1).to_bytes(lane, "little") * count, "little")
        steps = int.from_bytes(
            b"".join(((k + 1) * GAMMA).to_bytes(lane, "little") for k in range(count)), "little"
        )
        unpack = struct.Struct(f"<{'Q8x' * count}").unpack
        packing = _PACKINGS[count] = (ones, steps, MASK * ones, unpack)
    return packing
