"""Request and response bodies of sign-in with Apple and Google."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from accounts.models import Provider, ProviderIdentity
from accounts.serializers import (
    USERNAME_MAX_LENGTH,
    USERNAME_MIN_LENGTH,
    _token_name,
    username_format,
)
from ttr_service.http.strict import StrictSerializer

# Apple's and Google's ID tokens are one to two kilobytes.
ID_TOKEN_MAX_LENGTH = 8192
NONCE_MAX_LENGTH = 256


def _id_token() -> serializers.CharField:
    return serializers.CharField(
        max_length=ID_TOKEN_MAX_LENGTH,
        help_text="The ID token (a JWT) the provider's SDK gave the app.",
    )


def _nonce() -> serializers.CharField:
    return serializers.CharField(
        max_length=NONCE_MAX_LENGTH,
        trim_whitespace=False,
        help_text="The raw nonce the app made for this sign-in. Apple: the app passed its "
        "SHA-256 (lower-case hex) to Apple, and the token's `nonce` claim must be that. "
        "Google: the app passed it as it is, and the claim must equal it.",
    )


class ProviderSignInSerializer(StrictSerializer):
    id_token = _id_token()
    nonce = _nonce()
    username = serializers.CharField(
        required=False,
        min_length=USERNAME_MIN_LENGTH,
        max_length=USERNAME_MAX_LENGTH,
        validators=[username_format],
        help_text="The username of the account made at this identity's first sign-in (taken: "
        "409 `USERNAME_TAKEN`). Left out, one is made from the token's given name, or "
        "`player`, with a number when that is taken. Ignored once the account exists.",
    )
    token_name = _token_name(
        help_text="A name for the new token, such as the device. Defaults to the "
        "User-Agent, or 'unnamed'."
    )


class IdentityLinkSerializer(StrictSerializer):
    provider = serializers.ChoiceField(choices=Provider.choices)
    id_token = _id_token()
    nonce = _nonce()


class IdentitySerializer(serializers.ModelSerializer[ProviderIdentity]):
    """A provider identity linked to the caller's account."""

    email = serializers.SerializerMethodField(
        help_text="The e-mail address the provider's last ID token named, or null."
    )

    class Meta:
        model = ProviderIdentity
        fields = ["id", "provider", "email", "email_verified", "created", "last_used"]
        read_only_fields = fields

    def get_email(self, identity: ProviderIdentity) -> str | None:
        return identity.email or None


def identity_data(identity: ProviderIdentity) -> dict[str, Any]:
    data: dict[str, Any] = IdentitySerializer(identity).data
    return data
