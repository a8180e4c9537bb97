"""QR codes of join URLs, as inline SVG."""

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(url: str, title: str = "", scalable: bool = False) -> SafeString:
    """Return an inline SVG QR code of the URL, safe to put in a template.

    ``scalable``: with a viewBox and no width or height, so that CSS sizes it (the
    projector's join screen draws it the height of the screen); else 8 px a module.
    """
    qr = segno.make(url, error="m")
    size = {"omitsize": True} if scalable else {"scale": 8}
    svg = qr.svg_inline(border=2, dark="#000", light="#fff", title=title or None, **size)
    return mark_safe(svg)  # segno's own markup; it escapes the URL and the title
