"""The language a player chose, and how it becomes the language of their requests.

Django's ``LocaleMiddleware`` activates the best language of ``Accept-Language`` (English
when it names none the service speaks) for every request. The account is known only once
DRF has authenticated the request; both ways in (``TokenAuthentication`` and
``StreamTicketAuthentication``) then call ``speak_preference``, so every API view and
stream speaks the account's stored language when it has one, whatever the header says.
The middleware sends the active language back as ``Content-Language`` on every answer.

Texts built for another person (a notification, an e-mail) are rendered in the
recipient's language: ``language_for(user)`` in ``translation.override``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.http import HttpRequest
from django.utils import translation
from rest_framework.request import Request

from accounts.models import LanguagePreference

# The preference a request already read, kept on the user object it belongs to.
_KEPT = "_ttr_language_preference"


def keep_preference(user: User, language: str | None) -> None:
    """Remember ``user``'s preference, read with the user (the token's query reads it)."""
    setattr(user, _KEPT, language or None)


def preferred_language(user: Any) -> str | None:
    """The language ``user`` chose (``en``, ``el``, ``vi``, ``ru``), or None: follow the
    client's ``Accept-Language``."""
    if not getattr(user, "pk", None):
        return None
    if not hasattr(user, _KEPT):
        language = (
            LanguagePreference.objects.filter(user_id=user.pk)
            .values_list("language", flat=True)
            .first()
        )
        keep_preference(user, language)
    kept: str | None = getattr(user, _KEPT)
    return kept


def set_preference(user: User, language: str | None) -> None:
    """Store ``user``'s choice; None deletes it (back to ``Accept-Language``)."""
    with transaction.atomic():
        if language is None:
            LanguagePreference.objects.filter(user=user).delete()
        else:
            LanguagePreference.objects.update_or_create(user=user, defaults={"language": language})
    keep_preference(user, language)


def speak_preference(user: Any) -> None:
    """Make ``user``'s chosen language the request's, when they chose one."""
    language = preferred_language(user)
    if language is not None:
        translation.activate(language)


def language_for(user: Any, fallback: str | None = None) -> str:
    """The language to write to ``user`` in: their choice, else ``fallback`` (the language
    of the request that caused the message), else the service's default (English)."""
    chosen = preferred_language(user) if user is not None else None
    return chosen or fallback or settings.LANGUAGE_CODE


def speak_anew(request: HttpRequest | Request, user: Any) -> None:
    """After a change of preference: the new one, or ``Accept-Language`` again."""
    language = preferred_language(user)
    translation.activate(language or translation.get_language_from_request(request))
