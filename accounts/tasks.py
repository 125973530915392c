"""Celery tasks of the accounts app: the messages, sent after the request committed.

Both are safe to run twice: a verification code is made once per round (a second run finds
it sent and sends nothing), and a second reset message is only a second link. A mail server
that fails raises ``OSError`` (smtplib's errors are ``OSError``), and the task is retried
with backoff; a verification code is made anew for the retry.
"""

from __future__ import annotations

from celery import shared_task

from accounts import emails, passwords
from ttr_service.tasks.sending import TRANSIENT_ERRORS

RETRIED = (*TRANSIENT_ERRORS, OSError)


@shared_task(
    name=emails.SEND_CODE, acks_late=True, autoretry_for=RETRIED, retry_backoff=True, max_retries=5
)
def send_email_code(verification_id: int, round_: int, language: str | None = None) -> str:
    """Make and send the code of this round of an address's verification (``language``: the
    asking request's, for an account without a choice of its own)."""
    return emails.email_code_send(verification_id, round_, language)


@shared_task(
    name=passwords.SEND_RESET,
    acks_late=True,
    autoretry_for=RETRIED,
    retry_backoff=True,
    max_retries=5,
)
def send_password_reset(address: str, language: str | None = None) -> int:
    """Send a reset link to each account of ``address`` that may have one; how many."""
    return passwords.password_reset_send(address, language)
