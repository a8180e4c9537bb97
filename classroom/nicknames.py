"""Nickname rules: what a nickname may contain, its uniqueness key, refused words, contact
details and the names of roles a student could pass for.

The rules and the reasons for them are in docs/nicknames.md.
"""

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import groupby, pairwise
from pathlib import Path

from confusable_homoglyphs.confusables import confusables_data
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

MIN_LENGTH = 2
MAX_LENGTH = 20
# Participant.nickname_key's max_length: a longer skeleton is shortened with a hash.
KEY_LENGTH = 40
WORDS_DIR = Path(__file__).resolve().parent / "refused_words"

# Characters that reorder the text around them: refused, since they make a nickname
# show as another ("\u202eecila" shows as "alice") and turn the text beside it around.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
# Invisible characters outside the format category (Unicode's Default_Ignorable_Code_Point
# letters and marks): Hangul fillers, the combining grapheme joiner, Khmer inherent
# vowels, Mongolian and other variation selectors. Removed like the format characters.
_INVISIBLE_RANGES = (
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFFA0, 0xFFA0),
    (0xE0100, 0xE01EF),
)
# Refused categories: control (other than whitespace), private use, unassigned, surrogate.
_REFUSED_CATEGORIES = {"Cc": "control", "Co": "unassigned", "Cn": "unassigned", "Cs": "unassigned"}
# More combining marks in a row than any of the classroom's scripts needs: "Zalgo" text,
# whose marks spill over the lines above and below on the projector.
MAX_MARKS_IN_A_ROW = 3

# Digits and symbols that stand in for letters. "1" and "|" may stand for "i" or "l":
# both readings are tried.
_LEET_I = str.maketrans(
    {
        "0": "o",
        "1": "i",
        "2": "z",
        "3": "e",
        "4": "a",
        "5": "s",
        "6": "b",
        "7": "t",
        "8": "b",
        "9": "g",
        "@": "a",
        "$": "s",
        "€": "e",
        "!": "i",
        "|": "i",
    }
)
_LEET_L = str.maketrans({"1": "l", "|": "l"})
_TOKEN = re.compile(r"(?:[^\W_]|[@$€!|])+")
# Three digits or more in a row are a number (a year, a score), not letters in disguise.
_NUMBER = re.compile(r"\d{3,}")
_DIGITS = re.compile(r"\d")
# A letter typed this many times in a row or more is a stretch ("Fuuuck", "бляяя"), even
# of a short word refused only whole; a doubled letter stretches only a word refused
# anywhere ("Fuuck"): "Penne" is not "pene", nor "Putte" "pute".
STRETCH = 3
_REPEATED = re.compile(rf"([^\W\d_])\1{{{STRETCH - 1},}}", re.IGNORECASE)

# Contact details: a phone number (more digits than this: "0612345678", "06 12 34 56 78"),
# an e-mail address ("ana@mail.ru") or a web address ("www.", "http", "lucas.com").
MAX_DIGITS = 5
_EMAIL = re.compile(r"[^\W_]\s?@\s?[^\W_][\w-]*(?:\.[\w-]+)*\.[^\W\d_]{2,}")
# Top-level domains that are no word a nickname ends with after a dot ("Ana.Es", "Leo.Me"
# and "Tom.De" are names).
_WEB = re.compile(
    r"https?|(?<![^\W_])www\.|[^\W_]\.(?:com|net|org|info|io|ru|рф|fr|uk|tv)(?![^\W_])"
)

# Impersonation: a role (classroom/refused_words/roles.txt) as the whole nickname, with
# digits and signs around it ("Bot 1", "Teacher2") and a leading article ("El Profe").
_ARTICLE = re.compile(r"^(?:the|el|la|le|l|los|las|les)[\W_]+", re.IGNORECASE)
_AROUND = re.compile(r"^[\W\d_]+|[\W\d_]+$")


def _invisible(char: str) -> bool:
    """Tell whether a character shows nothing and only shapes its neighbours, or nothing."""
    if char in BIDI_CONTROLS:
        return False
    if unicodedata.category(char) == "Cf":
        return True
    code = ord(char)
    return any(low <= code <= high for low, high in _INVISIBLE_RANGES)


def normalize_nickname(raw: str) -> str:
    """Return a nickname as shown: NFKC, invisible characters removed, whitespace collapsed.

    Direction controls, control characters and private-use or unassigned characters are
    left for validate_nickname to refuse with a reason.
    """
    text = raw or ""
    for _round in range(3):  # removing a character can let its neighbours compose
        normalized = unicodedata.normalize("NFKC", text)
        normalized = "".join(char for char in normalized if not _invisible(char))
        normalized = " ".join(normalized.split())
        if normalized == text:
            break
        text = normalized
    return text


@cache
def prototypes() -> dict[str, str]:
    """Return each confusable character's prototype, from Unicode's confusables table.

    confusable_homoglyphs stores confusables.txt as a symmetric graph: each line
    "source -> prototype" is an edge both ways. A source is one code point on one line,
    and a prototype is never a source. So a character with several partners, or inside a
    prototype of several characters, is a prototype. Of a pair that only has each other,
    the prototype is the one that is its own NFKC form, else the lower code point: any
    fixed choice gives the same keys.
    """
    marks = str.maketrans("", "", "\u200e\u200f")  # the table's display marks around RTL
    partners: dict[str, set[str]] = {}
    for char, entries in confusables_data.items():
        partners.setdefault(char.translate(marks), set()).update(
            entry["c"].translate(marks) for entry in entries
        )
    known = {char for node, others in partners.items() if len(node) > 1 for char in node}
    known |= {node for node, others in partners.items() if len(others) > 1}

    def is_prototype(char: str, other: str) -> bool:
        if (char in known) != (other in known):
            return char in known
        stable = unicodedata.normalize("NFKC", char) == char
        if stable != (unicodedata.normalize("NFKC", other) == other):
            return stable
        return char < other

    table = {}
    for char, others in partners.items():
        if len(char) != 1 or len(others) != 1:
            continue
        (other,) = others
        if len(other) > 1 or len(partners.get(other, ())) > 1 or is_prototype(other, char):
            table[char] = other
    return table


def skeleton(text: str) -> str:
    """Return Unicode's TR39 skeleton: NFD, each confusable mapped to its prototype, NFD."""
    table = prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(char, char) for char in decomposed))


def nickname_key(nickname: str) -> str:
    """Return the key two nicknames share when they look alike (unique in a session).

    Case-insensitive, then confusables folded: "Mallory", "MALLORY", "mal\u200blory" and
    "mallory" with a Cyrillic "a" share one key.
    """
    key = normalize_nickname(nickname).casefold()
    for _round in range(3):  # a prototype may be a capital ("0" looks like "O")
        folded = skeleton(key).casefold()
        if folded == key:
            break
        key = folded
    if len(key) > KEY_LENGTH:
        digest = hashlib.blake2b(key.encode(), digest_size=6).hexdigest()
        key = f"{key[: KEY_LENGTH - len(digest) - 1]}~{digest}"
    return key


# ---------------------------------------------------------------- refused words


def _prototype(char: str, table: dict[str, str]) -> str:
    """Return a character's prototype; a letter's digit prototype as the letter it stands
    for (Cyrillic be looks like "6", read "b")."""
    mapped = table.get(char, char)
    if char.isalpha() and mapped.isascii() and mapped.isdigit():
        return mapped.translate(_LEET_I)
    return mapped


def _fold_letters(text: str) -> str:
    """Case-fold, map look-alike letters of other scripts to their prototype, drop accents.

    ASCII is left as typed ("m" would become "rn", "1" would become "l"): the leetspeak
    readings below handle digits and symbols. A letter whose prototype is a digit is read
    as the letter that digit stands for (Cyrillic be, whose prototype is "6", is "b"), so
    that it stays a letter: three of them in a row are no number.
    """
    table = prototypes()
    text = unicodedata.normalize("NFKC", text).casefold()
    for _round in range(3):
        decomposed = unicodedata.normalize("NFD", text)
        mapped = "".join(
            char if char.isascii() or char == "€" else _prototype(char, table)
            for char in decomposed
            if not unicodedata.combining(char)
        )
        mapped = unicodedata.normalize("NFD", mapped).casefold()
        mapped = "".join(char for char in mapped if not unicodedata.combining(char))
        if mapped == text:
            break
        text = mapped
    return text


def _split_title_case(text: str) -> str:
    """Put a space before each capitalized word glued to the one before: "BigAss"."""
    chars = list(text)
    out = []
    for index, char in enumerate(chars):
        before = chars[index - 1] if index else ""
        after = chars[index + 1] if index + 1 < len(chars) else ""
        if before.islower() and char.isupper() and after.islower():
            out.append(" ")
        out.append(char)
    return "".join(out)


def _letters(token: str, reading: str) -> str:
    """Return a token's letters under one reading of its digits and symbols.

    A token of digits alone is a number ("Player 55"), unless it is one character
    between separators ("s h 1 t").
    """
    if len(token) > 1 and not any(char.isalpha() for char in token):
        return ""
    token = _NUMBER.sub("", token)
    if reading == "drop":
        return "".join(char for char in token if char.isalpha())
    if reading == "l":
        token = token.translate(_LEET_L)
    return "".join(char for char in token.translate(_LEET_I) if char.isalpha())


@dataclass(frozen=True)
class _Reading:
    """One way to read a nickname: its words, its chunks and its letters run together."""

    words: tuple[str, ...]  # what is matched as a whole word
    chunks: tuple[str, ...]  # what refused words are looked for in
    compact: str  # all letters, separators ignored (for phrases)
    bounds: tuple[int, ...]  # where each word starts and ends in compact


def _reading(text: str, reading: str) -> _Reading:
    """Read a nickname's words, chunks and letters with one reading of its digits."""
    tokens = [_letters(token, reading) for token in _TOKEN.findall(_fold_letters(text))]
    tokens = [token for token in tokens if token]
    # A separator between two words is ignored when one side is one or two letters:
    # "s.h.i.t", "sh it"; but "Kris Hit" is not read as "krishit".
    chunks: list[str] = []
    for index, token in enumerate(tokens):
        if chunks and (len(token) <= 2 or len(tokens[index - 1]) <= 2):
            chunks[-1] += token
        else:
            chunks.append(token)
    spelled, run = [], ""  # letters typed one by one: "a s s"
    for token in [*tokens, ""]:
        if len(token) == 1:
            run += token
            continue
        if len(run) >= 2:
            spelled.append(run)
        run = ""
    titled = _TOKEN.findall(_fold_letters(_split_title_case(unicodedata.normalize("NFKC", text))))
    words = {_letters(token, reading) for token in titled} | set(tokens) | set(chunks)
    words |= set(spelled) | {"".join(tokens)}
    bounds = [0]
    for token in tokens:
        bounds.append(bounds[-1] + len(token))
    return _Reading(tuple(sorted(words - {""})), tuple(chunks), "".join(tokens), tuple(bounds))


def _readings(text: str) -> list[_Reading]:
    kinds = ["i", "drop"] + (["l"] if any(char in text for char in "1|") else [])
    # A letter typed STRETCH times or more is also read once, before folding, so that a
    # letter that folds to several ("ы" looks like "ьı") is stretched too ("ебаныыый").
    # Digits are left as typed: "777" stays a number, not a "t".
    texts = [text, *{_REPEATED.sub(r"\1", text)} - {text}]
    return [_reading(one, kind) for one in texts for kind in kinds]


@dataclass(frozen=True)
class WordLists:
    """The refused and allowed words, folded like nicknames (docs/nicknames.md)."""

    anywhere: frozenset[str]  # refused wherever they appear
    whole: frozenset[str]  # refused only as a whole word
    phrases: frozenset[str]  # refused anywhere, separators and spaces ignored
    numbers: frozenset[str]  # refused in the nickname's letters and digits, no leetspeak
    allowed: frozenset[str]  # innocent words that contain a refused one
    symbols: frozenset[str]  # signs that are no letter (卐), refused anywhere
    roles: frozenset[str]  # the teacher's, an administrator's, the platform's, a bot's


def _entries(name: str) -> list[str]:
    """Return the entries of the lists whose file name matches, comments dropped."""
    entries = []
    for path in sorted(WORDS_DIR.glob(name)):
        for raw in path.read_text(encoding="utf-8").splitlines():
            entry = raw.split("#", 1)[0].strip()
            if entry:
                entries.append(entry)
    return entries


def _fold_entry(entry: str) -> str:
    return "".join(_letters(token, "i") for token in _TOKEN.findall(_fold_letters(entry)))


def _fold_number(text: str) -> str:
    return "".join(char for char in _fold_letters(text) if char.isalnum())


@cache
def word_lists() -> WordLists:
    """Load classroom/refused_words/ once (classrooms mix languages: all lists apply)."""
    anywhere, phrases, numbers, symbols = set(), set(), set(), set()
    for entry in _entries("*.anywhere.txt"):
        if _DIGITS.search(entry):
            numbers.add(_fold_number(entry))
        elif not _fold_entry(entry):
            symbols.add(_fold_letters(entry))
        elif " " in entry:
            phrases.add(_fold_entry(entry))
        else:
            anywhere.add(_fold_entry(entry))
    return WordLists(
        anywhere=frozenset(anywhere - {""}),
        whole=frozenset(_fold_entry(entry) for entry in _entries("*.whole.txt")) - {""},
        phrases=frozenset(phrases - {""}),
        numbers=frozenset(numbers - {""}),
        allowed=frozenset(_fold_entry(entry) for entry in _entries("allowed.txt")) - {""},
        symbols=frozenset(symbols - {""}),
        roles=frozenset(_fold_entry(entry) for entry in _entries("roles.txt")) - {""},
    )


def _runs(text: str) -> tuple[str, tuple[int, ...]]:
    """Return the text with each run of one letter squeezed to one, and the runs' lengths:
    "fuuuck" is ("fuck", (1, 3, 1, 1))."""
    runs = [(char, len(list(run))) for char, run in groupby(text)]
    return "".join(char for char, _count in runs), tuple(count for _char, count in runs)


@lru_cache(maxsize=4096)
def _squeezed(text: str) -> str:
    """Return the text with each run of one letter squeezed to one ("fuuuck": "fuck")."""
    return _runs(text)[0]


@cache
def _stretched(word: str) -> re.Pattern[str]:
    """Match the word with each of its letters typed as often as in it, or more."""
    letters, counts = _runs(word)
    body = "".join(
        f"{re.escape(char)}{{{count},}}" for char, count in zip(letters, counts, strict=True)
    )
    return re.compile(f"(?=({body}))")


@cache
def _by_runs(words: frozenset[str]) -> dict[str, list[tuple[str, tuple[int, ...]]]]:
    """Index words by their squeezed letters, with their runs' lengths."""
    index: dict[str, list[tuple[str, tuple[int, ...]]]] = {}
    for word in sorted(words):
        letters, counts = _runs(word)
        index.setdefault(letters, []).append((word, counts))
    return index


def _whole_in(word: str, words: frozenset[str]) -> str | None:
    """Return the entry the word is, its letters possibly stretched, or None.

    A run of letters stretches an entry's run when it is as long, or STRETCH or more
    letters and longer: "asss" is "ass", "бляяя" is "бля", but "penne" is not "pene".
    """
    if word in words:
        return word
    letters, counts = _runs(word)
    for entry, entry_counts in _by_runs(words).get(letters, ()):
        if all(
            typed == wanted or typed >= max(wanted, STRETCH)
            for typed, wanted in zip(counts, entry_counts, strict=True)
        ):
            return entry
    return None


def _spans(text: str, word: str) -> list[tuple[int, int]]:
    """Return where the word is in the text, each of its letters possibly repeated:
    "fuck" is in "fuuuck" and "fuuck", "bollocks" in "boooolllocks" (not in "bolocks")."""
    if _squeezed(word) not in _squeezed(text):
        return []
    return [match.span(1) for match in _stretched(word).finditer(text)]


def _found_in(text: str, words: frozenset[str], allowed: frozenset[str]) -> str | None:
    """Return a refused word found in text outside every allowed word, or None."""
    excused = [span for word in allowed for span in _spans(text, word)]
    for word in words:
        for start, end in _spans(text, word):
            if not any(low <= start and end <= high for low, high in excused):
                return word
    return None


def _phrase_in(reading: _Reading, phrases: frozenset[str]) -> str | None:
    """Return a refused phrase written as whole words ("Sieg Heil") or in one word
    ("xSiegHeilx"), or None: "Heidi Amina" does not hide "idi amin"."""
    bounds = reading.bounds
    for phrase in phrases:
        for start, end in _spans(reading.compact, phrase):
            if start in bounds and end in bounds:
                return phrase
            if any(low <= start and end <= high for low, high in pairwise(bounds)):
                return phrase
    return None


def refused_word_in(nickname: str) -> str | None:
    """Return the refused word (folded) that the nickname contains, or None."""
    lists = word_lists()
    folded = _fold_letters(nickname)
    for symbol in lists.symbols:
        if symbol in folded:
            return symbol
    number = _fold_number(nickname)
    for word in lists.numbers:
        if word in number:
            return word
    for reading in _readings(nickname):
        for word in reading.words:
            found = _whole_in(word, lists.whole)
            if found:
                return found
        for chunk in reading.chunks:
            found = _found_in(chunk, lists.anywhere, lists.allowed)
            if found:
                return found
        found = _phrase_in(reading, lists.phrases)
        if found:
            return found
    return None


def contains_refused_word(nickname: str) -> bool:
    """Tell whether the nickname contains a refused word, a refused name or a hate symbol."""
    return refused_word_in(nickname) is not None


def _bare_names(nickname: str) -> set[str]:
    """Return the nickname and what is left of it without the digits and signs around it
    and without a leading article: "The Bot #1" gives "The Bot #1", "The Bot", "Bot #1"
    and "Bot"."""
    names: set[str] = set()
    todo = [_split_title_case(nickname)]  # "TheTeacher" is "The Teacher"
    while todo:
        name = todo.pop()
        if name and name not in names:
            names.add(name)
            todo += [_AROUND.sub("", name), _ARTICLE.sub("", name, count=1)]
    return names


def role_in(nickname: str) -> str | None:
    """Return the role (folded) that the whole nickname names, or None.

    The role is the whole nickname, folded like a refused word (case, look-alikes,
    leetspeak, separators, stretched letters), with digits and signs around it and a
    leading article ignored: "Teacher", "Bot 1", "B0t-3", "El Profe"; but "Abbott",
    "Robotnik" and "Professor Oak" are other names.
    """
    roles = word_lists().roles
    table = prototypes()
    for name in _bare_names(nickname):
        # Look-alike capitals too: a Cyrillic capital te is a "T", its small letter is not.
        capitals = "".join(
            _prototype(char, table) if char.isalpha() and not char.isascii() else char
            for char in unicodedata.normalize("NFD", name)
        )
        for reading in [*_readings(name), *_readings(capitals)]:
            found = _whole_in(reading.compact, roles)
            if found:
                return found
    return None


def contact_details_in(nickname: str) -> str | None:
    """Return "phone_number" or "contact_address" if the nickname gives contact details.

    A phone number is more than MAX_DIGITS digits in the nickname, wherever they are
    ("06 12 34 56 78", "06a12b34c56d78"); an address is an e-mail address ("ana@mail.ru")
    or a web address ("http", "www.", a name ending with a common domain: "lucas.com").
    """
    if sum(char.isdecimal() for char in nickname) > MAX_DIGITS:
        return "phone_number"
    folded = nickname.casefold()
    if _EMAIL.search(folded) or _WEB.search(folded):
        return "contact_address"
    return None


# ---------------------------------------------------------------- validation


def _refuse_characters(raw: str) -> None:
    """Refuse, with the reason, a character that no nickname may hold."""
    for char in raw:
        if char in BIDI_CONTROLS:
            raise ValidationError(
                _("A nickname cannot contain invisible characters that turn the text around."),
                code="direction_control",
            )
        if char.isspace():
            continue
        kind = _REFUSED_CATEGORIES.get(unicodedata.category(char))
        if kind == "control":
            raise ValidationError(
                _("A nickname cannot contain control characters."),
                code="control_character",
            )
        if kind == "unassigned":
            raise ValidationError(
                _(
                    "A nickname cannot contain private or unknown characters: other "
                    "screens would not show them."
                ),
                code="unknown_character",
            )


def _marks_in_a_row(text: str) -> int:
    longest = current = 0
    for char in text:
        current = current + 1 if unicodedata.combining(char) else 0
        longest = max(longest, current)
    return longest


# A teacher's words for the refusals that ask a student to choose another nickname
# (French "tu", Russian "ты"): read by a teacher for a class roster's pseudonym or a
# student renamed from the live dashboard.
FOR_TEACHERS = {
    "refused": gettext_noop("This nickname is not allowed: give a friendly one."),
    "impersonation": gettext_noop(
        "This nickname could be taken for the teacher, an administrator, the platform or a "
        "bot: give another one."
    ),
}


def refusal_for_teacher(error: ValidationError) -> str:
    """Return a refusal of ``validate_nickname`` in the words a teacher reads."""
    code = getattr(error, "code", None)
    return _(FOR_TEACHERS[code]) if code in FOR_TEACHERS else " ".join(error.messages)


def validate_nickname(raw: str) -> str:
    """Return the normalized nickname, or raise ValidationError saying what is wrong."""
    raw = raw or ""
    _refuse_characters(raw)
    nickname = normalize_nickname(raw)
    if not nickname and raw.strip():
        raise ValidationError(
            _("A nickname needs at least one letter or digit that can be seen."),
            code="no_letter",
        )
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
    if not any(unicodedata.category(char)[0] in "LN" for char in nickname):
        raise ValidationError(
            _("A nickname needs at least one letter or digit that can be seen."),
            code="no_letter",
        )
    if _marks_in_a_row(nickname) > MAX_MARKS_IN_A_ROW:
        raise ValidationError(
            _("A nickname cannot stack so many accents on one letter."),
            code="stacked_marks",
        )
    if contains_refused_word(nickname):
        raise ValidationError(
            _("This nickname is not allowed. Please choose a friendly one."),
            code="refused",
        )
    contact = contact_details_in(nickname)
    if contact == "phone_number":
        raise ValidationError(
            _(
                "A nickname can have at most %(max)d digits: it must not give a phone "
                "number, which the whole class would see."
            )
            % {"max": MAX_DIGITS},
            code="phone_number",
        )
    if contact:
        raise ValidationError(
            _(
                "A nickname cannot contain an e-mail or a web address: the whole class "
                "would see it."
            ),
            code="contact_address",
        )
    if role_in(nickname):
        raise ValidationError(
            _(
                "This nickname could be taken for the teacher, an administrator, the "
                "platform or a bot. Please choose another one."
            ),
            code="impersonation",
        )
    return nickname
