"""The device's signed cookies: which device this is, and which participant it holds.

Both cookies are signed (Django's signing, keyed by SECRET_KEY), HttpOnly and
SameSite=Lax. Views read them from the request; the WebSocket consumer reads them
from the ASGI scope, through the same functions.
"""

import re
import secrets
from collections.abc import Mapping

from django.conf import settings
from django.core import signing
from django.http.response import HttpResponseBase
from django.utils import translation
from django.utils.crypto import salted_hmac

from classroom.models import JoinRequest, Participant

DEVICE_SALT = "classroom.device"
STUDENT_SALT = "classroom.student"
DEVICE_MAX_AGE = 365 * 24 * 3600


def _unsign(cookies: Mapping[str, str], name: str, salt: str, max_age: int) -> str | None:
    """Return a signed cookie's value from a cookie mapping, or None when absent or forged."""
    value = cookies.get(name)
    if not value:
        return None
    try:
        return _signer(name, salt).unsign(value, max_age=max_age)
    except signing.BadSignature:
        return None


def _signer(name: str, salt: str) -> signing.TimestampSigner:
    """Return the signer of one cookie (SECRET_KEY, salted by the cookie's purpose)."""
    return signing.TimestampSigner(salt=f"{salt}:{name}")


def _set(response: HttpResponseBase, name: str, value: str, salt: str, max_age: int) -> None:
    """Set a signed, HttpOnly, SameSite=Lax cookie."""
    response.set_cookie(
        name,
        _signer(name, salt).sign(value),
        max_age=max_age,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )


def device_id_from(cookies: Mapping[str, str]) -> str | None:
    """Return the device id held by the cookies, if any."""
    return _unsign(cookies, settings.DEVICE_COOKIE_NAME, DEVICE_SALT, DEVICE_MAX_AGE)


def participant_id_from(cookies: Mapping[str, str]) -> int | None:
    """Return the participant id held by the cookies, if any."""
    value = _unsign(
        cookies, settings.STUDENT_COOKIE_NAME, STUDENT_SALT, settings.STUDENT_COOKIE_MAX_AGE
    )
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def new_device_id() -> str:
    """Return a fresh random device id."""
    return secrets.token_hex(16)


def set_device_cookie(response: HttpResponseBase, device_id: str) -> None:
    """Store the device id on the device."""
    _set(response, settings.DEVICE_COOKIE_NAME, device_id, DEVICE_SALT, DEVICE_MAX_AGE)


def set_student_cookie(response: HttpResponseBase, participant: Participant) -> None:
    """Store the student's participant on the device."""
    _set(
        response,
        settings.STUDENT_COOKIE_NAME,
        str(participant.pk),
        STUDENT_SALT,
        settings.STUDENT_COOKIE_MAX_AGE,
    )


def current_participant(cookies: Mapping[str, str]) -> Participant | None:
    """Return the Participant the cookies hold (kicked or not), or None."""
    participant_id = participant_id_from(cookies)
    if participant_id is None:
        return None
    return (
        Participant.objects.select_related("session", "session__school_class")
        .filter(pk=participant_id)
        .first()
    )


def chosen_language(cookies: Mapping[str, str], default: str) -> str:
    """Return the language the device chose (Django's language cookie, set by the
    language switch), else ``default`` (a student's: the session's language)."""
    chosen = cookies.get(settings.LANGUAGE_COOKIE_NAME, "")
    if chosen:
        try:
            return translation.get_supported_language_variant(chosen)
        except LookupError:
            pass
    return default


SEAT_TOKEN_SALT = "classroom.seat-token"


def seat_token(participant: Participant) -> str:
    """Return a signed token naming the participant, for programs (``POST /join/``)."""
    return signing.dumps({"participant": participant.pk}, salt=SEAT_TOKEN_SALT, compress=True)


JOIN_REQUEST_SALT = "classroom.join-request"


def join_request_token(join_request: JoinRequest) -> str:
    """Return a signed token naming a join request, for programs to poll its answer."""
    return signing.dumps(join_request.pk, salt=JOIN_REQUEST_SALT)


def join_request_from_token(token: str) -> int | None:
    """Return the join request id a token names, or None when forged or old."""
    try:
        return int(
            signing.loads(token, salt=JOIN_REQUEST_SALT, max_age=settings.STUDENT_COOKIE_MAX_AGE)
        )
    except (signing.BadSignature, TypeError, ValueError):
        return None


def participant_from_token(token: str) -> Participant | None:
    """Return the Participant a seat token names (kicked or not), or None when forged or old."""
    try:
        data = signing.loads(token, salt=SEAT_TOKEN_SALT, max_age=settings.STUDENT_COOKIE_MAX_AGE)
        participant_id = int(data["participant"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None
    return (
        Participant.objects.select_related("session", "session__school_class")
        .filter(pk=participant_id)
        .first()
    )


def address_hash(session_id: int, address: str) -> str:
    """Return the network address as an HMAC keyed by SECRET_KEY and the session.

    The address itself is never stored: the hash only tells whether two joins of the
    same session came from the same address, and means nothing in another session.
    """
    if not address:
        return ""
    return salted_hmac(f"classroom.address:{session_id}", address, algorithm="sha256").hexdigest()


# (pattern in the User-Agent, family), first match wins: Edge and Opera also say Chrome,
# Chrome also says Safari.
_BROWSERS = [
    (r"Edg(e|A|iOS)?/", "Edge"),
    (r"OPR/|Opera", "Opera"),
    (r"SamsungBrowser/", "Samsung Internet"),
    (r"Firefox/|FxiOS/", "Firefox"),
    (r"Chrome/|CriOS/|Chromium/", "Chrome"),
    (r"Safari/", "Safari"),
]
_SYSTEMS = [
    (r"CrOS", "ChromeOS"),
    (r"Android", "Android"),
    (r"iPad", "iPad"),
    (r"iPhone|iPod", "iPhone"),
    (r"Windows", "Windows"),
    (r"Macintosh|Mac OS X", "Mac"),
    (r"Linux", "Linux"),
]


def _family(user_agent: str, table: list[tuple[str, str]]) -> str:
    return next((name for pattern, name in table if re.search(pattern, user_agent)), "")


def device_label(device_id: str, user_agent: str) -> str:
    """Return a short label of a device for the teacher: "3fa1 · Firefox, Android".

    Four characters of an HMAC of the device id (the same device always shows the
    same ones, and they reveal nothing of the id) and the browser's family and system.
    """
    tag = salted_hmac("classroom.device-label", device_id, algorithm="sha256").hexdigest()[:4]
    user_agent = (user_agent or "")[:512]
    browser = ", ".join(
        part for part in (_family(user_agent, _BROWSERS), _family(user_agent, _SYSTEMS)) if part
    )
    return f"{tag} · {browser}" if browser else tag
