"""Join codes: six characters from an alphabet without look-alikes."""

import re
import secrets

from classroom.models import ClassSession

# No 0/O, no 1/I/L: a code read off a projector is typed right the first time.
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
MAX_TRIES = 100

_IGNORED = re.compile(r"[\s\-]+")


def generate_code() -> str:
    """Return a random join code (not checked for uniqueness)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(raw: str) -> str:
    """Return a typed code upper-cased, with spaces and dashes removed."""
    return _IGNORED.sub("", raw or "").upper()


def is_well_formed(code: str) -> bool:
    """Tell whether a normalized code could have been generated."""
    return len(code) == CODE_LENGTH and all(char in ALPHABET for char in code)


def new_open_session_code() -> str:
    """Return a join code that no open (non-finished) session uses."""
    open_sessions = ClassSession.objects.exclude(state=ClassSession.State.FINISHED)
    for _ in range(MAX_TRIES):
        code = generate_code()
        if not open_sessions.filter(join_code=code).exists():
            return code
    raise RuntimeError("could not find a free join code")
