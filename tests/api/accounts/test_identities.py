"""The Apple and Google identities of the caller's account: GET and POST /auth/identities,
DELETE /auth/identities/{id}."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import ProviderIdentity
from tests.api.accounts.provider_keys import KeyServer, SigningKey, claims_for

pytestmark = pytest.mark.django_db

URL = "/api/v1/auth/identities"


def link(client: APIClient, token: str, provider: str = "apple", nonce: str = "n") -> Any:
    body = {"provider": provider, "id_token": token, "nonce": nonce}
    return client.post(URL, body, format="json")


def provider_client(signing_key: SigningKey, provider: str = "apple") -> tuple[APIClient, int]:
    """A client signed in with a new account made by ``provider`` (no password)."""
    token = signing_key.sign(claims_for(provider, nonce="first", sub=f"{provider}-1"))
    response = APIClient().post(
        f"/api/v1/auth/providers/{provider}", {"id_token": token, "nonce": "first"}, format="json"
    )
    assert response.status_code == 201, response.content
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    return client, response.json()["user"]["id"]


def test_a_signed_in_user_links_apple_and_signs_in_with_it(
    keys: KeyServer, signing_key: SigningKey, make_user: Any, auth_client: Any
) -> None:
    alice = make_user("alice")
    client = auth_client(alice)

    linked = link(client, signing_key.sign(claims_for("apple", nonce="n")))
    later = APIClient().post(
        "/api/v1/auth/providers/apple",
        {"id_token": signing_key.sign(claims_for("apple", nonce="m")), "nonce": "m"},
        format="json",
    )

    assert linked.status_code == 201
    assert linked.json()["provider"] == "apple"
    assert later.status_code == 200
    assert later.json()["user"]["id"] == alice.pk


def test_it_lists_the_callers_identities_only(
    keys: KeyServer, signing_key: SigningKey, make_user: Any, auth_client: Any
) -> None:
    alice, bob = auth_client(make_user("alice")), auth_client(make_user("bob"))
    link(alice, signing_key.sign(claims_for("apple", sub="a1", nonce="n")))
    link(alice, signing_key.sign(claims_for("google", sub="g1", nonce="n")), "google")

    listed = alice.get(URL).json()

    assert [i["provider"] for i in listed] == ["apple", "google"]
    assert set(listed[0]) == {"id", "provider", "email", "email_verified", "created", "last_used"}
    assert bob.get(URL).json() == []


def test_linking_the_same_identity_again_answers_200(
    keys: KeyServer, signing_key: SigningKey, make_user: Any, auth_client: Any
) -> None:
    client = auth_client(make_user("alice"))
    link(client, signing_key.sign(claims_for("apple", nonce="n1")), nonce="n1")

    again = link(client, signing_key.sign(claims_for("apple", nonce="n2")), nonce="n2")

    assert again.status_code == 200
    assert ProviderIdentity.objects.count() == 1


def test_an_identity_of_another_account_is_not_linked(
    keys: KeyServer, signing_key: SigningKey, make_user: Any, auth_client: Any
) -> None:
    link(
        auth_client(make_user("alice")),
        signing_key.sign(claims_for("apple", nonce="n1")),
        nonce="n1",
    )

    response = link(
        auth_client(make_user("bob")), signing_key.sign(claims_for("apple", nonce="n2")), nonce="n2"
    )

    assert response.status_code == 409
    assert response.json()["code"] == "PROVIDER_ALREADY_LINKED"


def test_a_second_identity_of_one_provider_is_not_linked(
    keys: KeyServer, signing_key: SigningKey, make_user: Any, auth_client: Any
) -> None:
    client = auth_client(make_user("alice"))
    link(client, signing_key.sign(claims_for("apple", sub="one", nonce="n1")), nonce="n1")

    response = link(
        client, signing_key.sign(claims_for("apple", sub="two", nonce="n2")), nonce="n2"
    )

    assert response.json()["code"] == "PROVIDER_ALREADY_LINKED"


def test_a_refused_token_links_nothing(
    keys: KeyServer, signing_key: SigningKey, make_user: Any, auth_client: Any
) -> None:
    response = link(auth_client(make_user("alice")), SigningKey().sign(claims_for("apple")))

    assert response.status_code == 401
    assert response.json()["code"] == "PROVIDER_TOKEN_INVALID"
    assert not ProviderIdentity.objects.exists()


def test_the_last_way_to_sign_in_is_not_unlinked(keys: KeyServer, signing_key: SigningKey) -> None:
    client, _ = provider_client(signing_key)
    identity = client.get(URL).json()[0]

    response = client.delete(f"{URL}/{identity['id']}")

    assert response.status_code == 409
    assert response.json()["code"] == "LAST_SIGN_IN_METHOD"
    assert ProviderIdentity.objects.count() == 1


def test_an_identity_is_unlinked_while_another_remains(
    keys: KeyServer, signing_key: SigningKey
) -> None:
    client, _ = provider_client(signing_key, "apple")
    link(client, signing_key.sign(claims_for("google", sub="g", nonce="n")), "google")
    apple = client.get(URL).json()[0]

    response = client.delete(f"{URL}/{apple['id']}")

    assert response.status_code == 204
    assert [i["provider"] for i in client.get(URL).json()] == ["google"]


def test_an_account_with_a_password_unlinks_its_only_identity(
    keys: KeyServer, signing_key: SigningKey, make_user: Any, auth_client: Any
) -> None:
    client = auth_client(make_user("alice"))
    made = link(client, signing_key.sign(claims_for("apple", nonce="n"))).json()

    assert client.delete(f"{URL}/{made['id']}").status_code == 204
    assert client.get(URL).json() == []


def test_someone_elses_identity_answers_404(
    keys: KeyServer, signing_key: SigningKey, make_user: Any, auth_client: Any
) -> None:
    made = link(
        auth_client(make_user("alice")), signing_key.sign(claims_for("apple", nonce="n"))
    ).json()

    response = auth_client(make_user("bob")).delete(f"{URL}/{made['id']}")

    assert response.status_code == 404
    assert response.json()["code"] == "NOT_FOUND"
    assert ProviderIdentity.objects.count() == 1
