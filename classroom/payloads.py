"""JSON from the outside world (a program's join request, a socket's message), parsed
with limits, so that hostile input gets a clear refusal instead of crashing a handler."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

# A protocol message or a join request is a few hundred bytes; an action is a flat
# object of short fields. These limits leave room to spare.
MAX_MESSAGE_BYTES = 16 * 1024
MAX_DEPTH = 8


class BadPayload(ValueError):
    """The input is not JSON within the limits: ``reason`` is "too_large", "too_deep"
    or "not_json"."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def depth(value: Any) -> int:
    """Return how deeply lists and objects nest in a JSON value (a scalar is 0).

    Iterative, so a value nested deeper than Python's recursion limit is measured too.
    """
    deepest = 0
    pending = [(value, 0)]
    while pending:
        item, level = pending.pop()
        children: Iterable[Any]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            deepest = max(deepest, level)
            continue
        deepest = max(deepest, level + 1)
        pending.extend((child, level + 1) for child in children)
    return deepest


def parse(
    data: str | bytes | None, max_bytes: int = MAX_MESSAGE_BYTES, max_depth: int = MAX_DEPTH
) -> Any:
    """Parse JSON text of at most max_bytes nesting at most max_depth; raise BadPayload."""
    raw = data or b""
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > max_bytes:
        raise BadPayload("too_large")
    try:
        value = json.loads(raw)
    except RecursionError as error:  # nested past the decoder's own limit
        raise BadPayload("too_deep") from error
    except (ValueError, TypeError) as error:
        raise BadPayload("not_json") from error
    if depth(value) > max_depth:
        raise BadPayload("too_deep")
    return value
