"""A small seeded random generator whose whole state is one integer (SplitMix64).

The state fits in JSON, so a saved game resumes with exactly the same shuffles,
on every Python version.
"""

MASK = (1 << 64) - 1


class Rng:
    """Generate pseudo-random numbers from a 64-bit state."""

    __slots__ = ("state",)

    def __init__(self, seed):
        self.state = int(seed) & MASK

    def next(self):
        """Return the next 64-bit number and advance the state."""
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n):
        """Return an integer in ``range(n)``."""
        return self.next() % n

    def shuffle(self, items):
        """Shuffle ``items`` in place (Fisher-Yates).

        ``next`` written out in the loop: a shuffle is most of a deal's time, and the
        numbers drawn are the same."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            state = z = (state + 0x9E3779B97F4A7C15) & MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            j = (z ^ (z >> 31)) % (i + 1)
            items[i], items[j] = items[j], items[i]
        self.state = state
