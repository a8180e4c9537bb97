"""A backing service that fails (Redis gone or stalled, the database locked or down, the
Celery broker unreachable) is a message to the person, never a crash.

``classroom.services.SERVICE_ERRORS`` names those failures for every handler that
catches them; the middleware answers an HTTP request that met one with a 503 page (or JSON for a
program) that says to try again, and logs one line, without a traceback: the cause is
the service, not the code.

A request that met its database connection dropped (a restart, a failover: the
connection was in steady use, so no check ran before it) runs once more on a new
connection instead, when running it twice changes nothing: a page read (GET, HEAD), or
any request that had sent the database nothing but reads (``SELECT``) when it met the
drop, which is how nearly every form's POST begins (its session, its teacher, its
class). One that had sent a write may have had it stored: its 503 says to try again.
"""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from classroom.services import SERVICE_ERRORS, describe

logger = logging.getLogger("config.unavailable")

# Seconds a client is asked to wait before trying again.
RETRY_AFTER_SECONDS = 5
# The requests that only read, and may be served twice.
READS = frozenset({"GET", "HEAD", "OPTIONS"})


class SentStatements:
    """Notes whether a request sent the database anything but reads (a Django
    ``execute_wrapper``: each statement is seen as it is sent, before its answer)."""

    only_reads = True

    def __call__(self, execute, sql, params, many, context):
        if self.only_reads and sql.lstrip()[:6].upper() != "SELECT":
            self.only_reads = False
        return execute(sql, params, many, context)


class ServiceUnavailableMiddleware:
    """Turn a service failure during a view into a 503 that says to try again."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.sent_statements = sent = SentStatements()
        with connection.execute_wrapper(sent):
            return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):
        if not isinstance(exception, SERVICE_ERRORS):
            return None
        if self.may_run_again(request, exception):
            logger.warning(
                "%s %s: database connection lost (%s): once more on a new one",
                request.method,
                request.path,
                describe(exception),
            )
            connection.close()
            request.ran_again = True
            return self.get_response(request)  # a second failure is answered below
        logger.warning(
            "%s %s: service unavailable: %s", request.method, request.path, describe(exception)
        )
        message = _(
            "The server is busy for a moment and could not do this. Please try again in a "
            "few seconds."
        )
        if request.content_type == "application/json" or "json" in request.headers.get(
            "Accept", ""
        ):
            response = JsonResponse(
                {"error": {"code": "unavailable", "message": message}}, status=503
            )
        else:
            html = render_to_string("503.html", {"message": message}, request=request)
            response = HttpResponse(html, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response

    @staticmethod
    def may_run_again(request: HttpRequest, exception: Exception) -> bool:
        """Whether ``request`` met its database connection lost on its first run, and
        running it again changes nothing: a read, or one that had sent only reads.

        Not a connection that could not be had (the database away or every connection
        busy: a second try would wait again for the same answer), nor one Django had
        replaced (a failed transaction's: its statements were reads, or it is not run
        again, and a read's view seldom opens one)."""
        sent = getattr(request, "sent_statements", None)
        return (
            not getattr(request, "ran_again", False)
            and isinstance(exception, OperationalError | InterfaceError)
            and (request.method in READS or (sent is not None and sent.only_reads))
            and connection.connection is not None
            and not connection.is_usable()
        )
