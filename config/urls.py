"""Top-level URL routes: every app's routes, the admin, i18n and the health check."""

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from config.health import healthz
from config.i18n import LanguageCatalog

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("jsi18n/<str:language>/", LanguageCatalog.as_view(), name="javascript-catalog-in"),
    path("", include("live.urls")),
    path("lessons/", include("lessons.urls")),
    path("", include("debrief.urls")),
    path("", include("classroom.urls")),
]
