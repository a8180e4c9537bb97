"""The pages of live play: a student's table, and a table on the projector.

Both render templates of the browser game client (templates/games/play.html and
projector.html) with what the client needs to open its socket: ``ws_path``,
``role`` ("seat" or "spectator"), ``session`` and ``table_id``.
"""

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation

from classroom import identity
from classroom.actions import do_touch_participant
from classroom.catalogue import game_name
from classroom.codes import normalize_code
from classroom.models import Seat, Table


def play(request, code):
    """Show the student's table (or a wait until there is one); the cookie names the student."""
    participant = identity.current_participant(request.COOKIES)
    normalized = normalize_code(code)
    if participant is None or participant.session.join_code != normalized:
        return redirect(reverse("classroom:join_code", args=[normalized]))
    session = participant.session
    translation.activate(session.language)
    request.LANGUAGE_CODE = session.language
    if participant.kicked:
        return render(request, "classroom/student_removed.html", {"session": session}, status=403)
    device = identity.device_id_from(request.COOKIES)
    if device is not None and device != participant.device_id:  # the place moved away
        return render(
            request,
            "classroom/student_moved.html",
            {"session": session, "participant": participant},
            status=403,
        )
    if not session.is_open:
        return redirect(reverse("classroom:lobby", args=[normalized]))
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
            "game_name": game_name(session.game, session.language),
        },
    )


@login_required
def projector(request, pk):
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
        },
    )
