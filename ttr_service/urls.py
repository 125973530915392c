"""URL routes. Every API path lives under /api/<version>/, one namespace per version."""

from django.urls import include, path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerView,
)

from ttr_service.health import HealthView

# DRF's NamespaceVersioning reads request.version from the namespace, and its reverse()
# adds the namespace, so the docs views name the schema route without it.
api_v1 = [
    path("health", HealthView.as_view(), name="health"),
    path("schema", SpectacularAPIView.as_view(), name="schema"),
    path("docs", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("redoc", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
    path("auth/", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("notifications.urls")),
    path("", include("ratings.urls")),
]

urlpatterns = [
    path("api/v1/", include((api_v1, "v1"), namespace="v1")),
    path("", include("web.urls")),
]

handler404 = "ttr_service.problems.json_handler404"
handler500 = "ttr_service.problems.json_handler500"
