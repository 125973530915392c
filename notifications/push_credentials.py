"""Reading the FCM service account and the APNs signing key, checked before first use.

No Django here: ``push_checks`` calls these when the app is loaded, so a bad file stops
the service with a message naming the variable, not at the first push hours later.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.asymmetric.types import PrivateKeyTypes
from cryptography.hazmat.primitives.serialization import load_pem_private_key

GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token"
_APPLE_ID = re.compile(r"[A-Z0-9]{10}")
_BUNDLE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9.\-]*")


class CredentialsError(ValueError):
    """A credentials file or value that cannot be used; the message says why."""


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise CredentialsError(f"cannot read {path}: {exc.strerror or exc}") from None


def _private_key(pem: bytes, what: str) -> PrivateKeyTypes:
    try:
        return load_pem_private_key(pem, password=None)
    except (ValueError, TypeError) as exc:
        raise CredentialsError(f"{what} is not an unencrypted PEM private key ({exc})") from None


@dataclass(frozen=True)
class ServiceAccount:
    """The fields of a Google service-account JSON file that the OAuth2 grant needs."""

    client_email: str
    private_key: str
    private_key_id: str
    token_uri: str
    project_id: str | None

    def __repr__(self) -> str:  # never print the key
        return f"ServiceAccount({self.client_email!r}, project_id={self.project_id!r})"

    @classmethod
    def from_file(cls, path: Path) -> ServiceAccount:
        try:
            data = json.loads(_read(path))
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise CredentialsError(f"{path} is not a JSON file") from None
        return cls.from_json(data, str(path))

    @classmethod
    def from_json(cls, data: object, where: str = "the service account") -> ServiceAccount:
        if not isinstance(data, dict) or data.get("type") != "service_account":
            raise CredentialsError(f'{where} is not a service account ("type": "service_account")')
        missing = [
            key
            for key in ("client_email", "private_key")
            if not isinstance(data.get(key), str) or not data[key]
        ]
        if missing:
            raise CredentialsError(f"{where} lacks {', '.join(missing)}")
        key = _private_key(data["private_key"].encode(), f"the private_key in {where}")
        if not isinstance(key, rsa.RSAPrivateKey):
            raise CredentialsError(f"the private_key in {where} is not an RSA key")
        token_uri = data.get("token_uri") or GOOGLE_TOKEN_URI
        if urlsplit(token_uri).scheme not in ("https", "http"):
            raise CredentialsError(f"the token_uri in {where} is not an http(s) URL")
        project_id = data.get("project_id")
        return cls(
            client_email=data["client_email"],
            private_key=data["private_key"],
            private_key_id=str(data.get("private_key_id") or ""),
            token_uri=token_uri,
            project_id=project_id if isinstance(project_id, str) and project_id else None,
        )


@dataclass(frozen=True)
class ApnsKey:
    """An APNs authentication key (.p8): the ES256 key, its key id and the team id."""

    private_key: str
    key_id: str
    team_id: str

    def __repr__(self) -> str:  # never print the key
        return f"ApnsKey(key_id={self.key_id!r}, team_id={self.team_id!r})"

    @classmethod
    def from_file(cls, path: Path, key_id: str, team_id: str) -> ApnsKey:
        pem = _read(path)
        key = _private_key(pem, str(path))
        if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
            raise CredentialsError(f"{path} is not a P-256 elliptic-curve key (an APNs .p8 key)")
        return cls(
            pem.decode(), check_apple_id(key_id, "key id"), check_apple_id(team_id, "team id")
        )


def check_apple_id(value: str, what: str) -> str:
    if not _APPLE_ID.fullmatch(value):
        raise CredentialsError(f"an APNs {what} is 10 capital letters or digits; got {value!r}")
    return value


def check_topic(value: str) -> str:
    if not _BUNDLE_ID.fullmatch(value):
        raise CredentialsError(
            f"expected the app's bundle id, such as org.example.ttr; got {value!r}"
        )
    return value
