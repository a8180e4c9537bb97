"""The student side: join a session by code, then wait in its lobby. No account."""

from collections.abc import Callable
from typing import TypeVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect

from classroom import actions, identity, payloads, ratelimit
from classroom.catalogue import game_name
from classroom.codes import CODE_LENGTH, is_well_formed, normalize_code
from classroom.forms import JoinForm
from classroom.models import ClassSession, JoinRequest, Participant, Seat, SeatMove
from classroom.nicknames import nickname_key
from classroom.typing import HtmxHttpRequest
from classroom.views.common import ended_offers, student_in_session, student_language
from games.describe import how_to_play

_Response = TypeVar("_Response", bound=HttpResponseBase)


def htmx_at_own_address(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Mark a page that htmx also asks for at its own address (polling it, or asking
    where to go next) as never to be kept: the browser's cache keeps one answer per
    address, and Back would show the last htmx answer instead of the page (the lobby's
    was an empty body with HX-Redirect: a blank page, docs/ui.md "Back")."""
    return never_cache(vary_on_headers("HX-Request")(view))


def _open_session(code: str) -> ClassSession | None:
    """Return the open session with this well-formed code, or None."""
    return (
        ClassSession.objects.exclude(state=ClassSession.State.FINISHED)
        .select_related("school_class")
        .filter(join_code=code)
        .first()
    )


def _free_pseudonyms(session: ClassSession) -> list[str] | None:
    """Return the roster's pseudonyms nobody took yet, or None when the class has no roster."""
    roster = session.school_class.pseudonyms()
    if not roster:
        return None
    taken = set(session.participants.values_list("nickname_key", flat=True))
    return [name for name in roster if nickname_key(name) not in taken]


def _with_device(response: _Response, device_id: str, request: HttpRequest) -> _Response:
    """Make sure the device keeps its id."""
    if identity.device_id_from(request.COOKIES) != device_id:
        identity.set_device_cookie(response, device_id)
    return response


def _removed(request: HttpRequest, session: ClassSession, device_id: str) -> HttpResponse:
    """Tell a removed student so, in the session's language."""
    response = render(request, "classroom/student_removed.html", {"session": session}, status=403)
    return _with_device(response, device_id, request)


def _resolve_code(
    request: HttpRequest, normalized: str
) -> tuple[ClassSession | None, str | None, int]:
    """Return (open session or None, error message or None, HTTP status) for a typed code."""
    if not normalized:
        return None, None, 200
    ip = ratelimit.client_ip(request)
    device_id = identity.device_id_from(request.COOKIES)
    # Counted before the look-up, so concurrent guesses cannot pass the limit together.
    if not ratelimit.take_attempt(ip, device_id):
        return None, _("Too many attempts with a wrong code. Please wait a minute."), 429
    if not is_well_formed(normalized):  # its length and signs are public: they give nothing away
        return (
            None,
            _("A game code has %(length)d letters and digits. Check it with your teacher.")
            % {"length": CODE_LENGTH},
            200,
        )
    session = _open_session(normalized)
    if session is None:
        return None, _("No game is open with this code. Check it with your teacher."), 200
    ratelimit.give_back(ip, device_id)
    return session, None, 200


def _seated(
    response: _Response, participant: Participant, device_id: str, request: HttpRequest
) -> _Response:
    """Send the student to their lobby, remembering their place on the device."""
    identity.set_student_cookie(response, participant)
    return _with_device(response, device_id, request)


def _join_details(request: HttpRequest, session: ClassSession, device_id: str) -> dict[str, str]:
    """Return what a join stores besides the nickname: the hashed address and, shown to
    the teacher only while a request waits, a short device label."""
    return {
        "address_hash": identity.address_hash(session.pk, ratelimit.client_ip(request)),
        "device_label": identity.device_label(device_id, request.headers.get("User-Agent", "")),
    }


def _too_many_joins(request: HttpRequest) -> str | None:
    """Count a join with a valid code from this address; say why it must wait, if it must."""
    wait = ratelimit.join_wait_seconds(ratelimit.client_ip(request))
    if not wait:
        return None
    return ngettext(
        "Many students are joining from this network right now. "
        "Please wait %(seconds)d second and try again.",
        "Many students are joining from this network right now. "
        "Please wait %(seconds)d seconds and try again.",
        wait,
    ) % {"seconds": wait}


def _try_join(
    request: HttpRequest, form: JoinForm, session: ClassSession, device_id: str
) -> HttpResponse | None:
    """Join with a valid form; return the response, or None with the refusal on the form."""
    nickname = form.cleaned_data.get("pseudonym") or form.cleaned_data.get("nickname") or ""
    too_many = _too_many_joins(request)
    if too_many is not None:
        form.add_error(None, too_many)
        return None
    details = _join_details(request, session, device_id)
    try:
        joined = actions.do_join_session(session, nickname, device_id, **details)
    except actions.ActionRefused as refusal:
        if refusal.code == "kicked":  # the teacher refused this device's request
            refused = _waiting_request(session, device_id)
            if refused is not None:
                return _with_device(
                    redirect("classroom:join_wait", pk=refused.pk), device_id, request
                )
            return _removed(request, session, device_id)
        if refusal.code == "taken" and session.state != ClassSession.State.LOBBY:
            moving = _ask_to_move(request, form, session, nickname, device_id)
            if moving is not None:
                return _with_device(moving, device_id, request)
        on_nickname = refusal.code == "taken" and "nickname" in form.fields
        form.add_error("nickname" if on_nickname else None, refusal.message)
        return None
    if isinstance(joined, JoinRequest):
        response = redirect("classroom:join_wait", pk=joined.pk)
        return _with_device(response, device_id, request)
    response = redirect("classroom:lobby", code=session.join_code)
    return _seated(response, joined, device_id, request)


def _ask_to_move(
    request: HttpRequest, form: JoinForm, session: ClassSession, nickname: str, device_id: str
) -> HttpResponse | None:
    """The nickname's student plays already: ask the teacher to move them to this device."""
    holder = session.participants.filter(nickname_key=nickname_key(nickname), kicked=False).first()
    if holder is None:
        return None
    label = identity.device_label(device_id, request.headers.get("User-Agent", ""))
    try:
        move = actions.do_request_seat_move(holder, device_id, label)
    except actions.ActionRefused as refusal:
        form.add_error(None, refusal.message)
        return None
    return redirect("classroom:seat_move", pk=move.pk)


@htmx_at_own_address
def join_wait(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Wait for the teacher to approve a new nickname; then go to the lobby.

    The device that asked sees it (its cookie); a program passes the ``wait_token`` the
    join API answered in an ``Authorization: Bearer`` header (never in the URL, which
    access logs keep: the answer, once approved, holds the seat token), and gets JSON.
    """
    join_request = JoinRequest.objects.select_related("session").filter(pk=pk).first()
    scheme, _space, token = request.headers.get("Authorization", "").partition(" ")
    token = token.strip() if scheme.lower() == "bearer" else ""
    if join_request is None:  # expired, then deleted by the purge
        if token:
            if identity.join_request_from_token(token) != pk:
                return JsonResponse({"status": "unknown"}, status=404)
            return JsonResponse({"status": JoinRequest.Status.EXPIRED}, status=410)
        return render(request, "classroom/join_wait.html", {"gone": True}, status=410)
    by_token = bool(token) and identity.join_request_from_token(token) == join_request.pk
    device_id = identity.device_id_from(request.COOKIES)
    if not by_token and device_id != join_request.device_id:
        return redirect("classroom:join")
    session = join_request.session
    translation.activate(session.language)
    request.LANGUAGE_CODE = session.language
    approved = join_request.status == JoinRequest.Status.APPROVED
    participant = join_request.participant if approved else None
    if by_token:
        wait_status = JoinRequest.Status.EXPIRED if join_request.is_expired else join_request.status
        body = {"status": wait_status}
        if participant is not None:
            body |= _seat_body(participant)
        return JsonResponse(body)
    if participant is not None and session.is_open:
        target = reverse("classroom:lobby", args=[session.join_code])
        response = HttpResponseClientRedirect(target) if request.htmx else redirect(target)
        return _seated(response, participant, join_request.device_id, request)
    context = {"join_request": join_request, "session": session}
    # 286 stops htmx's polling once there is nothing left to wait for.
    status = 286 if request.htmx and not join_request.is_waiting else 200
    return render(request, "classroom/join_wait.html", context, status=status)


@htmx_at_own_address
def seat_move(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Wait for the teacher to approve a device change; then this device gets the seat."""
    move = get_object_or_404(SeatMove.objects.select_related("participant__session"), pk=pk)
    if identity.device_id_from(request.COOKIES) != move.device_id:
        return redirect("classroom:join")
    session = move.participant.session
    student_language(request, session)
    if move.status in {SeatMove.Status.APPROVED, SeatMove.Status.DONE}:
        participant = actions.do_complete_seat_move(move)
        target = reverse("live:play", args=[session.join_code])
        response = HttpResponseClientRedirect(target) if request.htmx else redirect(target)
        return _seated(response, participant, move.device_id, request)
    return render(request, "classroom/seat_move.html", {"move": move, "session": session})


@csrf_exempt
def join(request: HttpRequest, code: str = "") -> HttpResponse:
    """Join a session: the form for people, or a JSON body for programs (a seat token)."""
    if request.method == "POST" and request.content_type == "application/json":
        return join_api(request)
    return join_form(request, code)


def _api_error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


API_REFUSALS = {
    "taken": (400, "nickname_taken"),
    "kicked": (403, "removed"),
    "locked": (403, "locked"),
    "full": (403, "full"),
    "finished": (404, "unknown_session"),
    "busy": (429, "busy"),
}


def join_api(request: HttpRequest) -> JsonResponse:
    """Join by ``{"code", "nickname"}``; answer 201 with a seat token (docs/protocol.md §1)."""
    translation.activate(translation.get_language_from_request(request))
    try:
        body = payloads.parse(request.body, max_depth=1)
        typed_code, nickname = body["code"], body["nickname"]
    except payloads.BadPayload as bad:
        if bad.reason == "too_large":
            return _api_error(413, "too_large", _("This request is too long."))
        return _api_error(400, "bad_request", _("Send a JSON object with a code and a nickname."))
    except (TypeError, KeyError):
        return _api_error(400, "bad_request", _("Send a JSON object with a code and a nickname."))
    if not isinstance(typed_code, str) or not isinstance(nickname, str):
        return _api_error(400, "bad_request", _("The code and the nickname must be text."))
    session, code_error, status = _resolve_code(request, normalize_code(typed_code))
    if session is None:
        if status == 429:
            return _api_error(429, "rate_limited", code_error or "")  # 429 comes with one
        return _api_error(404, "unknown_session", code_error or _("Please type the code."))
    translation.activate(session.language)
    pseudonyms = _free_pseudonyms(session)
    field = "pseudonym" if pseudonyms is not None else "nickname"
    generated = _generated(session, pseudonyms)
    form = JoinForm(
        {"code": typed_code, field: nickname}, pseudonyms=pseudonyms, generated=generated
    )
    if not form.is_valid():
        errors = form.errors.get(field) or form.non_field_errors() or [_("Invalid nickname.")]
        return _api_error(400, "bad_nickname", str(errors[0]))
    too_many = _too_many_joins(request)
    if too_many is not None:
        return _api_error(429, "rate_limited", too_many)
    device_id = identity.device_id_from(request.COOKIES) or identity.new_device_id()
    details = _join_details(request, session, device_id)
    try:
        joined = actions.do_join_session(
            session, form.cleaned_data.get(field) or "", device_id, **details
        )
    except actions.ActionRefused as refusal:
        status, code = API_REFUSALS.get(refusal.code, (400, refusal.code))
        return _api_error(status, code, refusal.message)
    if isinstance(joined, JoinRequest):
        return _api_waiting(joined)
    return JsonResponse(_seat_body(joined), status=201)


def _seat_body(participant: Participant) -> dict:
    """Return the join API's answer for a seated student (docs/protocol.md §1)."""
    session = participant.session
    return {
        "participant": participant.pk,
        "nickname": participant.nickname,
        "session": session.join_code,
        "language": session.language,
        "token": identity.seat_token(participant),
        "play_url": reverse("live:play", args=[session.join_code]),
        "ws": f"/ws/play/{session.join_code}/",
    }


def _api_waiting(join_request: JoinRequest) -> JsonResponse:
    """Answer 202: the nickname waits for the teacher; poll ``wait_url`` for the seat."""
    token = identity.join_request_token(join_request)
    return JsonResponse(
        {
            "status": join_request.status,
            "nickname": join_request.nickname,
            "message": _("Your teacher must approve your nickname. Please wait."),
            "wait_url": reverse("classroom:join_wait", args=[join_request.pk]),
            "wait_token": token,
        },
        status=202,
    )


@csrf_protect
def join_form(request: HttpRequest, code: str = "") -> HttpResponse:
    """Ask for the code and a nickname (or a pseudonym from the class roster)."""
    current = identity.current_participant(request.COOKIES)
    device_id = (
        identity.device_id_from(request.COOKIES)
        or (current.device_id if current is not None else None)
        or identity.new_device_id()
    )
    typed_code = request.POST.get("code", code) if request.method == "POST" else code
    normalized = normalize_code(typed_code)
    session, code_error, status = _resolve_code(request, normalized)

    if session is not None:
        student_language(request, session)
        mine = current if current is not None and current.session_id == session.pk else None
        if mine is not None and mine.kicked:
            mine = None
        place = mine or session.participants.filter(device_id=device_id, kicked=False).first()
        if place is not None:  # this device already has a place: back to it
            to_lobby = redirect("classroom:lobby", code=session.join_code)
            return _seated(to_lobby, place, device_id, request)
        waiting = _waiting_request(session, device_id)
        if waiting is not None:  # this device asked the teacher already: back to waiting
            return _with_device(redirect("classroom:join_wait", pk=waiting.pk), device_id, request)

    pseudonyms = _free_pseudonyms(session) if session is not None else None
    generated = _generated(session, pseudonyms)
    initial = {"code": normalized or typed_code}
    roster_step = pseudonyms is not None and "pseudonym" not in request.POST
    if request.method == "POST" and not roster_step:
        form = JoinForm(request.POST, pseudonyms=pseudonyms, generated=generated, initial=initial)
        valid = form.is_valid()
        if code_error:
            form.add_error("code", code_error)
        elif valid and session is not None:
            joined = _try_join(request, form, session, device_id)
            if joined is not None:
                return joined
    else:
        form = JoinForm(pseudonyms=pseudonyms, generated=generated, initial=initial)
        if code_error:
            form.cleaned_data = {}  # lets an unbound form carry the code's error
            form.add_error("code", code_error)

    if current is not None and (current.kicked or not current.session.is_open):
        current = None
    context = {
        "form": form,
        "session": session,
        "game_name": game_name(session.game) if session else "",
        "no_free_pseudonym": pseudonyms == [],
        "was_removed": session is not None and _was_removed(session, device_id),
        "current": current if session is None else None,
        "retention_days": settings.RETENTION_DAYS,  # "Your privacy" says when it goes
    }
    response = render(request, "classroom/join.html", context, status=status)
    return _with_device(response, device_id, request)


def _generated(session: ClassSession | None, pseudonyms: list[str] | None) -> bool:
    """Tell whether the student gets a generated nickname (a class roster comes first)."""
    return session is not None and pseudonyms is None and session.generated_nicknames


def _waiting_request(session: ClassSession, device_id: str) -> JoinRequest | None:
    """Return this device's join request in the session that still waits or was refused,
    if any (an expired one lets the device ask again)."""
    waiting = JoinRequest.waiting().filter(session=session, device_id=device_id).first()
    if waiting is not None:
        return waiting
    mine = session.join_requests.filter(device_id=device_id)
    return mine.filter(status=JoinRequest.Status.REFUSED).first()


def _was_removed(session: ClassSession, device_id: str) -> bool:
    """Tell whether this device was a removed student's in the session."""
    return session.participants.filter(device_id=device_id, kicked=True).exists()


@htmx_at_own_address
def lobby(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """Show the student's place in the session; a reload or a dropped link comes back here."""
    participant, refusal = student_in_session(request, code)
    if refusal is not None:
        return refusal
    assert participant is not None  # student_in_session returns one of the two
    session = participant.session
    actions.do_touch_participant(participant)
    seated = Seat.objects.filter(participant=participant, table__session=session).exists()
    if seated and session.is_open:  # the game started: to the table
        target = reverse("live:play", args=[session.join_code])
        return HttpResponseClientRedirect(target) if request.htmx else redirect(target)
    return render(
        request,
        "classroom/lobby.html",
        {
            "session": session,
            "participant": participant,
            "participants": session.active_participants(),
            "game_name": game_name(session.game),
            "how_to_play": how_to_play(session.game, session.variant, session.options),
            **({} if session.is_open else ended_offers(participant)),
        },
    )
