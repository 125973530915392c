"""The language of a request read from its ``Accept-Language`` header, for the answers
given before Django's ``LocaleMiddleware`` runs (the ASGI body-size guard)."""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header


def accepted_language(header: str) -> str:
    """The first language of ``header`` the service speaks (``ru-RU`` gives ``ru``), as
    ``LocaleMiddleware`` chooses it; the default (English) when it names none."""
    for code, _quality in parse_accept_lang_header(header):
        if code == "*":
            break
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return str(settings.LANGUAGE_CODE)
