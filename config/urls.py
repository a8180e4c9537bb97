"""Top-level URL routes: every app's routes, the admin, i18n and the health check."""

from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView
from django.views.i18n import JavaScriptCatalog

from config.health import healthz
from config.i18n import LanguageCatalog

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    # Browsers ask for /favicon.ico on pages that name no icon (a PDF, a JSON answer).
    path("favicon.ico", RedirectView.as_view(url=static("img/favicon.svg"), permanent=True)),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("jsi18n/<str:language>/", LanguageCatalog.as_view(), name="javascript-catalog-in"),
    path("", include("live.urls")),
    path("lessons/", include("lessons.urls")),
    path("", include("debrief.urls")),
    path("", include("classroom.urls")),
]
