"""Count join attempts per client address in Django's cache.

Wrong codes: ``JOIN_RATE_LIMIT`` a minute (so codes cannot be guessed).

Joins with a valid code: at most ``JOINS_PER_BURST`` in ``JOIN_BURST_SECONDS`` and
``JOINS_PER_MINUTE`` in a minute from one address (settings, read at each join so that
an administrator's values and the tests' overrides apply; docs/ops.md). A school puts a
whole class behind one NAT address: thirty students pressing "Join" in the same second
get fifteen seats at once and the rest after a few seconds' wait, so the class is in
within half a minute; a script gets fifteen, then a trickle that the teacher sees on the
dashboard (and the cap of students per address asks the teacher from then on).
"""

import contextlib

from django.conf import settings
from django.core.cache import cache

WINDOW_SECONDS = 60


def client_ip(request) -> str:
    """Return the client's address as the server saw it."""
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def login_client_ip(request) -> str | None:
    """Return the client's address for django-axes, None when the server saw none:
    axes stores it in an address column, where PostgreSQL refuses a word."""
    return request.META.get("REMOTE_ADDR") or None


def _key(ip: str) -> str:
    return f"classroom:join-wrong-codes:{ip}"


def is_blocked(ip: str) -> bool:
    """Tell whether the client used up its wrong codes for this minute."""
    return (cache.get(_key(ip)) or 0) >= settings.JOIN_RATE_LIMIT


def record_wrong_code(ip: str) -> None:
    """Count one wrong code; the count expires a minute after the first."""
    key = _key(ip)
    if cache.add(key, 1, WINDOW_SECONDS):
        return
    try:
        cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, WINDOW_SECONDS)


def reset(ip: str) -> None:
    """Forget the client's wrong codes and joins."""
    cache.delete(_key(ip))
    reset_joins(ip)


def _count(key: str, window: int) -> int:
    """Add one to a counter that expires ``window`` seconds after its first count."""
    if cache.add(key, 1, window):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, window)
        return 1


def join_wait_seconds(ip: str) -> int:
    """Count one join with a valid code from the address; return 0 when it may go on,
    else the seconds to wait (the count is then not kept, so waiting always works)."""
    burst_key = f"classroom:joins-burst:{ip}"
    minute_key = f"classroom:joins-minute:{ip}"
    burst_seconds = settings.JOIN_BURST_SECONDS
    if _count(burst_key, burst_seconds) > settings.JOINS_PER_BURST:
        _uncount(burst_key)
        return burst_seconds
    if _count(minute_key, WINDOW_SECONDS) > settings.JOINS_PER_MINUTE:
        _uncount(minute_key)
        _uncount(burst_key)
        return WINDOW_SECONDS
    return 0


def _uncount(key: str) -> None:
    with contextlib.suppress(ValueError):  # expired meanwhile
        cache.decr(key)


def reset_joins(ip: str) -> None:
    """Forget the address's joins (tests, and an admin who lets a class in)."""
    cache.delete_many([f"classroom:joins-burst:{ip}", f"classroom:joins-minute:{ip}"])
