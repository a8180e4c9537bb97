"""Teacher sign-up, the "My account" page (Django's password change, with the account's
data and its deletion), a copy of the account's data, and account deletion (log in is
Django's view with the platform's form; log out is Django's own)."""

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView, PasswordChangeView
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from classroom.forms import DeleteAccountForm, PasswordForm, SignUpForm, TeacherLoginForm
from classroom.models import ClassSession, SchoolClass
from classroom.portability import account_data
from classroom.retention import delete_account, is_administrator, owned_by
from classroom.typing import AuthenticatedHttpRequest


def signup(request: HttpRequest) -> HttpResponse:
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


class LogInView(LoginView):
    """Django's log-in page, its refusal in the platform's words."""

    authentication_form = TeacherLoginForm


class AccountView(PasswordChangeView):
    """The "My account" page: change the password, download the account's data, and
    (a teacher's, not an administrator's) delete the account."""

    request: AuthenticatedHttpRequest  # PasswordChangeView requires a login
    form_class = PasswordForm

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        """Say whether the account may be deleted from here."""
        deletable = not is_administrator(self.request.user)
        return super().get_context_data(deletable=deletable, **kwargs)


@login_required
def account_download(request: AuthenticatedHttpRequest) -> JsonResponse:
    """Send the teacher a JSON file of everything their account holds that is theirs."""
    response = JsonResponse(account_data(request.user), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = 'attachment; filename="my-account.json"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
def account_delete(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Say what deleting the account takes with it (GET); delete it when the teacher
    confirms with their password (POST), then log them out."""
    user = request.user
    if is_administrator(user):
        messages.error(request, _("An administrator's account is managed in the administration."))
        return redirect("classroom:dashboard")
    form = DeleteAccountForm(user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        delete_account(user)
        logout(request)
        messages.success(request, _("Your account and everything it held are deleted."))
        return redirect("home")
    sessions = ClassSession.objects.filter(school_class__teacher=user)
    context = {
        "form": form,
        "owned": owned_by(user),
        # what the page names only where there is some: a roster, a session still open
        "rosters": SchoolClass.objects.filter(teacher=user).exclude(roster="").count(),
        "open_sessions": sessions.exclude(state=ClassSession.State.FINISHED).count(),
    }
    return render(request, "registration/account_delete.html", context)


def locked_out(
    request: HttpRequest,
    response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """Say why a teacher's login is refused after too many wrong passwords (django-axes
    calls this instead of logging in), and for how long, with status 429."""
    return render(
        request,
        "registration/locked_out.html",
        {"lockout_minutes": settings.LOGIN_LOCKOUT_MINUTES},
        status=429,
    )
