"""URL routes. Every API path lives under /api/<version>/, one namespace per version."""

from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path, re_path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerView,
)

from ttr_service.http.problems import api_not_found

# DRF's NamespaceVersioning reads request.version from the namespace, and its reverse()
# adds the namespace, so the docs views name the schema route without it.
api_v1: list[URLPattern | URLResolver] = [
    path("", include("ops.urls")),
    path("schema", SpectacularAPIView.as_view(), name="schema"),
    path("docs", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("redoc", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
    path("auth/", include("accounts.urls")),
    path("", include("accounts.ticket_urls")),
    path("", include("games.urls")),
    path("", include("notifications.urls")),
    path("", include("ratings.urls")),
    path("", include("social.urls")),
    path("", include("privacy.urls")),
    path("", include("matchmaking.urls")),
    path("", include("chat.urls")),
    # Anything else under /api/v1/ (an unknown path, a game id that is not a number) is a
    # problem+json 404, also with DEBUG on, where Django would answer an HTML page; [\s\S]
    # lets it match a path holding a line break too.
    re_path(r"^[\s\S]*$", api_not_found),
]

urlpatterns = [
    path("api/v1/", include((api_v1, "v1"), namespace="v1")),
    re_path(r"^api(/[\s\S]*)?$", api_not_found),
    # The staff's site (ttr_service/config/staff.py): the chat's report queue.
    path("admin/", admin.site.urls),
    path("", include("web.urls")),
]

handler404 = "ttr_service.http.problems.json_handler404"
handler500 = "ttr_service.http.problems.json_handler500"
