"""Count join attempts per device and per client address in Redis.

Wrong codes, typed on the join form, sent to the join API or to a play socket, are
counted per device (its signed ``dp_device`` cookie; devices without one share a single
count per address) and per address: ``JOIN_RATE_LIMIT`` a minute for one device,
``JOIN_ADDRESS_RATE_LIMIT`` (higher) for one address, so a student typing codes wrong on
one phone does not lock out the school behind the same NAT address. An attempt is
counted before the code is looked up, in one Lua script on Redis (check and count at
once: concurrent wrong codes cannot slip past the limit), and given back when the code
was right. A count is a number kept for ``WINDOW_SECONDS`` and nothing else (docs/ops.md),
named by a keyed hash of the address, never the address itself: Redis, and the bundled
Redis's file on disk, hold no network address.

Joins with a valid code: at most ``JOINS_PER_BURST`` in ``JOIN_BURST_SECONDS`` and
``JOINS_PER_MINUTE`` in a minute from one address (settings, read at each join so that
an administrator's values and the tests' overrides apply; docs/ops.md). A school puts a
whole class behind one NAT address: thirty students pressing "Join" in the same second
get fifteen seats at once and the rest after a few seconds' wait, so the class is in
within half a minute; a script gets fifteen, then a trickle that the teacher sees on the
dashboard (and the cap of students per address asks the teacher from then on).
"""

import redis
from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.crypto import salted_hmac

WINDOW_SECONDS = 60


def client_ip(request: HttpRequest) -> str:
    """Return the client's address as the server saw it."""
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def login_client_ip(request: HttpRequest) -> str | None:
    """Return the client's address for django-axes, None when the server saw none:
    axes stores it in an address column, where PostgreSQL refuses a word."""
    return request.META.get("REMOTE_ADDR") or None


# KEYS: the device's count, the address's count. ARGV: their limits, the window.
# Refuses (0) when either is used up, else counts the attempt on both (1).
_TAKE = """
local device = tonumber(redis.call('GET', KEYS[1]) or '0')
local address = tonumber(redis.call('GET', KEYS[2]) or '0')
if device >= tonumber(ARGV[1]) or address >= tonumber(ARGV[2]) then
  return 0
end
for _, key in ipairs(KEYS) do
  if redis.call('INCR', key) == 1 then
    redis.call('EXPIRE', key, ARGV[3])
  end
end
return 1
"""
# Gives one attempt back on both counts, never creating a count without its expiry.
_GIVE_BACK = """
for _, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') > 0 then
    redis.call('DECR', key)
  end
end
return 1
"""


def _address(ip: str) -> str:
    """Return the name the counts give an address: a keyed hash of it."""
    return salted_hmac("classroom.ratelimit", ip, algorithm="sha256").hexdigest()[:32]


def _keys(ip: str, device_id: str | None) -> list[str]:
    address = _address(ip)
    device = f"device:{device_id}" if device_id else f"no-device:{address}"
    return [
        cache.make_and_validate_key(f"classroom:wrong-codes:{device}"),
        cache.make_and_validate_key(f"classroom:wrong-codes:address:{address}"),
    ]


def join_keys(ip: str) -> tuple[str, str]:
    """Return the cache keys of an address's joins: its burst's, its minute's."""
    address = _address(ip)
    return f"classroom:joins-burst:{address}", f"classroom:joins-minute:{address}"


def _redis() -> redis.Redis:
    # The cache's own client and pool (its timeouts), for the scripts Django's API lacks;
    # the cache is Django's RedisCache (settings.CACHES), whose private client the stubs
    # do not know.
    return cache._cache.get_client(write=True)  # type: ignore[attr-defined]


def take_attempt(ip: str, device_id: str | None) -> bool:
    """Count one attempt at a code from this device and address; False when either has
    used up its wrong codes for the minute (then nothing is counted)."""
    limits = [settings.JOIN_RATE_LIMIT, settings.JOIN_ADDRESS_RATE_LIMIT, WINDOW_SECONDS]
    return bool(_redis().eval(_TAKE, 2, *_keys(ip, device_id), *limits))


def give_back(ip: str, device_id: str | None) -> None:
    """The code was right: it does not count as a wrong one."""
    _redis().eval(_GIVE_BACK, 2, *_keys(ip, device_id))


def reset(ip: str, device_id: str | None = None) -> None:
    """Forget the wrong codes of the address (and of the device), and its joins."""
    keys = _keys(ip, device_id) + _keys(ip, None)
    _redis().delete(*set(keys))
    reset_joins(ip)


# Adds one to a count that expires ARGV[1] seconds after its first; a count found with
# no expiry gets one. In one script: Django's incr asks whether the key exists, then
# increments, and a key that expired in between came back with no expiry, holding its
# address over the limit for good.
_COUNT = """
local count = redis.call('INCR', KEYS[1])
if count == 1 or redis.call('TTL', KEYS[1]) < 0 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
end
return count
"""


def _count(key: str, window: int) -> int:
    """Add one to a counter that expires ``window`` seconds after its first count."""
    return int(_redis().eval(_COUNT, 1, cache.make_and_validate_key(key), window))


def join_wait_seconds(ip: str) -> int:
    """Count one join with a valid code from the address; return 0 when it may go on,
    else the seconds to wait (the count is then not kept, so waiting always works)."""
    burst_key, minute_key = join_keys(ip)
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
    """Take one back from a count, never making a count without its expiry."""
    _redis().eval(_GIVE_BACK, 1, cache.make_and_validate_key(key))


def reset_joins(ip: str) -> None:
    """Forget the address's joins (tests, and an admin who lets a class in)."""
    cache.delete_many(join_keys(ip))
