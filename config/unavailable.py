"""A backing service that fails (Redis gone or stalled, the database locked or down, the
Celery broker unreachable) is a message to the person, never a crash.

``classroom.services.SERVICE_ERRORS`` names those failures for every handler that
catches them; the middleware answers an HTTP request that met one with a 503 page (or JSON for a
program) that says to try again, and logs one line, without a traceback: the cause is
the service, not the code.
"""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from classroom.services import SERVICE_ERRORS, describe

logger = logging.getLogger("config.unavailable")

# Seconds a client is asked to wait before trying again.
RETRY_AFTER_SECONDS = 5


class ServiceUnavailableMiddleware:
    """Turn a service failure during a view into a 503 that says to try again."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):
        if not isinstance(exception, SERVICE_ERRORS):
            return None
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
