"""QR codes of join URLs, as inline SVG."""

import segno
from django.utils.safestring import mark_safe


def qr_svg(url: str, title: str = "") -> str:
    """Return an inline SVG QR code of the URL, safe to put in a template."""
    qr = segno.make(url, error="m")
    svg = qr.svg_inline(scale=8, border=2, dark="#000", light="#fff", title=title or None)
    return mark_safe(svg)  # segno's own markup; it escapes the URL
