"""What the session's join screen shows on the projector: the nicknames while students
join, then every table's players and progress once the game has started.

The page (``live.views.join_screen``) and its socket (``live.screen_sockets``) render
the same fragment from the database, so a reconnecting screen always shows the present.
"""

from django.template.loader import render_to_string
from django.utils import translation

from classroom.models import ClassSession
from classroom.services import again_on_lost_connection
from live.dashboard import session_with_class, tables_context


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


@again_on_lost_connection  # a read: safe to run twice
def render_screen(session_id: int) -> str | None:
    """Render the live part of a session's join screen, in the session's language; None
    once the session was deleted."""
    session = session_with_class(session_id)
    if session is None:
        return None
    with translation.override(session.language):
        return render_to_string("live/fragments/join_screen_live.html", screen_context(session))
