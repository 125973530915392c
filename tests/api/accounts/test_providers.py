"""Sign in with Apple and Google by ID token (POST /auth/providers/{provider}), against a
local signing key whose JWKS a small HTTP server on 127.0.0.1 serves."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import ProviderIdentity, VerifiedEmail
from tests.api.accounts.provider_keys import (
    APPLE_ISSUER,
    KeyServer,
    SigningKey,
    claims_for,
)

pytestmark = pytest.mark.django_db

User = get_user_model()
NONCE = "raw-nonce-1"


def sign_in(provider: str, id_token: str, nonce: str = NONCE, **body: Any) -> Any:
    return APIClient().post(
        f"/api/v1/auth/providers/{provider}",
        {"id_token": id_token, "nonce": nonce, **body},
        format="json",
    )


def refusal(response: Any) -> str:
    assert response.status_code == 401, response.content
    assert response.json()["code"] == "PROVIDER_TOKEN_INVALID"
    assert response["WWW-Authenticate"] == "Token"
    detail: str = response.json()["detail"]
    return detail


@pytest.mark.parametrize("provider", ["apple", "google"])
def test_a_first_sign_in_makes_an_account_with_the_verified_email(
    keys: KeyServer, signing_key: SigningKey, provider: str
) -> None:
    response = sign_in(provider, signing_key.sign(claims_for(provider)), username="alice")

    assert response.status_code == 201
    body = response.json()
    assert body["user"]["username"] == "alice"
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    me = client.get("/api/v1/auth/me").json()
    assert (me["email"], me["email_verified"], me["has_password"]) == (
        "alice@example.org",
        True,
        False,
    )
    identity = ProviderIdentity.objects.get()
    assert (identity.provider, identity.subject) == (provider, "001234.abcdef")


def test_a_later_sign_in_finds_the_same_account(keys: KeyServer, signing_key: SigningKey) -> None:
    first = sign_in("apple", signing_key.sign(claims_for("apple", nonce="n1")), "n1")
    later = sign_in(
        "apple", signing_key.sign(claims_for("apple", nonce="n2", email="new@example.org")), "n2"
    )

    assert (first.status_code, later.status_code) == (201, 200)
    assert later.json()["user"] == first.json()["user"]
    assert later.json()["token"] != first.json()["token"]
    assert User.objects.count() == 1
    assert ProviderIdentity.objects.get().email == "new@example.org"


def test_an_unverified_provider_email_is_not_taken(
    keys: KeyServer, signing_key: SigningKey
) -> None:
    token = signing_key.sign(claims_for("google", email_verified=False))

    response = sign_in("google", token)

    assert response.status_code == 201
    assert User.objects.get().email == ""
    assert not VerifiedEmail.objects.exists()


def test_apple_sends_email_verified_as_text(keys: KeyServer, signing_key: SigningKey) -> None:
    token = signing_key.sign(claims_for("apple", email_verified="false"))

    assert sign_in("apple", token).status_code == 201
    assert User.objects.get().email == ""


def test_a_username_is_made_from_the_given_name_when_none_is_sent(
    keys: KeyServer, signing_key: SigningKey, make_user: Any
) -> None:
    make_user("zoe")
    claims = claims_for("google", given_name="Zoë", email=None)

    response = sign_in("google", signing_key.sign(claims))

    assert response.json()["user"]["username"] == "zoe2"


def test_without_a_given_name_the_username_is_player(
    keys: KeyServer, signing_key: SigningKey
) -> None:
    response = sign_in("apple", signing_key.sign(claims_for("apple", email="x@example.org")))

    assert response.json()["user"]["username"] == "player"


def test_a_username_sent_that_is_taken_is_refused(
    keys: KeyServer, signing_key: SigningKey, make_user: Any
) -> None:
    make_user("alice")

    response = sign_in("apple", signing_key.sign(claims_for("apple")), username="Alice")

    assert response.status_code == 409
    assert response.json()["code"] == "USERNAME_TAKEN"
    assert not ProviderIdentity.objects.exists()


def test_an_email_another_account_verified_is_never_linked_by_itself(
    keys: KeyServer, signing_key: SigningKey, make_user: Any
) -> None:
    alice = make_user("alice", email="alice@example.org")
    VerifiedEmail.objects.create(
        user=alice, address="alice@example.org", verified_at=timezone.now()
    )

    response = sign_in("google", signing_key.sign(claims_for("google", email="ALICE@example.org")))

    assert response.status_code == 409
    assert response.json()["code"] == "EMAIL_TAKEN"
    assert User.objects.count() == 1
    assert not ProviderIdentity.objects.exists()


def test_a_bad_signature_is_refused(keys: KeyServer, signing_key: SigningKey) -> None:
    impostor = SigningKey(kid=signing_key.kid)  # the same key id, another key

    detail = refusal(sign_in("apple", impostor.sign(claims_for("apple"))))

    assert "signature" in detail
    assert not User.objects.exists()


def test_an_unknown_key_id_is_refused(keys: KeyServer, signing_key: SigningKey) -> None:
    detail = refusal(sign_in("apple", SigningKey().sign(claims_for("apple"))))

    assert "No key" in detail


def test_another_apps_token_is_refused(keys: KeyServer, signing_key: SigningKey) -> None:
    token = signing_key.sign(claims_for("apple", aud="org.example.other"))

    assert "audience" in refusal(sign_in("apple", token))


def test_another_issuers_token_is_refused(keys: KeyServer, signing_key: SigningKey) -> None:
    token = signing_key.sign(claims_for("google", iss=APPLE_ISSUER))

    assert "not issued by" in refusal(sign_in("google", token))


def test_an_expired_token_is_refused(keys: KeyServer, signing_key: SigningKey) -> None:
    token = signing_key.sign(claims_for("apple", lifetime=-60))

    assert "expired" in refusal(sign_in("apple", token))


def test_a_token_expired_less_than_the_allowed_skew_ago_is_taken(
    keys: KeyServer, signing_key: SigningKey
) -> None:
    token = signing_key.sign(claims_for("apple", lifetime=-10))

    assert sign_in("apple", token).status_code == 201


@pytest.mark.parametrize("provider", ["apple", "google"])
def test_a_wrong_nonce_is_refused(keys: KeyServer, signing_key: SigningKey, provider: str) -> None:
    token = signing_key.sign(claims_for(provider, nonce="the-app-made-this"))

    assert "nonce" in refusal(sign_in(provider, token, nonce="something-else"))


def test_apples_nonce_is_compared_to_the_sha256_of_the_raw_nonce(
    keys: KeyServer, signing_key: SigningKey
) -> None:
    claims = claims_for("apple", nonce="raw")  # its claim is sha256("raw")

    assert "nonce" in refusal(sign_in("apple", signing_key.sign(claims), nonce=claims["nonce"]))


def test_googles_nonce_is_compared_as_sent(keys: KeyServer, signing_key: SigningKey) -> None:
    claims = claims_for("google", nonce="raw")

    assert claims["nonce"] == "raw"
    assert sign_in("google", signing_key.sign(claims), nonce="raw").status_code == 201


def test_a_token_without_a_nonce_is_refused(keys: KeyServer, signing_key: SigningKey) -> None:
    claims = claims_for("google")
    del claims["nonce"]

    assert "nonce" in refusal(sign_in("google", signing_key.sign(claims)))


def test_the_same_token_is_taken_once(keys: KeyServer, signing_key: SigningKey) -> None:
    token = signing_key.sign(claims_for("apple"))
    assert sign_in("apple", token).status_code == 201

    assert "used already" in refusal(sign_in("apple", token))


def test_a_token_that_is_no_jwt_is_refused(keys: KeyServer) -> None:
    assert "not a JWT" in refusal(sign_in("apple", "not-a-token"))


def test_the_keys_are_read_once_and_kept(keys: KeyServer, signing_key: SigningKey) -> None:
    for n in range(3):
        nonce = f"n{n}"
        sign_in("google", signing_key.sign(claims_for("google", nonce=nonce)), nonce)

    assert keys.requests == 1


def test_keys_that_cannot_be_read_answer_503(keys: KeyServer, signing_key: SigningKey) -> None:
    keys.failing = True

    response = sign_in("apple", signing_key.sign(claims_for("apple")))

    assert response.status_code == 503
    assert response.json()["code"] == "PROVIDER_UNAVAILABLE"
    assert int(response["Retry-After"]) >= 1


def test_a_provider_without_client_ids_is_not_configured(settings: Any) -> None:
    from ttr_service.config.account_env import provider_settings

    settings.SIGN_IN_PROVIDERS = provider_settings()  # as the environment has none

    response = sign_in("apple", "x.y.z")

    assert response.status_code == 404
    assert response.json()["code"] == "PROVIDER_NOT_CONFIGURED"


def test_an_unknown_provider_is_no_route(keys: KeyServer) -> None:
    response = sign_in("facebook", "x.y.z")

    assert response.status_code == 404
    assert response.json()["code"] == "NOT_FOUND"


def test_a_disabled_account_is_not_signed_in(keys: KeyServer, signing_key: SigningKey) -> None:
    sign_in("apple", signing_key.sign(claims_for("apple", nonce="a")), "a")
    User.objects.update(is_active=False)

    response = sign_in("apple", signing_key.sign(claims_for("apple", nonce="b")), "b")

    assert response.status_code == 403
    assert response.json()["code"] == "PERMISSION_DENIED"
