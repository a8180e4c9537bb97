"""The error pages (404, 403, 400, 500) are the site's own, not Django's bare English
ones: its layout (a phone's viewport), the visitor's language, a link home. The 500 page
needs no request and reads nothing from the database."""

from __future__ import annotations

from html import unescape

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from django.views import defaults

from tests.i18n.test_catalogues import (  # noqa: F401 (fixtures)
    LANGUAGES,
    compiled_catalogues,
    fresh_translations,
)

NOT_FOUND = {
    "en": "Page not found",
    "es": "Página no encontrada",
    "fr": "Page introuvable",
    "ru": "Страница не найдена",
}
HOME = {
    "en": "Back to the home page",
    "es": "Volver a la página de inicio",
    "fr": "Retour à la page d'accueil",
    "ru": "Вернуться на главную страницу",
}
TITLES = {
    "400": {"en": "Bad request", "fr": "Requête incorrecte"},
    "403": {"en": "Access denied", "fr": "Accès refusé"},
    "500": {"en": "Something went wrong", "fr": "Un problème est survenu"},
}


@pytest.fixture(autouse=True)
def _language_reset():
    """Leave no language active after a test: a test client's request leaves its
    Accept-Language's active in this thread, and a later test would render in it."""
    yield
    translation.deactivate()


def assert_site_page(body: str, language: str, heading: str) -> None:
    body = unescape(body)
    assert f'<html lang="{language}"' in body
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in body
    assert 'href="/static/css/app.css"' in body or "/static/css/app." in body
    assert f"<h1>{heading}</h1>" in body
    assert f'<a class="button" href="{reverse("home")}">{HOME[language]}</a>' in body
    assert "The requested resource was not found on this server." not in body


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.usefixtures("fresh_translations")
def test_a_missing_page_is_the_sites_own_in_the_visitors_language(language):
    response = Client().get("/no-such-page/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    body = response.content.decode()
    assert_site_page(body, language, NOT_FOUND[language])
    assert 'class="site-nav"' in body and reverse("classroom:join") in body


@pytest.mark.django_db
@pytest.mark.usefixtures("fresh_translations")
def test_a_missing_object_in_the_app_gives_the_same_page():
    """An Http404 of a view (a student who is in no session opens the quiz)."""
    response = Client().get(reverse("lessons:quiz"), HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 404
    assert_site_page(response.content.decode(), "fr", NOT_FOUND["fr"])


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.usefixtures("fresh_translations")
def test_forbidden_and_bad_request_pages_are_the_sites_own(language):
    request = RequestFactory().get("/somewhere/", HTTP_ACCEPT_LANGUAGE=language)
    with translation.override(language):
        forbidden = defaults.permission_denied(request, PermissionDenied("secret detail"))
        bad = defaults.bad_request(request, Exception("secret detail"))
    assert forbidden.status_code == 403 and bad.status_code == 400
    assert_site_page(forbidden.content.decode(), language, TITLES["403"][language])
    assert_site_page(bad.content.decode(), language, TITLES["400"][language])
    assert "secret detail" not in forbidden.content.decode() + bad.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.usefixtures("fresh_translations")
def test_the_server_error_page_needs_no_request_and_no_database(language):
    request = RequestFactory().get("/somewhere/")
    with translation.override(language), CaptureQueriesContext(connection) as queries:
        response = defaults.server_error(request)
    assert response.status_code == 500
    assert queries.captured_queries == []
    body = response.content.decode()
    assert_site_page(body, language, TITLES["500"][language])
    assert "csrfmiddlewaretoken" not in body  # no form that would need a request
