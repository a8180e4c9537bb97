"""A teacher's sessions: launch one, watch its lobby, and control it."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from classroom import actions, retention
from classroom.catalogue import bot_level_label, game_name, variant_label
from classroom.forms import SessionForm
from classroom.models import ClassSession
from classroom.qr import qr_svg
from classroom.signals import session_created
from classroom.typing import AuthenticatedHttpRequest
from classroom.views.common import get_class_or_404, get_session_or_404


@login_required
def session_create(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Launch a session for one of the teacher's classes."""
    school_class = get_class_or_404(request, pk)
    form = SessionForm(request.POST or None, teacher=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                session = actions.do_create_session(school_class, **form.cleaned_data)
                session_created.send(sender=ClassSession, session=session, choices=form.extra)
        except actions.ActionRefused as refusal:
            form.add_error(None, refusal.message)
        else:
            messages.success(
                request,
                _("Session open. Students join with the code %(code)s.")
                % {"code": session.join_code},
            )
            return redirect(session)
    return render(
        request, "classroom/session_form.html", {"form": form, "school_class": school_class}
    )


@login_required
def session_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Show the join code, its QR code, the live roster and the controls."""
    session = get_session_or_404(request, pk)
    join_url = request.build_absolute_uri(reverse("classroom:join_code", args=[session.join_code]))
    qr = qr_svg(join_url, title=_("QR code to join the session")) if session.is_open else ""
    return render(
        request,
        "classroom/session_detail.html",
        {
            "session": session,
            "participants": session.active_participants(),
            "join_url": join_url,
            "qr": qr,
            "game_name": game_name(session.game),
            "variant_label": variant_label(session.game, session.variant),
            "bot_level": bot_level_label(session.game, actions.session_bot(session)),
            **retention.purge_notice(session),
        },
    )


def _control(request, pk, action, done_message):
    """Apply a control (POST) and say how it went; a GET goes back to the session."""
    session = get_session_or_404(request, pk)
    if request.method == "POST":
        try:
            action(session)
        except actions.ActionRefused as refusal:
            messages.error(request, refusal.message)
        else:
            messages.success(request, done_message)
    return redirect(session)


@login_required
def session_lock(request: AuthenticatedHttpRequest, pk: int) -> HttpResponseRedirect:
    """Lock the lobby: nobody new may join."""
    return _control(
        request,
        pk,
        lambda session: actions.do_set_lobby_lock(session, True),
        _("Lobby locked: nobody new can join."),
    )


@login_required
def session_unlock(request: AuthenticatedHttpRequest, pk: int) -> HttpResponseRedirect:
    """Unlock the lobby."""
    return _control(
        request,
        pk,
        lambda session: actions.do_set_lobby_lock(session, False),
        _("Lobby unlocked: students can join again."),
    )


@login_required
def session_start(request: AuthenticatedHttpRequest, pk: int) -> HttpResponseRedirect:
    """Start the session."""
    return _control(request, pk, actions.do_start_session, _("Session started."))


@login_required
def session_pause(request: AuthenticatedHttpRequest, pk: int) -> HttpResponseRedirect:
    """Pause the session."""
    return _control(request, pk, actions.do_pause_session, _("Session paused."))


@login_required
def session_resume(request: AuthenticatedHttpRequest, pk: int) -> HttpResponseRedirect:
    """Resume the session."""
    return _control(request, pk, actions.do_resume_session, _("Session resumed."))


@login_required
def session_end(request: AuthenticatedHttpRequest, pk: int) -> HttpResponseRedirect:
    """End the session."""
    return _control(request, pk, actions.do_end_session, _("Session ended."))


@login_required
def session_kick(request: AuthenticatedHttpRequest, pk: int) -> HttpResponseRedirect:
    """Remove a student (POST, the participant's id in the form); that device cannot rejoin."""
    session = get_session_or_404(request, pk)
    if request.method == "POST":
        participant_id = request.POST.get("participant", "")
        if not participant_id.isdigit():
            raise Http404
        participant = get_object_or_404(session.participants, pk=int(participant_id))
        try:
            actions.do_kick_participant(participant)
        except actions.ActionRefused as refusal:
            messages.error(request, refusal.message)
        else:
            messages.success(
                request, _("%(nickname)s was removed.") % {"nickname": participant.nickname}
            )
    return redirect(session)
