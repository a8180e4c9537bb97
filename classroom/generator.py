"""Generated nicknames: two friendly words (an adjective and an animal) in the session's
language, from the word lists in ``classroom/nickname_words/<language>.json``."""

import json
import secrets
from functools import cache
from pathlib import Path

from classroom.nicknames import nickname_key, validate_nickname

WORDS_DIR = Path(__file__).resolve().parent / "nickname_words"
FALLBACK_LANGUAGE = "en"


@cache
def word_lists(language: str) -> dict:
    """Return the language's word lists: ``adjectives``, ``animals`` and their ``order``."""
    path = WORDS_DIR / f"{language[:2]}.json"
    if not path.exists():
        path = WORDS_DIR / f"{FALLBACK_LANGUAGE}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def compose(language: str, adjective: str, animal: str) -> str:
    """Put the two words in the language's order ("Swift Otter", "Nutria Veloz")."""
    if word_lists(language)["order"] == "animal adjective":
        return f"{animal} {adjective}"
    return f"{adjective} {animal}"


def all_nicknames(language: str) -> list[str]:
    """Return every nickname the language's lists can make."""
    words = word_lists(language)
    return [compose(language, a, b) for a in words["adjectives"] for b in words["animals"]]


def generate_nickname(language: str, taken: set[str]) -> str | None:
    """Return a random generated nickname whose key is not in ``taken``, or None when
    every one is taken (the lists make hundreds; a session has at most 60 students)."""
    words = word_lists(language)
    for _attempt in range(20):
        name = compose(
            language, secrets.choice(words["adjectives"]), secrets.choice(words["animals"])
        )
        if nickname_key(name) not in taken:
            return validate_nickname(name)
    free = [name for name in all_nicknames(language) if nickname_key(name) not in taken]
    return validate_nickname(secrets.choice(free)) if free else None
