"""An account's e-mail address and its verification.

A new address waits (``EmailVerification``) until the code sent to it is entered; only then
does it become the user's ``email``, verified (``VerifiedEmail``). Until then the address
verified before stays the account's. One address is verified at a time: asking for another
replaces the one waiting.

The code is six digits, made by the worker that sends it (``email_code_send``): only its
HMAC under the secret key is stored, and it never crosses the broker. It works once, for
``EMAIL_CODE_HOURS``, and ``EMAIL_CODE_ATTEMPTS`` wrong tries spend it. Messages are
throttled per account (``THROTTLE_EMAIL_CODE_RATES``).

An address verified by another account is refused only when its code is entered
(``EMAIL_TAKEN``): whoever enters it has shown they receive its mail, and asking for a code
tells nobody whether the address has an account.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from hmac import compare_digest

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models.functions import Lower
from django.utils import timezone, translation
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import limits, mail
from accounts.languages import language_for, preferred_language
from accounts.models import EmailVerification, VerifiedEmail
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError
from ttr_service.tasks.sending import send_task_on_commit

SEND_CODE = "accounts.tasks.send_email_code"
CODE_DIGITS = 6
_SALT = "ttr.accounts.email-code"


@dataclass(frozen=True)
class EmailState:
    email: str | None
    email_verified: bool
    pending_email: str | None


def email_state_of(user: User) -> EmailState:
    verified = VerifiedEmail.objects.filter(user=user).values_list("address", flat=True).first()
    pending = EmailVerification.objects.filter(user=user).values_list("address", flat=True)
    return EmailState(
        email=user.email or None,
        email_verified=bool(user.email) and (verified or "").lower() == user.email.lower(),
        pending_email=pending.first(),
    )


def verified_elsewhere(address: str, user_id: int | None) -> bool:
    """Whether an account other than ``user_id``'s has verified ``address``."""
    found = VerifiedEmail.objects.alias(lower=Lower("address")).filter(lower=address.lower())
    if user_id is not None:
        found = found.exclude(user_id=user_id)
    return found.exists()


def code_digest(verification: EmailVerification, code: str) -> str:
    """The HMAC a code is kept as, bound to its account, address and round."""
    value = f"{verification.user_id}:{verification.round}:{verification.address.lower()}:{code}"
    return salted_hmac(_SALT, value, algorithm="sha256").hexdigest()


def email_code_request(user: User, address: str) -> EmailVerification:
    """Wait for ``address`` to be verified, with a new code sent to it once this commits.

    Part of the caller's transaction; throttled per account."""
    limits.email_code_allow(user.pk)
    verification, made = EmailVerification.objects.get_or_create(
        user=user, defaults={"address": address}
    )
    if not made:
        verification.address = address
        verification.round += 1
        verification.code_digest = ""
        verification.sent_at = verification.expires_at = None
        verification.wrong_attempts = 0
        verification.save()
    send_task_on_commit(SEND_CODE, verification.pk, verification.round, translation.get_language())
    return verification


def email_change(user: User, address: str) -> None:
    """``PUT /auth/email``: verify ``address`` for the account. Naming the verified address
    it has already drops any address waiting."""
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        if email_state_of(user).email_verified and user.email.lower() == address.lower():
            EmailVerification.objects.filter(user=user).delete()
            return
        email_code_request(user, address)


def email_code_resend(user: User) -> None:
    """A new code for the address waiting (the old one stops working)."""
    with transaction.atomic():
        verification = EmailVerification.objects.select_for_update().filter(user=user).first()
        if verification is None:
            raise not_pending()
        email_code_request(user, verification.address)


def not_pending() -> ServiceError:
    return ServiceError(
        Code.EMAIL_NOT_PENDING,
        _("No e-mail address waits for a code: set one with PUT /auth/email."),
    )


def email_verify(user: User, code: str) -> None:
    """Make the address waiting the account's, if ``code`` is the one sent to it."""
    with transaction.atomic():
        verification = EmailVerification.objects.select_for_update().filter(user=user).first()
        if verification is None:
            raise not_pending()
        refusal = _code_refusal(verification, code)
        if refusal is None:
            refusal = _address_take(user, verification)
    # Raised once the wrong try is counted (or the spent verification deleted) for good.
    if refusal is not None:
        raise refusal


def _code_refusal(verification: EmailVerification, code: str) -> ServiceError | None:
    allowed = settings.ACCOUNT_EMAIL.code_attempts
    expired = verification.expires_at is not None and verification.expires_at <= timezone.now()
    if expired or verification.wrong_attempts >= allowed:
        return ServiceError(
            Code.EMAIL_CODE_EXPIRED,
            _("This code has expired or was tried too often; ask for a new one."),
        )
    if verification.code_digest and compare_digest(
        verification.code_digest, code_digest(verification, code)
    ):
        return None
    if verification.code_digest:  # a code not sent yet cannot be guessed, so is not counted
        verification.wrong_attempts += 1
        verification.save(update_fields=["wrong_attempts"])
    left = allowed - verification.wrong_attempts
    return ServiceError(
        Code.EMAIL_CODE_INVALID,
        ngettext(
            "That is not the code sent to %(address)s; %(left)d try left.",
            "That is not the code sent to %(address)s; %(left)d tries left.",
            left,
        )
        % {"address": verification.address, "left": left},
    )


def _address_take(user: User, verification: EmailVerification) -> ServiceError | None:
    address = verification.address
    taken = ServiceError(
        Code.EMAIL_TAKEN,
        _("Another account has verified %(address)s; sign in to that account instead.")
        % {"address": address},
    )
    if verified_elsewhere(address, user.pk):
        verification.delete()
        return taken
    try:
        with transaction.atomic():  # the unique index settles two accounts verifying at once
            VerifiedEmail.objects.update_or_create(
                user=user, defaults={"address": address, "verified_at": timezone.now()}
            )
    except IntegrityError:
        verification.delete()
        return taken
    User.objects.filter(pk=user.pk).update(email=address)
    user.email = address
    verification.delete()
    return None


def email_code_send(verification_id: int, round_: int, language: str | None = None) -> str:
    """The worker's part: make the code of this round, keep its HMAC, send it. A round
    already sent, or replaced by a newer one, sends nothing. When the mail server fails the
    code is dropped and ``OSError`` raised, so a retry makes a new one. Written in the
    account's language, else ``language`` (the asking request's)."""
    code = f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"
    hours = settings.ACCOUNT_EMAIL.code_hours
    with transaction.atomic():
        found = EmailVerification.objects.select_for_update().select_related("user")
        verification = found.filter(pk=verification_id, round=round_, code_digest="").first()
        if verification is None:
            return "stale"
        verification.code_digest = code_digest(verification, code)
        verification.sent_at = timezone.now()
        verification.expires_at = verification.sent_at + timedelta(hours=hours)
        verification.save(update_fields=["code_digest", "sent_at", "expires_at"])
    with translation.override(language_for(verification.user, language)):
        message = mail.verification_message(
            username=verification.user.get_username(), code=code, hours=hours
        )
    try:
        mail.mail_send(verification.address, message)
    except OSError:
        EmailVerification.objects.filter(
            pk=verification.pk, round=round_, code_digest=verification.code_digest
        ).update(code_digest="", sent_at=None, expires_at=None)
        raise
    return "sent"


@dataclass(frozen=True)
class Account:
    """What ``GET /auth/me`` shows of an account."""

    id: int
    username: str
    email: str | None
    email_verified: bool
    pending_email: str | None
    has_password: bool
    date_joined: datetime
    language: str | None


def account_of(user: User) -> Account:
    state = email_state_of(user)
    return Account(
        id=user.pk,
        username=user.get_username(),
        email=state.email,
        email_verified=state.email_verified,
        pending_email=state.pending_email,
        has_password=user.has_usable_password(),
        date_joined=user.date_joined,
        language=preferred_language(user),
    )
