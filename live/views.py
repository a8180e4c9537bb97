"""The pages of live play: a student's table, a table on the projector, the session's
join screen on the projector, and the teacher's live dashboard.

The table pages render templates of the browser game client (templates/games/play.html
and projector.html) with what the client needs to open its socket: ``ws_path``,
``role`` ("seat" or "spectator"), ``session`` and ``table_id``. The join screen is an
htmx page (templates/live/join_screen.html) whose socket is ``live.screen_sockets``.
"""

from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache

from classroom import identity
from classroom.actions import do_touch_participant
from classroom.catalogue import game_name
from classroom.models import Seat, Table
from classroom.qr import qr_svg
from classroom.typing import AuthenticatedHttpRequest
from classroom.views.common import get_session_or_404, student_in_session
from classroom.views.controls import REFUSED_RENAME
from games.describe import how_to_play
from live.dashboard import tables_context
from live.screen import screen_context


def game_stylesheet(slug: str) -> str | None:
    """Return the static path of a game's own board styles (css/play/<slug>.css), if any."""
    path = f"css/play/{slug}.css"
    return path if finders.find(path) else None


@never_cache  # Back or Forward to a table after the session's end: its "ended" page instead
def play(request: HttpRequest, code: str) -> HttpResponse:
    """Show the student's table (or a wait until there is one); the cookie names the student."""
    participant, refusal = student_in_session(request, code)
    if refusal is not None:
        return refusal
    assert participant is not None  # student_in_session returns one of the two
    session = participant.session
    device = identity.device_id_from(request.COOKIES)
    if device is not None and device != participant.device_id:  # the place moved away
        return render(
            request,
            "classroom/student_moved.html",
            {"session": session, "participant": participant},
            status=403,
        )
    if not session.is_open:
        return redirect(reverse("classroom:lobby", args=[session.join_code]))
    do_touch_participant(participant)
    seat = Seat.objects.filter(participant=participant, table__session=session).first()
    return render(
        request,
        "games/play.html",
        {
            "ws_path": f"/ws/play/{session.join_code}/",
            "role": "seat",
            "session": session,
            "participant": participant,
            "table_id": seat.table_id if seat else None,
            "game_name": game_name(session.game),
            "game_stylesheet": game_stylesheet(session.game),
            "how_to_play": how_to_play(session.game, session.variant, session.options),
        },
    )


@login_required
def projector(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Show one of the teacher's tables in large type: the public view only."""
    table = get_object_or_404(
        Table.objects.select_related("session__school_class"),
        pk=pk,
        session__school_class__teacher=request.user,
    )
    session = table.session
    return render(
        request,
        "games/projector.html",
        {
            "ws_path": f"/ws/table/{table.pk}/watch/",
            "role": "spectator",
            "session": session,
            "table": table,
            "table_id": table.pk,
            "game_name": game_name(session.game),
            "game_stylesheet": game_stylesheet(session.game),
        },
    )


@login_required
def session_live(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Show every table live: seats, presence, turns, scores, news; and the controls."""
    session = get_session_or_404(request, pk)
    context = tables_context(session, translation.get_language())
    context["game_name"] = game_name(session.game)
    # a refused rename comes back with the student and the nickname typed, to correct
    refused = request.session.pop(REFUSED_RENAME, None)
    if refused and refused.get("session") == session.pk:
        context["refused_rename"] = refused
    return render(request, "classroom/session_live.html", context)


def code_groups(code: str) -> list[str]:
    """Split a join code into groups of three, the way it is read aloud ("FAD H7J")."""
    return [code[start : start + 3] for start in range(0, len(code), 3)]


@login_required
def join_screen(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Show the session's join screen for the projector, in the session's language: the
    code in large type, the QR code and the join address, the nicknames as students
    join; once the game starts, every table's players and progress."""
    session = get_session_or_404(request, pk)
    join_url = request.build_absolute_uri(reverse("classroom:join_code", args=[session.join_code]))
    with translation.override(session.language):
        context = screen_context(session)
        context.update(
            {
                "join_url": join_url,
                # the address without its scheme: what a student types
                "join_address": join_url.split("://", 1)[-1],
                "code_groups": code_groups(session.join_code),
                "qr": qr_svg(join_url, gettext("QR code to join the session"), scalable=True),
                "game_name": game_name(session.game, session.language),
                "ws_path": f"/ws/teacher/sessions/{session.pk}/screen/",
            }
        )
        return render(request, "live/join_screen.html", context)
