"""The teacher's debrief pages: export a session's report, follow its progress, download
its files, replay a table's match; delete a session's student data; the privacy page."""

from csp.constants import NONE, UNSAFE_INLINE
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from classroom.models import ClassSession, Table
from classroom.retention import purge_notice, purge_session
from classroom.typing import AuthenticatedHttpRequest
from debrief.actions import do_request_export
from debrief.files import CONTENT_TYPES
from debrief.models import DebriefExport
from debrief.replay import frame

REPORT_POLICY = {
    "default-src": [NONE],
    "style-src": [UNSAFE_INLINE],
    "img-src": ["data:"],
    "base-uri": [NONE],
    "form-action": [NONE],
    "frame-ancestors": [NONE],
}


def _session_or_404(request: AuthenticatedHttpRequest, pk: int) -> ClassSession:
    """Return the logged-in teacher's session; 404 for anyone else's or an unknown one."""
    return get_object_or_404(
        ClassSession.objects.select_related("school_class"),
        pk=pk,
        school_class__teacher=request.user,
    )


def _export_or_404(request: AuthenticatedHttpRequest, pk: int) -> DebriefExport:
    """Return an export of one of the teacher's sessions; 404 otherwise."""
    return get_object_or_404(
        DebriefExport.objects.select_related("session__school_class"),
        pk=pk,
        session__school_class__teacher=request.user,
    )


@login_required
@require_http_methods(["GET", "POST"])
def debrief_session(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """List a session's exports (GET); start a new export (POST) and follow its progress."""
    session = _session_or_404(request, pk)
    if request.method == "POST":
        if session.state == ClassSession.State.LOBBY or session.purged_at is not None:
            messages.error(request, _("Only a running or finished session can be exported."))
            return redirect(session)
        export = do_request_export(session, request.user)
        return redirect("debrief:status", pk=export.pk)
    exports = session.debrief_exports.all()
    return render(
        request,
        "debrief/session.html",
        {"session": session, "exports": exports, **purge_notice(session)},
    )


@login_required
def debrief_status(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Show an export's progress, live, then its download links or its error."""
    export = _export_or_404(request, pk)
    return render(request, "debrief/status.html", {"export": export})


@login_required
def debrief_progress(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Return the progress fragment that the status page polls every second."""
    export = _export_or_404(request, pk)
    return render(request, "debrief/_progress.html", {"export": export})


@login_required
def debrief_file(request: AuthenticatedHttpRequest, pk: int, fmt: str) -> FileResponse:
    """Serve one of an export's files to the session's teacher only (never publicly)."""
    export = _export_or_404(request, pk)
    name = export.files.get(fmt)
    if export.status != DebriefExport.Status.DONE or name is None:
        raise Http404
    path = export.folder() / name
    if not path.is_file():
        raise Http404
    inline = fmt == "html"
    download = f"debrief-{export.session.join_code}-{export.pk}.{fmt}"
    response = FileResponse(
        path.open("rb"),
        as_attachment=not inline,
        filename=download,
        content_type=CONTENT_TYPES[fmt],
    )
    response["Cache-Control"] = "private, no-store"
    if inline:
        # The report is one self-contained file (its stylesheet and charts inside, so it
        # also works saved to disk): its inline style and data: images are let in, and
        # no script at all.
        # django-csp's middleware reads this attribute, set by its decorators too.
        response._csp_config = REPORT_POLICY  # type: ignore[attr-defined]
    return response


@login_required
def debrief_replay(request: AuthenticatedHttpRequest, pk: int, table: int) -> HttpResponse:
    """Step through a table's match move by move with every hand shown (the teacher only)."""
    session = _session_or_404(request, pk)
    the_table = get_object_or_404(
        Table.objects.select_related("match"), session=session, number=table
    )
    try:
        move = int(request.GET.get("move", "0"))
    except ValueError:
        move = 0
    current = frame(the_table, move, session.language)
    tables = list(session.tables.values_list("number", flat=True))
    context = {"session": session, "table": the_table, "frame": current, "tables": tables}
    return render(request, "debrief/replay.html", context)


@login_required
@require_POST
def delete_session_data(request: AuthenticatedHttpRequest, pk: int) -> HttpResponseRedirect:
    """Delete every piece of the session's student data now (the teacher confirmed)."""
    session = _session_or_404(request, pk)
    purge_session(session)
    messages.success(
        request,
        _("The session's student data is deleted: nicknames, games, answers and reports."),
    )
    return redirect(session)


def privacy(request: HttpRequest) -> HttpResponse:
    """Say exactly what the platform stores, why, and for how long."""
    context = {
        "retention_days": settings.RETENTION_DAYS,
        "join_request_minutes": settings.JOIN_REQUEST_MINUTES,
        "address_hold_minutes": settings.REMOVED_ADDRESS_HOLD_MINUTES,
        "login_attempt_hours": settings.LOGIN_ATTEMPT_HOURS,
        "roster_days": settings.ROSTER_DAYS,
        "account_days": settings.ACCOUNT_DAYS,
        "admin_log_days": settings.ADMIN_LOG_DAYS,
        "backup_hours": settings.BACKUP_HOURS,
        "backup_days": settings.BACKUP_DAYS,
        "backups_encrypted": bool(settings.BACKUP_RECIPIENTS),
    }
    return render(request, "privacy.html", context)
