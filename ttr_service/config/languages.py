"""The languages the service speaks: English, and those of the rulebooks it plays (Greek,
Vietnamese, Russian). Each human-readable text the API, e-mails and notifications return
is translated from the app's catalogue (`<app>/locale/<lang>/LC_MESSAGES/django.po`).

How a request's language is chosen (docs/api.md, "Languages"): the account's stored
preference (``accounts.languages``, activated once DRF has authenticated the request), else
the best of ``Accept-Language`` that the service speaks (Django's ``LocaleMiddleware``:
``ru-RU`` gives ``ru``), else English, also for a language the service does not speak.
"""

from __future__ import annotations

from pathlib import Path

LANGUAGE_CODE = "en"

# Each language by its code (the API's `language` values) and its own name for itself.
LANGUAGES = [
    ("en", "English"),
    ("el", "Ελληνικά"),
    ("vi", "Tiếng Việt"),
    ("ru", "Русский"),
]
LANGUAGE_CODES = [code for code, _name in LANGUAGES]

# Catalogues outside any installed app: ttr_service's own (the problem titles, the shared
# refusals, and DRF's messages its Vietnamese catalogue lacks: ttr_service/http/drf_words.py;
# entries here win over the apps') and the rules engine's (engine/ imports no Django, so it
# is no app).
_ROOT = Path(__file__).resolve().parent.parent.parent
LOCALE_PATHS = [_ROOT / "ttr_service" / "locale", _ROOT / "engine" / "locale"]


def settings() -> tuple[str, list[tuple[str, str]], list[Path]]:
    """Django's LANGUAGE_CODE, LANGUAGES and LOCALE_PATHS, as settings.py sets them."""
    return LANGUAGE_CODE, LANGUAGES, LOCALE_PATHS
