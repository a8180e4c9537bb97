"""What the session's join screen shows on the projector: the nicknames while students
join, then every table's players and progress once the game has started.

The page (``live.views.join_screen``) and its socket (``live.screen_sockets``) render
the same fragment from the database, so a reconnecting screen always shows the present.
"""

import segno
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from classroom.models import ClassSession
from live.dashboard import tables_context


def screen_qr_svg(url: str, title: str) -> SafeString:
    """Return an inline SVG QR code of the URL that scales to the box it is given.

    Unlike the session page's fixed-size code (``classroom.qr``), it has a viewBox and no
    width or height, so that CSS can draw it the height of the screen.
    """
    qr = segno.make(url, error="m")
    svg = qr.svg_inline(omitsize=True, border=2, dark="#000", light="#fff", title=title)
    return mark_safe(svg)  # segno's own markup; it escapes the URL and the title


def screen_context(session: ClassSession) -> dict:
    """Return the join screen fragment's context, in the active language."""
    tables = []
    if session.is_open and session.state != ClassSession.State.LOBBY:
        tables = tables_context(session, translation.get_language())["tables"]
    return {
        "session": session,
        "participants": list(session.active_participants()),
        "tables": tables,
    }


def render_screen(session_id: int) -> str:
    """Render the live part of a session's join screen, in the session's language."""
    session = ClassSession.objects.select_related("school_class").get(pk=session_id)
    with translation.override(session.language):
        return render_to_string("live/fragments/join_screen_live.html", screen_context(session))
