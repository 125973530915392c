"""Who may read the metrics: with ``METRICS_TOKEN`` set, a request bearing it; without, a
request from a loopback or private address that no proxy forwarded (a proxy on a private
address would otherwise pass on the public's requests)."""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Mapping

# Headers a proxy adds to the request it passes on.
FORWARDING_HEADERS = ("Forwarded", "X-Forwarded-For", "X-Real-IP")


def forwarded(headers: Mapping[str, str]) -> bool:
    return any(headers.get(name) for name in FORWARDING_HEADERS)


def private_address(address: str | None) -> bool:
    try:
        ip = ipaddress.ip_address((address or "").strip("[]"))
    except ValueError:
        return False
    return ip.is_loopback or ip.is_private


def allowed(
    token: str | None, authorization: str | None, address: str | None, *, forwarded: bool
) -> bool:
    if token:
        scheme, _, sent = (authorization or "").partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(
            sent.strip().encode(), token.encode()
        )
    return not forwarded and private_address(address)
