"""The teacher's controls of a running session's tables, seats and device moves.

The live dashboard that shows them is live play's page (live.views.session_live).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from classroom import actions
from classroom.models import Seat, SeatMove, Table
from classroom.views.common import get_session_or_404


def _posted(request, session, field, queryset):
    """Return the object whose id the POST names in field, within the session, or None."""
    value = request.POST.get(field, "")
    if not value.isdigit():
        messages.error(request, _("Nothing was chosen."))
        return None
    return get_object_or_404(queryset, pk=int(value))


def _live_control(request, pk, field, queryset_of, *, apply, done_message):
    """Apply a control to a table, seat or request of the teacher's session (POST)."""
    session = get_session_or_404(request, pk)
    if request.method == "POST":
        target = _posted(request, session, field, queryset_of(session))
        if target is not None:
            try:
                apply(target)
            except actions.ActionRefused as refusal:
                messages.error(request, refusal.message)
            else:
                messages.success(request, done_message)
    return redirect(reverse("live:session_live", args=[session.pk]))


def _tables(session):
    return Table.objects.filter(session=session).select_related("session")


def _seats(session):
    return Seat.objects.filter(table__session=session).select_related("table__session")


def _moves(session):
    return SeatMove.objects.filter(participant__session=session).select_related(
        "participant__session"
    )


@login_required
def table_pause(request, pk):
    """Pause one table (POST: table)."""
    return _live_control(
        request,
        pk,
        "table",
        _tables,
        apply=lambda table: actions.do_set_table_paused(table, True),
        done_message=_("Table paused."),
    )


@login_required
def table_resume(request, pk):
    """Resume one table (POST: table)."""
    return _live_control(
        request,
        pk,
        "table",
        _tables,
        apply=lambda table: actions.do_set_table_paused(table, False),
        done_message=_("Table resumed."),
    )


@login_required
def seat_to_bot(request, pk):
    """Let a bot play an absent student's seat (POST: seat)."""
    return _live_control(
        request,
        pk,
        "seat",
        _seats,
        apply=lambda seat: actions.do_hand_seat_to_bot(seat, True),
        done_message=_("A bot plays this seat now."),
    )


@login_required
def seat_to_student(request, pk):
    """Give a seat back to its student (POST: seat)."""
    return _live_control(
        request,
        pk,
        "seat",
        _seats,
        apply=lambda seat: actions.do_hand_seat_to_bot(seat, False),
        done_message=_("The student plays again."),
    )


@login_required
def move_approve(request, pk):
    """Let a student continue on a new device (POST: move)."""
    return _live_control(
        request,
        pk,
        "move",
        _moves,
        apply=lambda move: actions.do_answer_seat_move(move, True),
        done_message=_("The new device gets the seat."),
    )


@login_required
def move_refuse(request, pk):
    """Refuse a device change (POST: move)."""
    return _live_control(
        request,
        pk,
        "move",
        _moves,
        apply=lambda move: actions.do_answer_seat_move(move, False),
        done_message=_("Request refused."),
    )
