"""A teacher's classes: create, show, rename and edit the roster, archive, delete."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from classroom import actions
from classroom.catalogue import game_name
from classroom.forms import SchoolClassForm
from classroom.typing import AuthenticatedHttpRequest
from classroom.views.common import get_class_or_404


@login_required
def class_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Create a class."""
    form = SchoolClassForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        school_class = actions.do_create_class(
            request.user, form.cleaned_data["name"], form.cleaned_data["roster"]
        )
        messages.success(request, _("Class “%(name)s” created.") % {"name": school_class.name})
        return redirect(school_class)
    return render(request, "classroom/class_form.html", {"form": form, "creating": True})


@login_required
def class_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Show a class, its roster and its sessions (each with its game's name)."""
    school_class = get_class_or_404(request, pk)
    return render(
        request,
        "classroom/class_detail.html",
        {
            "school_class": school_class,
            "sessions": [
                {"session": session, "game_name": game_name(session.game)}
                for session in school_class.sessions.all()
            ],
        },
    )


@login_required
def class_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Rename a class and edit its roster."""
    school_class = get_class_or_404(request, pk)
    form = SchoolClassForm(request.POST or None, instance=school_class)
    if request.method == "POST" and form.is_valid():
        actions.do_update_class(
            school_class, form.cleaned_data["name"], form.cleaned_data["roster"]
        )
        messages.success(request, _("Class saved."))
        return redirect(school_class)
    return render(
        request,
        "classroom/class_form.html",
        {"form": form, "school_class": school_class, "creating": False},
    )


@login_required
def class_archive(request: AuthenticatedHttpRequest, pk: int) -> HttpResponseRedirect:
    """Archive a class (POST); a GET goes back to the class."""
    school_class = get_class_or_404(request, pk)
    if request.method == "POST":
        actions.do_archive_class(school_class)
        messages.success(request, _("Class archived."))
    return redirect(school_class)


@login_required
def class_unarchive(request: AuthenticatedHttpRequest, pk: int) -> HttpResponseRedirect:
    """Bring an archived class back (POST); a GET goes back to the class."""
    school_class = get_class_or_404(request, pk)
    if request.method == "POST":
        actions.do_unarchive_class(school_class)
        messages.success(request, _("Class restored."))
    return redirect(school_class)


@login_required
def class_delete(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Ask for confirmation (GET), then delete the class with its sessions (POST)."""
    school_class = get_class_or_404(request, pk)
    if request.method == "POST":
        name = school_class.name
        actions.do_delete_class(school_class)
        messages.success(request, _("Class “%(name)s” deleted.") % {"name": name})
        return redirect("classroom:dashboard")
    return render(request, "classroom/class_confirm_delete.html", {"school_class": school_class})
