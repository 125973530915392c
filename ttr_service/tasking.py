"""What every task of the service shares: which errors are worth a retry."""

from __future__ import annotations

from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError

# A database or broker connection that failed for a moment; the task runs again with
# backoff. Tasks are idempotent, so a retry after a partial run changes nothing twice.
TRANSIENT_ERRORS = (OperationalError, InterfaceError, BrokerError, ConnectionError)
