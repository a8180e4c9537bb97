"""The teacher's controls of a live session: tables, seats, device moves, waiting
nicknames, renaming a student and the join rules.

The live dashboard that shows them is live play's page (live.views.session_live).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from classroom import actions
from classroom.models import JoinRequest, Participant, Seat, SeatMove, Table
from classroom.typing import AuthenticatedHttpRequest
from classroom.views.common import get_session_or_404

# The teacher's session key that keeps a refused rename (the student and the nickname
# typed) for the dashboard the refusal redirects to, which fills the form with it again.
REFUSED_RENAME = "refused_rename"


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


def _control(field, queryset_of, apply, done_message, doc):
    """Return the login-only view of one control: ``apply`` to the object POSTed in
    ``field`` among ``queryset_of(session)``, then say ``done_message``."""

    @login_required
    def view(request, pk):
        return _live_control(
            request, pk, field, queryset_of, apply=apply, done_message=done_message
        )

    view.__doc__ = doc
    return view


table_pause = _control(
    "table",
    _tables,
    lambda table: actions.do_set_table_paused(table, True),
    gettext_lazy("Table paused."),
    "Pause one table (POST: table).",
)
table_resume = _control(
    "table",
    _tables,
    lambda table: actions.do_set_table_paused(table, False),
    gettext_lazy("Table resumed."),
    "Resume one table (POST: table).",
)
seat_to_bot = _control(
    "seat",
    _seats,
    lambda seat: actions.do_hand_seat_to_bot(seat, True),
    gettext_lazy("A bot plays this seat now."),
    "Let a bot play an absent student's seat (POST: seat).",
)
seat_to_student = _control(
    "seat",
    _seats,
    lambda seat: actions.do_hand_seat_to_bot(seat, False),
    gettext_lazy("The student plays again."),
    "Give a seat back to its student (POST: seat).",
)
move_approve = _control(
    "move",
    _moves,
    lambda move: actions.do_answer_seat_move(move, True),
    gettext_lazy("The new device gets the seat."),
    "Let a student continue on a new device (POST: move).",
)
move_refuse = _control(
    "move",
    _moves,
    lambda move: actions.do_answer_seat_move(move, False),
    gettext_lazy("Request refused."),
    "Refuse a device change (POST: move).",
)


def _join_requests(session):
    return JoinRequest.objects.filter(session=session).select_related("session")


join_approve = _control(
    "request",
    _join_requests,
    lambda join_request: actions.do_answer_join_request(join_request, True),
    gettext_lazy("The student is in."),
    "Let a waiting nickname into the session (POST: request).",
)
join_refuse = _control(
    "request",
    _join_requests,
    lambda join_request: actions.do_answer_join_request(join_request, False),
    gettext_lazy("Request refused: this device cannot ask again in this session."),
    "Refuse a waiting nickname (POST: request).",
)


@login_required
def participant_rename(request: AuthenticatedHttpRequest, pk: int) -> HttpResponseRedirect:
    """Give a student another nickname (POST: participant, nickname)."""
    session = get_session_or_404(request, pk)
    if request.method == "POST":
        queryset = Participant.objects.filter(session=session).select_related("session")
        participant = _posted(request, session, "participant", queryset)
        if participant is not None:
            typed = request.POST.get("nickname", "")
            try:
                actions.do_rename_participant(participant, typed)
            except actions.ActionRefused as refusal:
                messages.error(request, refusal.message)
                request.session[REFUSED_RENAME] = {
                    "session": session.pk,
                    "participant": participant.pk,
                    "nickname": typed[:60],  # the input's maxlength
                }
            else:
                messages.success(request, _("Nickname changed."))
    return redirect(reverse("live:session_live", args=[session.pk]))


@login_required
def join_rules(request: AuthenticatedHttpRequest, pk: int) -> HttpResponseRedirect:
    """Switch "approve each new nickname" and "nicknames from a generator only" (POST:
    the checkboxes that are on)."""
    session = get_session_or_404(request, pk)
    if request.method == "POST":
        try:
            actions.do_set_join_rules(
                session,
                approve_joins=request.POST.get("approve_joins") == "on",
                generated_nicknames=request.POST.get("generated_nicknames") == "on",
            )
        except actions.ActionRefused as refusal:
            messages.error(request, refusal.message)
        else:
            messages.success(request, _("Joining rules saved."))
    return redirect(reverse("live:session_live", args=[session.pk]))
