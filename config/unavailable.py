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
class), or whose writes were all in the transaction the drop ended. One whose write may
have been stored (sent outside a transaction, or committed, or with its COMMIT met by
the drop) is not run again: its 503 says to try again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

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
    """What a request sent the database, as it sent it (a Django ``execute_wrapper``):
    whether a write of it may be stored, and whether its last statement failed on a
    lost connection."""

    def __init__(self) -> None:
        # A write that may be stored: one sent outside a transaction (autocommit stores
        # it as it runs, its answer may be lost), or one whose transaction committed.
        self.stored = False
        # A write sent in a transaction: stored only with its COMMIT, which a lost
        # connection may have answered or not.
        self.pending = False
        # The last statement failed, and on a connection then found lost (Django may
        # close it before the middleware sees the error: a failed transaction's).
        self.failed = self.lost = False

    def may_run_again(self) -> bool:
        """Whether nothing the request wrote can have been stored: no write, or only
        writes in the transaction its failed statement was in (the database lets that
        go with the connection)."""
        return not self.stored and (not self.pending or self.failed)

    def __call__(self, execute, sql, params, many, context):
        database = context["connection"]
        self.failed = self.lost = False
        if sql.lstrip()[:6].upper() != "SELECT":
            if database.in_atomic_block:
                self.pending = True
                database.on_commit(self._committed)
            else:
                self.stored = True
        try:
            return execute(sql, params, many, context)
        except (OperationalError, InterfaceError):
            self.failed = True
            # psycopg's own mark (SQLite's file is never lost); then the backend's check,
            # no round trip on a broken connection, which notes the loss for the
            # process's other connections (config/postgresql/base.py)
            self.lost = getattr(database.connection, "broken", False) and not database.is_usable()
            raise

    def _committed(self) -> None:
        self.stored = True


class WatchedRequest(HttpRequest):
    """A request as this middleware marks it (annotations only: Django makes the
    requests): the statements its view sent and, once it runs again, ``ran_again``."""

    sent_statements: SentStatements
    ran_again: bool


class ServiceUnavailableMiddleware:
    """Turn a service failure during a view into a 503 that says to try again."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: WatchedRequest) -> HttpResponse:
        request.sent_statements = sent = SentStatements()
        with connection.execute_wrapper(sent):
            return self.get_response(request)

    def process_exception(
        self, request: WatchedRequest, exception: Exception
    ) -> HttpResponse | None:
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
            response: HttpResponse = JsonResponse(
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
        running it again changes nothing: a read, or one that wrote nothing that can
        have been stored (``SentStatements.may_run_again``).

        Lost: its failed statement found the connection broken (Django may have closed
        it since: a failed transaction's), or the connection no longer answers. Not a
        connection that could not be had (the database away or every connection busy:
        a second try would wait again for the same answer)."""
        sent = getattr(request, "sent_statements", None)
        if getattr(request, "ran_again", False) or not isinstance(
            exception, OperationalError | InterfaceError
        ):
            return False
        if sent is not None and sent.failed:
            lost = sent.lost
        else:
            lost = connection.connection is not None and not connection.is_usable()
        return lost and (request.method in READS or (sent is not None and sent.may_run_again()))
