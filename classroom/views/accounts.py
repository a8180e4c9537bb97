"""Teacher sign-up (log in, log out and password change are Django's own views)."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from classroom.forms import SignUpForm


def signup(request):
    """Create a teacher account and log it in."""
    if request.user.is_authenticated:
        return redirect("classroom:dashboard")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome! Create your first class to get started."))
        return redirect("classroom:dashboard")
    return render(request, "registration/signup.html", {"form": form})


def locked_out(request, response=None, credentials=None):
    """Say why a teacher's login is refused after too many wrong passwords (django-axes
    calls this instead of logging in), and for how long, with status 429."""
    return render(
        request,
        "registration/locked_out.html",
        {"lockout_minutes": settings.LOGIN_LOCKOUT_MINUTES},
        status=429,
    )
