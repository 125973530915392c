"""How many messages an account, an address or a client may ask for.

Each limit is a counter in the cache per window (``ttr_service.http.throttling.count_hit``,
the request throttles' own), so on Redis every process shares it and, like them, it lets
requests through while Redis does not answer. A request past any of its rates is refused
with 429 ``EMAIL_THROTTLED`` and ``Retry-After``; refused requests count too, so a client
that keeps asking waits out the window it is in.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Iterable

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ttr_service.config.account_env import Rate
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError
from ttr_service.http.throttling import count_hit


def wait_after_hit(key: str, rates: Iterable[Rate]) -> int | None:
    """Count one request under ``key`` against each rate; the seconds to wait when one of
    them is passed, else None."""
    now = time.time()
    waits = []
    for rate in rates:
        hits, left = count_hit(f"{key}:{rate.seconds}", rate.seconds, now)
        if hits > rate.count:
            waits.append(left)
    return max(1, math.ceil(max(waits))) if waits else None


def _throttled(detail: str, wait: int) -> ServiceError:
    again = ngettext(
        "Try again in %(seconds)d second.", "Try again in %(seconds)d seconds.", wait
    ) % {"seconds": wait}
    error = ServiceError(Code.EMAIL_THROTTLED, f"{detail} {again}")
    error.wait = wait
    return error


def email_code_allow(user_id: int) -> None:
    """One more verification message for this account, or ``EMAIL_THROTTLED``."""
    wait = wait_after_hit(f"accounts:email-code:{user_id}", settings.ACCOUNT_EMAIL.code_rates)
    if wait is not None:
        raise _throttled(_("Too many verification messages asked for this account."), wait)


def password_reset_allow(address: str, client: str | None) -> None:
    """One more reset request for this address from this client, or ``EMAIL_THROTTLED``.

    The address is counted whether or not an account has it, by a digest of its lower-case
    form, so the answer is the same either way and the cache holds no address."""
    limits = settings.ACCOUNT_EMAIL
    wait = wait_after_hit(f"accounts:reset-ip:{client}", limits.reset_ip_rates)
    if wait is not None:
        raise _throttled(_("Too many password resets asked for from this address."), wait)
    digest = hashlib.sha256(address.lower().encode()).hexdigest()
    wait = wait_after_hit(f"accounts:reset-address:{digest}", limits.reset_address_rates)
    if wait is not None:
        raise _throttled(_("Too many password resets asked for this e-mail address."), wait)
