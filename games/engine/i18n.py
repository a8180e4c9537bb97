"""Mark translatable strings without importing Django.

Django's ``makemessages`` extracts every literal passed to a function named
``gettext_noop``, and (with the keyword the project's ``makemessages`` adds) the
singular and plural passed to ``ngettext_noop``; the Django layer translates them
later. A game hands the platform a :class:`Text` where a sentence needs parameters
or a plural.
"""

from __future__ import annotations

from dataclasses import dataclass, field


def gettext_noop(s: str) -> str:
    """Return ``s`` unchanged: the marker only makes the string extractable."""
    return s


def ngettext_noop(singular: str, plural: str) -> tuple[str, str]:
    """Return the two forms unchanged: the marker only makes them extractable."""
    return singular, plural


class Plural(str):
    """An English template that depends on a number: ``ngettext_noop``'s two forms and
    the count. It is the English text for that count, so ``template % params`` works
    as for any template; the platform translates it with ``ngettext`` (each language
    has its own plural forms)."""

    singular: str
    plural: str
    # the plural's number, which the platform reads here: it hides str.count on purpose
    count: int  # type: ignore[assignment]

    def __new__(cls, forms: tuple[str, str], count: int) -> Plural:
        text = super().__new__(cls, forms[0] if count == 1 else forms[1])
        text.singular, text.plural, text.count = forms[0], forms[1], count
        return text


@dataclass(frozen=True)
class Text:
    """A sentence still to translate: an English template, its parameters, maybe a plural.

    The platform shows ``gettext(message) % params``, or, with ``plural``,
    ``ngettext(message, plural, count) % params``; a parameter that is a Text (or a list
    of them, shown joined by commas) is translated first, and one that is a dict of
    names by language (a card's name from its fixture) is shown in the active language.
    """

    message: str
    params: dict = field(default_factory=dict)
    plural: str = ""
    count: int = 0

    @classmethod
    def plural_form(cls, forms: tuple[str, str], count: int, params: dict) -> Text:
        """Return the text of ``ngettext_noop(singular, plural)`` for ``count``."""
        return cls(forms[0], params, forms[1], count)
