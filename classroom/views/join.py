"""The student side: join a session by code, then wait in its lobby. No account."""

from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from classroom import actions, identity, ratelimit
from classroom.catalogue import game_name
from classroom.codes import is_well_formed, normalize_code
from classroom.forms import JoinForm
from classroom.models import ClassSession
from classroom.nicknames import nickname_key


def _open_session(code: str):
    """Return the open session with this code, or None."""
    if not is_well_formed(code):
        return None
    return (
        ClassSession.objects.exclude(state=ClassSession.State.FINISHED)
        .select_related("school_class")
        .filter(join_code=code)
        .first()
    )


def _free_pseudonyms(session: ClassSession):
    """Return the roster's pseudonyms nobody took yet, or None when the class has no roster."""
    roster = session.school_class.pseudonyms()
    if not roster:
        return None
    taken = set(session.participants.values_list("nickname_key", flat=True))
    return [name for name in roster if nickname_key(name) not in taken]


def _with_device(response, device_id: str, request):
    """Make sure the device keeps its id."""
    if identity.device_id_from(request.COOKIES) != device_id:
        identity.set_device_cookie(response, device_id)
    return response


def _removed(request, session, device_id):
    """Tell a removed student so, in the session's language."""
    response = render(request, "classroom/student_removed.html", {"session": session}, status=403)
    return _with_device(response, device_id, request)


def join(request, code=""):
    """Ask for the code and a nickname (or a pseudonym from the class roster)."""
    device_id = identity.device_id_from(request.COOKIES) or identity.new_device_id()
    ip = ratelimit.client_ip(request)
    typed_code = request.POST.get("code", code) if request.method == "POST" else code
    normalized = normalize_code(typed_code)
    session, code_error, status = None, None, 200
    if normalized:
        if ratelimit.is_blocked(ip):
            code_error = _("Too many attempts with a wrong code. Please wait a minute.")
            status = 429
        else:
            session = _open_session(normalized)
            if session is None:
                ratelimit.record_wrong_code(ip)
                code_error = _("No open session has this code. Check it with your teacher.")

    if session is not None:
        translation.activate(session.language)
        request.LANGUAGE_CODE = session.language
        if session.participants.filter(device_id=device_id, kicked=True).exists():
            return _removed(request, session, device_id)
        place = session.participants.filter(device_id=device_id, kicked=False).first()
        if place is not None:  # this device already has a place: back to it
            response = redirect("classroom:lobby", code=session.join_code)
            identity.set_student_cookie(response, place)
            return _with_device(response, device_id, request)

    pseudonyms = _free_pseudonyms(session) if session is not None else None
    initial = {"code": normalized or typed_code}
    roster_step = pseudonyms is not None and "pseudonym" not in request.POST
    if request.method == "POST" and not roster_step:
        form = JoinForm(request.POST, pseudonyms=pseudonyms, initial=initial)
        valid = form.is_valid()
        if code_error:
            form.add_error("code", code_error)
        elif valid and session is not None:
            nickname = form.cleaned_data.get("pseudonym") or form.cleaned_data["nickname"]
            try:
                participant = actions.do_join_session(session, nickname, device_id)
            except actions.ActionRefused as refusal:
                field = "nickname" if refusal.code == "taken" and "nickname" in form.fields else None
                form.add_error(field, refusal.message)
                if refusal.code == "kicked":
                    return _removed(request, session, device_id)
            else:
                response = redirect("classroom:lobby", code=session.join_code)
                identity.set_student_cookie(response, participant)
                return _with_device(response, device_id, request)
    else:
        form = JoinForm(pseudonyms=pseudonyms, initial=initial)
        if code_error:
            form.cleaned_data = {}  # lets an unbound form carry the code's error
            form.add_error("code", code_error)

    current = identity.current_participant(request.COOKIES)
    if current is not None and (current.kicked or not current.session.is_open):
        current = None
    context = {
        "form": form,
        "session": session,
        "game_name": game_name(session.game) if session else "",
        "no_free_pseudonym": pseudonyms == [],
        "current": current if session is None else None,
    }
    response = render(request, "classroom/join.html", context, status=status)
    return _with_device(response, device_id, request)


def lobby(request, code):
    """Show the student's place in the session; a reload or a dropped link comes back here."""
    participant = identity.current_participant(request.COOKIES)
    normalized = normalize_code(code)
    if participant is None or participant.session.join_code != normalized:
        return redirect(reverse("classroom:join_code", args=[normalized]))
    session = participant.session
    translation.activate(session.language)
    request.LANGUAGE_CODE = session.language
    if participant.kicked:
        return render(request, "classroom/student_removed.html", {"session": session}, status=403)
    actions.do_touch_participant(participant)
    return render(
        request,
        "classroom/lobby.html",
        {
            "session": session,
            "participant": participant,
            "participants": session.active_participants(),
            "game_name": game_name(session.game, session.language),
        },
    )

