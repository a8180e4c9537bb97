"""The device's signed cookies: which device this is, and which participant it holds.

Both cookies are signed (Django's signing, keyed by SECRET_KEY), HttpOnly and
SameSite=Lax. Views read them from the request; the WebSocket consumer reads them
from the ASGI scope, through the same functions.
"""

import secrets

from django.conf import settings
from django.core import signing
from django.utils import translation

DEVICE_SALT = "classroom.device"
STUDENT_SALT = "classroom.student"
DEVICE_MAX_AGE = 365 * 24 * 3600


def _unsign(cookies, name: str, salt: str, max_age: int):
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


def _set(response, name: str, value: str, salt: str, max_age: int) -> None:
    """Set a signed, HttpOnly, SameSite=Lax cookie."""
    response.set_cookie(
        name,
        _signer(name, salt).sign(value),
        max_age=max_age,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )


def device_id_from(cookies) -> str | None:
    """Return the device id held by the cookies, if any."""
    return _unsign(cookies, settings.DEVICE_COOKIE_NAME, DEVICE_SALT, DEVICE_MAX_AGE)


def participant_id_from(cookies) -> int | None:
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


def set_device_cookie(response, device_id: str) -> None:
    """Store the device id on the device."""
    _set(response, settings.DEVICE_COOKIE_NAME, device_id, DEVICE_SALT, DEVICE_MAX_AGE)


def set_student_cookie(response, participant) -> None:
    """Store the student's participant on the device."""
    _set(
        response,
        settings.STUDENT_COOKIE_NAME,
        str(participant.pk),
        STUDENT_SALT,
        settings.STUDENT_COOKIE_MAX_AGE,
    )


def current_participant(cookies):
    """Return the Participant the cookies hold (kicked or not), or None."""
    from classroom.models import Participant

    participant_id = participant_id_from(cookies)
    if participant_id is None:
        return None
    return (
        Participant.objects.select_related("session", "session__school_class")
        .filter(pk=participant_id)
        .first()
    )


def chosen_language(cookies, default: str) -> str:
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


def seat_token(participant) -> str:
    """Return a signed token naming the participant, for programs (``POST /join/``)."""
    return signing.dumps({"participant": participant.pk}, salt=SEAT_TOKEN_SALT, compress=True)


def participant_from_token(token: str):
    """Return the Participant a seat token names (kicked or not), or None when forged or old."""
    from classroom.models import Participant

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
