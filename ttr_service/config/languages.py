"""The languages the service speaks: English, and those of the rulebooks it plays (Greek,
Vietnamese, Russian). Each human-readable text the API, e-mails and notifications return
is translated from the app's catalogue (`<app>/locale/<lang>/LC_MESSAGES/django.po`)."""

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

# Catalogues outside an installed app: the engine's (it imports no Django, and is no app).
LOCALE_PATHS = [Path(__file__).resolve().parents[2] / "engine" / "locale"]


def settings() -> tuple[str, list[tuple[str, str]], list[Path]]:
    """Django's LANGUAGE_CODE, LANGUAGES and LOCALE_PATHS, as settings.py sets them."""
    return LANGUAGE_CODE, LANGUAGES, LOCALE_PATHS
