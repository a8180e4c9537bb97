"""Nickname rules: length, whitespace, uniqueness key and refused words."""

import re
import unicodedata
from functools import cache
from pathlib import Path

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

MIN_LENGTH = 2
MAX_LENGTH = 20
WORDS_DIR = Path(__file__).resolve().parent / "refused_words"

# Digits and symbols that stand in for letters in disguised insults.
_LEET = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
)
_WORD = re.compile(r"\w+")


def normalize_nickname(raw: str) -> str:
    """Return a nickname trimmed, with inner whitespace collapsed to one space."""
    return " ".join(unicodedata.normalize("NFC", raw or "").split())


def nickname_key(nickname: str) -> str:
    """Return the key two nicknames share when they differ only by case."""
    return normalize_nickname(nickname).casefold()


def _fold(text: str) -> str:
    """Case-fold, drop accents and undo digit-for-letter tricks."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return bare.translate(_LEET)


@cache
def refused_words() -> frozenset[str]:
    """Return every language's refused words, folded (classrooms mix languages)."""
    words = set()
    for path in sorted(WORDS_DIR.glob("*.txt")):
        for raw in path.read_text(encoding="utf-8").splitlines():
            word = raw.strip()
            if word and not word.startswith("#"):
                words.add(_fold(word))
    return frozenset(words)


def contains_refused_word(nickname: str) -> bool:
    """Tell whether a word of the nickname, or the whole of it, is refused."""
    folded = _fold(nickname)
    words = _WORD.findall(folded)
    refused = refused_words()
    joined = "".join(words)
    return joined in refused or any(word in refused for word in words)


def validate_nickname(raw: str) -> str:
    """Return the normalized nickname, or raise ValidationError saying what is wrong."""
    nickname = normalize_nickname(raw)
    if len(nickname) < MIN_LENGTH:
        raise ValidationError(
            _("A nickname needs at least %(min)d characters.") % {"min": MIN_LENGTH},
            code="too_short",
        )
    if len(nickname) > MAX_LENGTH:
        raise ValidationError(
            _("A nickname can have at most %(max)d characters.") % {"max": MAX_LENGTH},
            code="too_long",
        )
    if contains_refused_word(nickname):
        raise ValidationError(
            _("This nickname is not allowed. Please choose a friendly one."),
            code="refused",
        )
    return nickname
