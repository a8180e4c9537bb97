"""Count wrong join codes per client in Django's cache, so codes cannot be guessed."""

from django.conf import settings
from django.core.cache import cache

WINDOW_SECONDS = 60


def client_ip(request) -> str:
    """Return the client's address as the server saw it."""
    return request.META.get("REMOTE_ADDR", "") or "unknown"


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
    """Forget the client's wrong codes."""
    cache.delete(_key(ip))
