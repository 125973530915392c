"""Changing a password, and resetting a forgotten one by e-mail.

A reset's secret is Django's ``PasswordResetTokenGenerator`` token, after the user's id: it
is made from the account's password hash, last sign-in and e-mail, so setting a password
(or signing in) spends it, and it expires after ``PASSWORD_RESET_TIMEOUT`` seconds. Nothing
of it is stored. A request for a reset never reads the accounts: it is throttled, then the
worker looks the address up and sends what is due, so the answer and its timing are the
same whether or not an account has that address.
"""

from __future__ import annotations

from axes.utils import reset as lockouts_reset
from django.conf import settings
from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.fields import get_error_detail

from accounts import limits, mail
from accounts.languages import language_for
from accounts.models import AuthToken, VerifiedEmail
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError
from ttr_service.tasks.sending import send_task_on_commit

SEND_RESET = "accounts.tasks.send_password_reset"
# Between the user's id and the token; neither base64url nor the token holds one.
SEPARATOR = "."


class ResetTokens(PasswordResetTokenGenerator):
    key_salt = "ttr.accounts.passwords.ResetTokens"


reset_tokens = ResetTokens()


def password_checked(field: str, password: str, user: User) -> None:
    """Django's password validators, as ``VALIDATION_ERROR`` rows of ``field``."""
    try:
        validate_password(password, user=user)
    except DjangoValidationError as error:
        raise ValidationError({field: get_error_detail(error)}) from None


def password_change(
    user: User, token: AuthToken, *, current: str, new: str, revoke_others: bool
) -> int:
    """Set ``new`` once ``current`` is shown to be the password; with ``revoke_others``,
    every token of the user but ``token`` is revoked. Returns how many were."""
    if not user.has_usable_password():
        raise ServiceError(
            Code.PASSWORD_NOT_SET,
            _("This account signs in with a provider only; set a password with a reset by e-mail."),
        )
    if not user.check_password(current):
        raise ServiceError(Code.CURRENT_PASSWORD_WRONG, _("The current password is wrong."))
    password_checked("new_password", new, user)
    with transaction.atomic():
        user.set_password(new)
        user.save(update_fields=["password"])
        revoked = 0
        if revoke_others:
            revoked = AuthToken.objects.filter(user=user).exclude(pk=token.pk).delete()[0]
    return revoked


def password_reset_request(address: str, client: str | None) -> None:
    """Throttle, then have the worker send a reset to the accounts of ``address``."""
    limits.password_reset_allow(address, client)
    send_task_on_commit(SEND_RESET, address, translation.get_language())


def reset_recipients(address: str) -> list[User]:
    """The active accounts whose e-mail is ``address`` (ignoring case) and that may reset
    by it: those with a password, and those without one (a provider's sign-in only) whose
    address is verified."""
    verified = VerifiedEmail.objects.alias(lower=Lower("address")).filter(lower=address.lower())
    found = User.objects.alias(lower=Lower("email")).filter(lower=address.lower(), is_active=True)
    found = found.filter(
        ~Q(password__startswith=UNUSABLE_PASSWORD_PREFIX) | Q(pk__in=verified.values("user_id"))
    )
    return [user for user in found.order_by("pk") if user.email]


def reset_token_make(user: User) -> str:
    return urlsafe_base64_encode(force_bytes(user.pk)) + SEPARATOR + reset_tokens.make_token(user)


def password_reset_send(address: str, language: str | None = None) -> int:
    """The worker's part: one message to each account ``reset_recipients`` finds, in the
    account's language, else ``language`` (the asking request's)."""
    minutes = max(1, settings.PASSWORD_RESET_TIMEOUT // 60)
    sent = 0
    for user in reset_recipients(address):
        with translation.override(language_for(user, language)):
            message = mail.reset_message(
                username=user.get_username(), token=reset_token_make(user), minutes=minutes
            )
        mail.mail_send(user.email, message)
        sent += 1
    return sent


def _reset_user(token: str) -> User | None:
    uid, _, secret = token.partition(SEPARATOR)
    try:
        user_id = int(urlsafe_base64_decode(uid).decode())
    except (ValueError, UnicodeDecodeError):
        return None
    user = User.objects.select_for_update().filter(pk=user_id, is_active=True).first()
    if user is None or not reset_tokens.check_token(user, secret):
        return None
    return user


def password_reset_confirm(token: str, new: str) -> User:
    """Set ``new`` for the account of a reset's secret, revoke all its tokens and clear its
    login lockouts."""
    with transaction.atomic():
        user = _reset_user(token)
        if user is None:
            raise ServiceError(
                Code.RESET_TOKEN_INVALID,
                _("This reset link is wrong, was used already or has expired; ask for a new one."),
            )
        password_checked("new_password", new, user)
        user.set_password(new)
        user.save(update_fields=["password"])
        AuthToken.objects.filter(user=user).delete()
    # The owner of the address chose the password: failed logins no longer lock them out.
    lockouts_reset(username=user.get_username())
    return user
