"""Join codes: six characters from an alphabet without look-alikes, spelling no word."""

import re
import secrets
from functools import cache
from pathlib import Path

from classroom.models import ClassSession

# No 0/O, no 1/I/L: a code read off a projector is typed right the first time. A code
# typed in these letters is well formed (codes drawn before the vowels were left out too).
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
# What codes are drawn from: no vowel and no digit read as one (3 for E, 4 for A), so
# that a code shown to a class spells no word; 25 signs, 244 million codes.
DRAWN = "".join(char for char in ALPHABET if char not in "AEUY34")
CODE_LENGTH = 6
MAX_TRIES = 100
REFUSED_GROUPS = Path(__file__).resolve().parent / "refused_words" / "codes.txt"
# Digits read as letters when a code is checked against the refused groups.
_READ_AS = str.maketrans({"5": "S", "7": "T"})

_IGNORED = re.compile(r"[\s\-]+")


@cache
def refused_groups() -> frozenset[str]:
    """Return the letter groups no code may hold (refused_words/codes.txt)."""
    lines = REFUSED_GROUPS.read_text(encoding="utf-8").splitlines()
    return frozenset(line.split("#", 1)[0].strip().upper() for line in lines) - {""}


def spells_a_refused_group(code: str) -> bool:
    """Tell whether a code holds a group of refused_words/codes.txt, 5 read as S, 7 as T."""
    read = code.translate(_READ_AS)
    return any(group in code or group in read for group in refused_groups())


def generate_code() -> str:
    """Return a random join code that spells no refused group (not checked for
    uniqueness)."""
    while True:
        code = "".join(secrets.choice(DRAWN) for _ in range(CODE_LENGTH))
        if not spells_a_refused_group(code):
            return code


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
