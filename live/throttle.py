"""Per-socket limits on what a client may ask of the server: a token bucket each.

A socket's messages are cheap to send and some are dear to answer (``resync`` rebuilds
and sends the whole table): without a limit one client could make the server send
thousands of times what it received.
"""

from __future__ import annotations

import time
from collections.abc import Callable

# Any message: a person taps a few times a second at most, a client pings every few
# seconds; a burst covers a reconnect's catching up.
MESSAGES_PER_SECOND = 10.0
MESSAGE_BURST = 40
# ``resync``: a client asks again after it missed a version, rarely twice in a row.
RESYNCS_PER_SECOND = 0.5
RESYNC_BURST = 3


class Bucket:
    """Allow ``burst`` takes at once, refilled at ``per_second``."""

    def __init__(
        self, per_second: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.per_second, self.burst, self.clock = per_second, burst, clock
        self.tokens, self.stamp = float(burst), clock()

    def take(self) -> bool:
        """Take one token if there is one; tell whether there was."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.per_second)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
