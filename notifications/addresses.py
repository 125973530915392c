"""Where a webhook may point: public addresses only, unless ``WEBHOOK_ALLOW_PRIVATE``.

A URL is checked when it is registered or changed, and again at every delivery, where
the host is resolved once, every address it gives is checked, and the request goes to
the checked address (the URL's host kept in ``Host`` and, for https, in SNI and the
certificate check). A name that resolved to a public address at registration and to an
internal one later (DNS rebinding) is so refused at delivery, and the resolver is never
asked twice for one attempt.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from django.utils.translation import gettext as _

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
DEFAULT_PORTS = {"http": 80, "https": 443}
# The resolver, looked up through this name so tests can stand in for DNS.
getaddrinfo = socket.getaddrinfo


class AddressRefused(Exception):
    """The URL's host is, or resolves to, an address that is not public."""


def is_public(address: IPAddress) -> bool:
    """False for private, loopback, link-local, shared, reserved and multicast addresses."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not address.is_multicast


def resolve(host: str, port: int) -> list[IPAddress]:
    """Every address ``host`` resolves to (a literal gives itself); OSError if none."""
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    found = getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(ipaddress.ip_address(info[4][0]) for info in found))


def _host_port(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    if not parts.hostname:
        raise AddressRefused(_("'%(url)s' names no host.") % {"url": url})
    return parts.hostname, parts.port or DEFAULT_PORTS.get(parts.scheme, 80)


def _refuse_private(host: str, addresses: list[IPAddress]) -> None:
    private = [str(a) for a in addresses if not is_public(a)]
    if private:
        where = host if private == [host] else f"{host} ({', '.join(private)})"
        raise AddressRefused(
            _(
                "%(host)s is a private, loopback or link-local address; webhooks may only "
                "call public addresses."
            )
            % {"host": where}
        )


def check_url(url: str, *, allow_private: bool) -> None:
    """At registration: refuse a host that is or resolves to a non-public address.

    A name that does not resolve now is let through; the check at delivery decides.
    """
    if allow_private:
        return
    host, port = _host_port(url)
    try:
        addresses = resolve(host, port)
    except (OSError, UnicodeError):
        return
    _refuse_private(host, addresses)


@dataclass(frozen=True)
class Target:
    """Where one attempt goes: ``url`` has the checked address in place of the host."""

    url: str
    host_header: str
    server_name: str | None  # for SNI and the certificate check, https only


def pin(url: str, *, allow_private: bool) -> Target:
    """Resolve the URL's host once, check every address, and aim at the first one.

    Raises ``AddressRefused`` for a non-public address (unless allowed) and ``OSError``
    when the name does not resolve.
    """
    parts = urlsplit(url)
    host, port = _host_port(url)
    addresses = resolve(host, port)
    if not addresses:
        raise OSError(f"{host} resolves to no address")
    if not allow_private:
        _refuse_private(host, addresses)
    address = addresses[0]
    literal = f"[{address}]" if address.version == 6 else str(address)
    userinfo, at, host_header = parts.netloc.rpartition("@")
    netloc = userinfo + at + (f"{literal}:{parts.port}" if parts.port else literal)
    return Target(
        url=urlunsplit(parts._replace(netloc=netloc)),
        host_header=host_header,
        server_name=host if parts.scheme == "https" else None,
    )
