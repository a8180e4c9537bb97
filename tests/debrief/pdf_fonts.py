"""Read which glyphs of which embedded fonts a WeasyPrint PDF draws.

WeasyPrint embeds each font as a CID font (``/Subtype /CIDFontType2``, glyph ids as CIDs)
and writes a width (``/W``) for every glyph it draws. Glyph 0 is a font's ``.notdef``:
the box drawn for a character that no installed font has.
"""

import re
import zlib
from collections.abc import Iterator

_STREAM = re.compile(rb"stream\r?\n(.*?)endstream", re.S)
_CID_FONT = re.compile(rb"/Subtype\s*/CIDFontType2\s*/BaseFont\s*/([^\s/<>\[\]]+)")
_NEXT_FONT = re.compile(rb"/Type\s*/Font\b|endobj")
_WIDTHS = re.compile(rb"/W\s*\[")
_TOKEN = re.compile(rb"\[|\]|-?[0-9.]+")


def _texts(pdf: bytes) -> Iterator[bytes]:
    """Yield the PDF itself and every stream it holds that inflates (object streams too)."""
    yield pdf
    for match in _STREAM.finditer(pdf):
        try:
            yield zlib.decompress(match.group(1))
        except zlib.error:
            continue


def _glyphs(widths: bytes) -> set[int]:
    """Return the glyph ids of a ``/W`` array: ``c [w1 w2 ...]`` gives c, c+1, ...;
    ``first last w`` gives first to last."""
    glyphs: set[int] = set()
    tokens = iter(_TOKEN.findall(widths))
    pending: list[int] = []
    for token in tokens:
        if token == b"]":  # the end of the /W array itself
            break
        if token == b"[":
            count = 0
            for inner in tokens:
                if inner == b"]":
                    break
                count += 1
            first = pending.pop()
            glyphs.update(range(first, first + count))
            glyphs.update(pending)
            pending = []
        else:
            pending.append(int(float(token)))
            if len(pending) == 3:
                first, last, _width = pending
                glyphs.update(range(first, last + 1))
                pending = []
    return glyphs


def drawn_glyphs(pdf: bytes) -> dict[str, set[int]]:
    """Return each embedded font's name (its subset prefix removed) with the glyphs drawn."""
    fonts: dict[str, set[int]] = {}
    for text in _texts(pdf):
        for match in _CID_FONT.finditer(text):
            name = match.group(1).decode("latin-1").split("+", 1)[-1]
            # the rest of this font's dictionary: up to the next font's, as WeasyPrint
            # writes them (the /W array comes after /BaseFont)
            end = _NEXT_FONT.search(text, match.end())
            rest = text[match.end() : end.start() if end else len(text)]
            widths = _WIDTHS.search(rest)
            glyphs = _glyphs(rest[widths.end() :]) if widths else set()
            fonts.setdefault(name, set()).update(glyphs)
    return fonts
