"""The glossary of GDPR articles: a short text per article in every language, from
fixtures/glossary.json."""

import json
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from lessons.texts import FALLBACK_LANGUAGE, article_number

GLOSSARY = Path(__file__).resolve().parent.parent / "fixtures" / "glossary.json"


@cache
def articles() -> dict[int, dict[str, dict]]:
    """Return the glossary: {article number: {language: {"title", "text"}}}."""
    data = json.loads(GLOSSARY.read_text(encoding="utf-8"))
    return {int(number): texts for number, texts in data["articles"].items()}


def entry(number: int, language: str) -> dict:
    """Return one article's title and text in ``language`` (else English)."""
    texts = articles().get(number)
    if texts is None:
        return {"number": number, "title": "", "text": ""}
    text = texts.get(language) or texts[FALLBACK_LANGUAGE]
    return {"number": number, **text}


def glossary_for(citations: Iterable[str], language: str) -> list[dict]:
    """Return the glossary entries of the articles cited (like "9(2)(a)"), by number,
    each with the exact citations that named it."""
    cited: dict[int, list[str]] = {}
    for citation in citations:
        number = article_number(citation)
        if number is not None:
            cited.setdefault(number, [])
            if citation not in cited[number]:
                cited[number].append(citation)
    return [{**entry(number, language), "citations": cited[number]} for number in sorted(cited)]
