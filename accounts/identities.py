"""Accounts signed in with Apple or Google: sign-in, linking and unlinking.

An identity is the provider's ``sub``, which never changes for one person and app. Its
first sign-in makes an account; later ones sign in to it. The new account's username is
the one the app sends, or one made from the token's given name (``player`` without one),
with a number added until it is free; never from the e-mail address, which would publish
it (or Apple's relay address) as a username. The token's e-mail becomes the account's,
verified, only when the provider says it is verified.

An account is never linked by its e-mail alone: when a new identity's verified address is
one another account has verified, the sign-in is refused (``EMAIL_TAKEN``), and the owner
of that account links the provider after signing in to it (``identity_link``). A provider
that vouched for an address once is not proof that whoever holds the identity now holds
the account.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import services
from accounts.emails import verified_elsewhere
from accounts.models import AuthToken, Provider, ProviderIdentity, VerifiedEmail
from accounts.providers import Claims
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError

DEFAULT_NAME = "player"
NAME_STEM_LENGTH = 26
EMAIL_MAX_LENGTH = 254


@dataclass(frozen=True)
class SignIn:
    user: User
    token: AuthToken
    key: str
    created: bool


def _stem(claims: Claims) -> str:
    ascii_name = unicodedata.normalize("NFKD", claims.given_name or "")
    ascii_name = ascii_name.encode("ascii", "ignore").decode().lower()
    stem = re.sub(r"[^a-z0-9._-]", "", ascii_name)[:NAME_STEM_LENGTH]
    return stem if len(stem) >= 3 else DEFAULT_NAME


def username_made(claims: Claims) -> str:
    """A free username from the token's given name: the stem, else the stem and a number."""
    stem = _stem(claims)
    taken = {
        name.lower()
        for name in User.objects.filter(username__istartswith=stem).values_list(
            "username", flat=True
        )
    }
    number = 1
    name = stem
    while name in taken:
        number += 1
        name = f"{stem}{number}"
    return name


def _account_make(claims: Claims, username: str | None) -> User:
    address = claims.email if claims.email_verified else None
    if address is not None and len(address) > EMAIL_MAX_LENGTH:
        address = None
    if address is not None and verified_elsewhere(address, None):
        raise ServiceError(
            Code.EMAIL_TAKEN,
            _("An account has verified %(address)s: sign in to it, then link %(provider)s to it.")
            % {"address": address, "provider": Provider(claims.provider).label},
        )
    user = services.user_register(
        username=username or username_made(claims), password=None, email=address or ""
    )
    if address is not None:
        VerifiedEmail.objects.create(user=user, address=address, verified_at=timezone.now())
    return user


def _identity_add(user: User, claims: Claims) -> ProviderIdentity:
    return ProviderIdentity.objects.create(
        user=user,
        provider=claims.provider,
        subject=claims.subject,
        email=(claims.email or "")[:EMAIL_MAX_LENGTH],
        email_verified=claims.email_verified,
        last_used=timezone.now(),
    )


def provider_sign_in(
    request: HttpRequest,
    claims: Claims,
    *,
    username: str | None,
    token_name: str | None,
    again: bool = True,
) -> SignIn:
    """A new token for the account of this identity, made first if the identity is new."""
    try:
        with transaction.atomic():
            found = ProviderIdentity.objects.select_for_update().select_related("user")
            identity = found.filter(provider=claims.provider, subject=claims.subject).first()
            created = identity is None
            if identity is None:
                user = _account_make(claims, username)
                _identity_add(user, claims)
            else:
                user = identity.user
                if not user.is_active:
                    raise ServiceError(Code.PERMISSION_DENIED, _("This account is disabled."))
                identity.email = (claims.email or "")[:EMAIL_MAX_LENGTH]
                identity.email_verified = claims.email_verified
                identity.last_used = timezone.now()
                identity.save(update_fields=["email", "email_verified", "last_used"])
            token, key = services.session_open(request, user, name=token_name)
    except IntegrityError:
        if not again:
            raise
        # The same identity's first sign-in (or a name made alike) committed meanwhile: the
        # second look finds its account.
        return provider_sign_in(
            request, claims, username=username, token_name=token_name, again=False
        )
    return SignIn(user=user, token=token, key=key, created=created)


def identity_link(user: User, claims: Claims) -> tuple[ProviderIdentity, bool]:
    """Link this identity to ``user``; returns it and whether it is new."""
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        found = ProviderIdentity.objects.filter(provider=claims.provider)
        mine = found.filter(user=user).first()
        if mine is not None and mine.subject == claims.subject:
            return mine, False
        if mine is not None or found.filter(subject=claims.subject).exists():
            raise ServiceError(
                Code.PROVIDER_ALREADY_LINKED,
                _(
                    "This %(provider)s identity is linked to an account, or yours has another "
                    "one; unlink it first."
                )
                % {"provider": Provider(claims.provider).label},
            )
        return _identity_add(user, claims), True


def identities_of(user: User) -> QuerySet[ProviderIdentity]:
    return ProviderIdentity.objects.filter(user=user)


def identity_unlink(user: User, identity_id: int) -> None:
    """Unlink one of the user's identities, unless it is their last way to sign in."""
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        identity = ProviderIdentity.objects.filter(user=user, pk=identity_id).first()
        if identity is None:
            raise ServiceError(Code.NOT_FOUND, _("You have no linked identity with this id."))
        others = ProviderIdentity.objects.filter(user=user).exclude(pk=identity.pk).exists()
        if not others and not user.has_usable_password():
            raise ServiceError(
                Code.LAST_SIGN_IN_METHOD,
                _(
                    "This is the account's only way to sign in: set a password (by a reset "
                    "to its verified e-mail) or link another provider first."
                ),
            )
        identity.delete()
