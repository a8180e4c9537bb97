"""The JavaScript catalogue in a language named by the URL, for the pages whose language
is not the request's (a student's play page is in their chosen or the session's)."""

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.views.i18n import JavaScriptCatalog


class LanguageCatalog(JavaScriptCatalog):
    """``jsi18n/<language>/``: the djangojs catalogue in that language."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            language = translation.get_supported_language_variant(kwargs["language"])
        except LookupError as unknown:
            raise Http404 from unknown
        with translation.override(language):
            return super().get(request, *args, **kwargs)
