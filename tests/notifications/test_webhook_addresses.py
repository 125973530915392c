"""Webhooks may call public addresses only (unless allowed), checked again at delivery."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from typing import Any

import pytest

from notifications import addresses, outbox, services, webhooks
from notifications.models import Delivery, DeliveryStatus, Kind, WebhookEndpoint
from ttr_service.http.problems import ServiceError

from .receiver import Receiver

Resolver = Callable[..., list[Any]]


def fake_dns(table: dict[str, list[str]], asked: list[str] | None = None) -> Resolver:
    def getaddrinfo(host: str, port: int, *args: Any, **kwargs: Any) -> list[Any]:
        if asked is not None:
            asked.append(host)
        if host not in table:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [
            (socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
            for a in table[host]
        ]

    return getaddrinfo


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    table: dict[str, list[str]] = {}
    monkeypatch.setattr(addresses, "getaddrinfo", fake_dns(table))
    return table


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.10",
        "169.254.169.254",
        "100.64.0.1",
        "0.0.0.0",
        "224.0.0.1",
        "::1",
        "fe80::1",
        "fc00::1",
        "::ffff:127.0.0.1",
        "::ffff:10.0.0.1",
    ],
)
def test_internal_addresses_are_not_public(address: str) -> None:
    assert addresses.is_public(ipaddress.ip_address(address)) is False


@pytest.mark.parametrize("address", ["8.8.8.8", "93.184.216.34", "2606:4700:4700::1111"])
def test_internet_addresses_are_public(address: str) -> None:
    assert addresses.is_public(ipaddress.ip_address(address)) is True


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/hook",
        "https://[::1]/hook",
        "http://169.254.169.254/latest/meta-data",
        "https://intranet.example.test/hook",
        "https://mixed.example.test/hook",
    ],
)
def test_a_url_reaching_inside_is_refused(url: str, dns: dict[str, list[str]]) -> None:
    dns["intranet.example.test"] = ["10.0.0.5"]
    dns["mixed.example.test"] = ["93.184.216.34", "192.168.0.2"]

    with pytest.raises(addresses.AddressRefused, match="private, loopback or link-local"):
        addresses.check_url(url, allow_private=False)


def test_a_public_url_and_an_unresolvable_one_pass_registration(
    dns: dict[str, list[str]],
) -> None:
    dns["hooks.example.test"] = ["93.184.216.34"]

    addresses.check_url("https://hooks.example.test/ttr", allow_private=False)
    addresses.check_url("https://not-yet.example.test/ttr", allow_private=False)


def test_a_name_the_resolver_cannot_even_encode_passes_registration() -> None:
    long_label = "x" * 70  # over DNS's 63, so the idna codec refuses it before any lookup
    with pytest.raises(UnicodeError):
        socket.getaddrinfo(f"{long_label}.example", 443)

    addresses.check_url(f"https://{long_label}.example/ttr", allow_private=False)


def test_everything_passes_when_private_addresses_are_allowed(
    dns: dict[str, list[str]],
) -> None:
    addresses.check_url("http://127.0.0.1:8000/hook", allow_private=True)


def test_pinning_aims_at_the_checked_address_and_keeps_the_name_for_host_and_tls(
    dns: dict[str, list[str]],
) -> None:
    dns["hooks.example.test"] = ["2606:4700:4700::1111", "93.184.216.34"]

    target = addresses.pin("https://bot:pw@hooks.example.test:8443/ttr?x=1", allow_private=False)

    assert target == addresses.Target(
        url="https://bot:pw@[2606:4700:4700::1111]:8443/ttr?x=1",
        host_header="hooks.example.test:8443",
        server_name="hooks.example.test",
    )


def test_the_service_refuses_a_private_url_with_a_stable_code(player: Any, settings: Any) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE = False

    with pytest.raises(ServiceError) as refused:
        webhooks.endpoint_create(player("alice"), url="http://10.0.0.8/hook", events=[])

    assert (str(refused.value.problem_code), refused.value.status_code) == (
        "WEBHOOK_URL_PRIVATE",
        400,
    )
    assert WebhookEndpoint.objects.count() == 0


# ------------------------------------------------------------------------ at delivery
def only_delivery(endpoint: WebhookEndpoint) -> Delivery:
    services.notification_send(endpoint.user, Kind.YOUR_TURN, game_id=12)
    return Delivery.objects.get(endpoint=endpoint)


@pytest.mark.django_db
def test_a_delivery_to_a_private_address_is_refused_and_recorded(
    player: Any, receiver: Receiver, settings: Any
) -> None:
    endpoint = webhooks.endpoint_create(player("alice"), url=receiver.url, events=[])
    settings.WEBHOOK_ALLOW_PRIVATE = False  # switched off after it was registered
    delivery = only_delivery(endpoint)

    assert outbox.deliver(delivery.pk) == DeliveryStatus.FAILED

    delivery.refresh_from_db()
    assert delivery.attempts == 1
    assert delivery.last_error.startswith("Refused: 127.0.0.1 is a private")
    assert delivery.last_response_code is None
    assert receiver.requests == []


@pytest.mark.django_db
def test_a_name_rebound_to_a_private_address_after_registration_is_refused(
    player: Any, receiver: Receiver, settings: Any, dns: dict[str, list[str]]
) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE = False
    dns["hooks.example.test"] = ["93.184.216.34"]
    port = receiver.url.rsplit(":", 1)[1].split("/")[0]
    endpoint = webhooks.endpoint_create(
        player("alice"), url=f"http://hooks.example.test:{port}/", events=[]
    )
    dns["hooks.example.test"] = ["127.0.0.1"]

    assert outbox.deliver(only_delivery(endpoint).pk) == DeliveryStatus.FAILED

    assert Delivery.objects.get().last_error.startswith("Refused: hooks.example.test (127.0.0.1)")
    assert receiver.requests == []


@pytest.mark.django_db
def test_a_delivery_goes_to_the_address_resolved_once_with_the_name_in_host(
    player: Any, receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []
    monkeypatch.setattr(
        addresses, "getaddrinfo", fake_dns({"hooks.example.test": ["127.0.0.1"]}, asked)
    )
    port = receiver.url.rsplit(":", 1)[1].split("/")[0]
    endpoint = webhooks.endpoint_create(
        player("alice"), url=f"http://hooks.example.test:{port}/ttr", events=[]
    )

    assert outbox.deliver(only_delivery(endpoint).pk) == DeliveryStatus.DELIVERED

    [request] = receiver.requests
    assert request.path == "/ttr"
    assert request.headers["host"] == f"hooks.example.test:{port}"
    assert asked == ["hooks.example.test"]


@pytest.mark.django_db
def test_a_name_that_does_not_resolve_is_a_failed_attempt_retried_later(
    player: Any, dns: dict[str, list[str]]
) -> None:
    endpoint = webhooks.endpoint_create(
        player("alice"), url="https://gone.example.test/ttr", events=[]
    )

    assert outbox.deliver(only_delivery(endpoint).pk) == DeliveryStatus.PENDING

    assert Delivery.objects.get().last_error.startswith("DNS: ")
