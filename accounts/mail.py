"""Every message the accounts app sends, its words in this one module and marked for
translation, and how it is sent: plain text through Django's mail framework
(``EMAIL_BACKEND``, from ``DEFAULT_FROM_EMAIL``).

Messages are sent by the worker (``accounts.tasks``), queued once the request's transaction
has committed, so a request never waits for a mail server. Each is written in the
recipient's language (``accounts.languages.language_for``): their stored choice, else the
language of the request that asked for it, else English.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core.mail import send_mail
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

SERVICE_NAME = "Ticket to Ride"


@dataclass(frozen=True)
class Message:
    subject: str
    body: str


def verification_message(*, username: str, code: str, hours: int) -> Message:
    """The code that makes an address the account's, and its link."""
    link = settings.ACCOUNT_EMAIL.verify_url.replace("{code}", code)
    words = {"service": SERVICE_NAME, "username": username, "code": code, "hours": hours}
    subject = _("%(code)s is your %(service)s code") % words
    body = "\n\n".join(
        [
            _("Hello %(username)s,") % words,
            _(
                "Enter this code in the app to make this address your %(service)s account's "
                "e-mail address:"
            )
            % words,
            code,
            _("Or open this link on the device you play on:") % words,
            link,
            ngettext(
                "The code works once, for %(hours)d hour.",
                "The code works once, for %(hours)d hours.",
                hours,
            )
            % words,
            _("If you did not ask for it, ignore this message: nothing changes.") % words,
        ]
    )
    return Message(subject, body + "\n")


def reset_message(*, username: str, token: str, minutes: int) -> Message:
    """The link that sets a new password for the account named."""
    link = settings.ACCOUNT_EMAIL.reset_url.replace("{token}", token)
    words = {"service": SERVICE_NAME, "username": username, "minutes": minutes}
    subject = _("Reset your %(service)s password") % words
    body = "\n\n".join(
        [
            _("Hello %(username)s,") % words,
            _("Open this link to choose a new password for your account %(username)s:") % words,
            link,
            ngettext(
                "It works once, for %(minutes)d minute. Choosing a new password signs you out "
                "on every device.",
                "It works once, for %(minutes)d minutes. Choosing a new password signs you out "
                "on every device.",
                minutes,
            )
            % words,
            _("If you did not ask for it, ignore this message: your password stays as it is.")
            % words,
        ]
    )
    return Message(subject, body + "\n")


def mail_send(address: str, message: Message) -> None:
    """Send ``message`` to ``address``; a mail server that fails raises ``OSError``."""
    send_mail(
        subject=message.subject,
        message=message.body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        recipient_list=[address],
    )
