"""The ``title`` of a problem body: the HTTP status phrase, in the request's language."""

from __future__ import annotations

from http import HTTPStatus

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

# Every status a problem is declared with, and those DRF and Django may answer.
TITLES: dict[int, Promise] = {
    400: pgettext_lazy("HTTP status", "Bad Request"),
    401: pgettext_lazy("HTTP status", "Unauthorized"),
    403: pgettext_lazy("HTTP status", "Forbidden"),
    404: pgettext_lazy("HTTP status", "Not Found"),
    405: pgettext_lazy("HTTP status", "Method Not Allowed"),
    406: pgettext_lazy("HTTP status", "Not Acceptable"),
    409: pgettext_lazy("HTTP status", "Conflict"),
    410: pgettext_lazy("HTTP status", "Gone"),
    413: pgettext_lazy("HTTP status", "Request Entity Too Large"),
    415: pgettext_lazy("HTTP status", "Unsupported Media Type"),
    422: pgettext_lazy("HTTP status", "Unprocessable Entity"),
    429: pgettext_lazy("HTTP status", "Too Many Requests"),
    500: pgettext_lazy("HTTP status", "Internal Server Error"),
    503: pgettext_lazy("HTTP status", "Service Unavailable"),
}


def title(status: int) -> str:
    """The status phrase in the active language (English for a status not listed)."""
    phrase = TITLES.get(status)
    return str(phrase) if phrase is not None else HTTPStatus(status).phrase
