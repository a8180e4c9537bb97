"""What a process keeps of rows that seldom change (a session's class and teacher, a
game's lesson links, the lesson cards it sent), so that a move does not read them again:
each kept value is read again once it expires, or once ``forget`` (a signal receiver)
says the rows it came from changed. At most ``most`` values are kept; past that, all are
forgotten at once (they are read again as asked)."""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

Value = TypeVar("Value")


class Kept(Generic[Value]):
    """Values kept by key for ``seconds()`` (None: until forgotten)."""

    def __init__(self, seconds: Callable[[], float] | None = None, most: int = 4096) -> None:
        self.seconds = seconds
        self.most = most
        self._values: dict[Hashable, tuple[float | None, Value]] = {}

    def get(self, key: Hashable, read: Callable[[], Value]) -> Value:
        """Return the value kept for ``key``, or ``read()`` it and keep it."""
        now = time.monotonic()
        kept = self._values.get(key)
        if kept is not None and (kept[0] is None or kept[0] > now):
            return kept[1]
        value = read()
        if len(self._values) >= self.most:
            self._values.clear()
        until = now + self.seconds() if self.seconds is not None else None
        self._values[key] = (until, value)
        return value

    def forget(self, **kwargs: Any) -> None:
        """Forget every kept value (a signal receiver: the rows they came from changed)."""
        self._values.clear()
