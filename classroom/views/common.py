"""What the views share: the teacher's querysets scoped to their owner, and the student's place."""

from collections.abc import Callable

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation

from classroom import identity
from classroom.codes import normalize_code
from classroom.models import ClassSession, Participant, SchoolClass
from classroom.typing import AuthenticatedHttpRequest

# What apps above the classroom offer a student once their session has ended (the
# lessons app: the quiz and the lesson library), registered from their
# AppConfig.ready(), so that the classroom imports none of them. Each returns template
# context for classroom/fragments/student_ended.html (``quiz_url``, ``library_url``).
ENDED_OFFERS: list[Callable[[Participant], dict]] = []


def register_ended_offer(offer: Callable[[Participant], dict]) -> None:
    """Add ``offer(participant) -> context`` to every student's "session ended" page."""
    if offer not in ENDED_OFFERS:
        ENDED_OFFERS.append(offer)


def ended_offers(participant: Participant) -> dict:
    """Return what the apps offer this student on their "session ended" page, and
    ``played``: whether they sat at a table (a session ended in its lobby thanks nobody
    for playing)."""
    context: dict = {"played": participant.seats.exists()}
    for offer in ENDED_OFFERS:
        context.update(offer(participant))
    return context


def teacher_classes(request: AuthenticatedHttpRequest) -> QuerySet[SchoolClass]:
    """Return the classes of the logged-in teacher, and no one else's."""
    return SchoolClass.objects.filter(teacher=request.user)


def teacher_sessions(request: AuthenticatedHttpRequest) -> QuerySet[ClassSession]:
    """Return the sessions of the logged-in teacher's classes."""
    return ClassSession.objects.filter(school_class__teacher=request.user).select_related(
        "school_class"
    )


def get_class_or_404(request: AuthenticatedHttpRequest, pk: int) -> SchoolClass:
    """Return the teacher's class, or 404 for any class of another teacher."""
    return get_object_or_404(teacher_classes(request), pk=pk)


def get_session_or_404(request: AuthenticatedHttpRequest, pk: int) -> ClassSession:
    """Return the teacher's session, or 404 for any session of another teacher."""
    return get_object_or_404(teacher_sessions(request), pk=pk)


def student_language(request: HttpRequest, session: ClassSession) -> str:
    """Activate and return a student's language: their choice on this device (the
    language switch), else the session's."""
    language = identity.chosen_language(request.COOKIES, session.language)
    translation.activate(language)
    request.LANGUAGE_CODE = language
    return language


def student_in_session(
    request: HttpRequest, code: str
) -> tuple[Participant, None] | tuple[None, HttpResponse]:
    """Return the device's participant in the session of ``code``, in the student's language.

    Return ``(participant, None)`` for a student of that session, or ``(None, response)``
    to send back instead: the join form for a device with no place in that session, or
    the "removed" page for a student the teacher removed.
    """
    participant = identity.current_participant(request.COOKIES)
    normalized = normalize_code(code)
    if participant is None or participant.session.join_code != normalized:
        return None, redirect(reverse("classroom:join_code", args=[normalized]))
    session = participant.session
    student_language(request, session)
    if participant.kicked:
        page = render(request, "classroom/student_removed.html", {"session": session}, status=403)
        return None, page
    return participant, None
