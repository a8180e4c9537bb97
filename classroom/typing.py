"""Request types for the views' signatures: what a middleware or a decorator guarantees
that ``HttpRequest`` alone does not say. Annotations only: Django builds the requests."""

from typing import TYPE_CHECKING

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

if TYPE_CHECKING:
    # Not at run time: importing this module must not load the models.
    from django.contrib.auth.models import User


class AuthenticatedHttpRequest(HttpRequest):
    """The request of a view behind ``login_required``: its user is a teacher's account,
    never AnonymousUser."""

    user: "User"


class HtmxHttpRequest(HttpRequest):
    """A request seen by django-htmx's middleware (every request, see settings), which
    sets ``request.htmx``."""

    htmx: HtmxDetails
