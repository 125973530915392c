"""The staff's site: Django's admin at /admin/, where moderators work through the chat's
report queue. It signs staff in with a session cookie, so it brings the sessions and
messages apps, their middleware and the admin's template context; the API itself still
reads only tokens (REST_FRAMEWORK's authentication classes)."""

from __future__ import annotations

from typing import Any

APPS = ["django.contrib.admin", "django.contrib.sessions", "django.contrib.messages"]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
]
CONTEXT_PROCESSORS = [
    "django.contrib.auth.context_processors.auth",
    "django.contrib.messages.context_processors.messages",
]


def with_staff_site(
    apps: list[str], middleware: list[str], templates: list[dict[str, Any]]
) -> tuple[list[str], list[str], list[dict[str, Any]]]:
    """The installed apps, middleware and templates with the admin's added: its middleware
    after CSRF's (sessions before authentication before messages), before the rest."""
    at = middleware.index("django.middleware.csrf.CsrfViewMiddleware") + 1
    options = templates[0]["OPTIONS"]
    processors = [*options["context_processors"], *CONTEXT_PROCESSORS]
    return (
        [*apps, *APPS],
        [*middleware[:at], *MIDDLEWARE, *middleware[at:]],
        [{**templates[0], "OPTIONS": {**options, "context_processors": processors}}],
    )
