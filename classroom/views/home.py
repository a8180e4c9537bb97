"""The home page and the teacher's dashboard."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from classroom.catalogue import deck_games
from classroom.models import ClassSession
from classroom.typing import AuthenticatedHttpRequest
from classroom.views.common import teacher_classes, teacher_sessions

RECENT_SESSIONS = 20


def home(request: HttpRequest) -> HttpResponse:
    """Say what the platform is; send students to join and teachers to log in."""
    return render(request, "home.html")


@login_required
def dashboard(request: AuthenticatedHttpRequest) -> HttpResponse:
    """List the teacher's classes and sessions."""
    classes = teacher_classes(request)
    sessions = teacher_sessions(request)
    return render(
        request,
        "classroom/dashboard.html",
        {
            "active_classes": classes.filter(archived_at__isnull=True),
            "archived_classes": classes.filter(archived_at__isnull=False),
            "open_sessions": sessions.exclude(state=ClassSession.State.FINISHED),
            "finished_sessions": sessions.filter(state=ClassSession.State.FINISHED)[
                :RECENT_SESSIONS
            ],
            "deck_builder": bool(deck_games()),
        },
    )
