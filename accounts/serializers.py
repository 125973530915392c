"""Request and response bodies of the accounts endpoints."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import RegexValidator
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import Direction
from rest_framework import serializers
from rest_framework.fields import get_error_detail

from accounts.models import TOKEN_NAME_MAX_LENGTH, AuthToken
from ttr_service.http.strict import StrictSerializer, StrictSerializerExtension

USERNAME_MIN_LENGTH, USERNAME_MAX_LENGTH = 3, 32
USERNAME_PATTERN = rf"^[A-Za-z0-9._-]{{{USERNAME_MIN_LENGTH},{USERNAME_MAX_LENGTH}}}$"
# A password is hashed as given; anything longer is refused before it is hashed or stored.
MAX_PASSWORD_LENGTH = 128
# What the password validators' MinimumLengthValidator asks for (its default).
MIN_PASSWORD_LENGTH = 8
# The length of the user table's column.
EMAIL_MAX_LENGTH = 254


class EmailDomain(RegexValidator):
    """States in the schema what Django's email validator, which the field runs, checks of
    the domain: a top-level part of two or more characters (or `localhost`, or an address
    literal in brackets); `format: email` alone allows less. It checks nothing itself, so an
    address Django refuses gets that validator's one row."""

    def __call__(self, value: Any) -> None:
        return None


EMAIL_DOMAIN = EmailDomain(r"@(localhost|\[[^\]]+\]|[^@\s]+\.[A-Za-z0-9-]{2,63})$")
MAX_TOKEN_DAYS = 365

username_format = RegexValidator(
    USERNAME_PATTERN,
    "3 to 32 characters: ASCII letters, digits, '.', '_' or '-'.",
    code="invalid_username",
)


def _token_name(*, help_text: str) -> serializers.CharField:
    return serializers.CharField(
        required=False, max_length=TOKEN_NAME_MAX_LENGTH, help_text=help_text
    )


def _password(*, help_text: str) -> serializers.CharField:
    return serializers.CharField(
        write_only=True,
        trim_whitespace=False,
        max_length=MAX_PASSWORD_LENGTH,
        style={"input_type": "password"},
        help_text=help_text,
    )


class RegisterSerializer(StrictSerializer):
    username = serializers.CharField(
        min_length=USERNAME_MIN_LENGTH,
        max_length=USERNAME_MAX_LENGTH,
        validators=[username_format],
        help_text="3 to 32 characters: ASCII letters, digits, '.', '_' or '-' "
        "(otherwise `INVALID_USERNAME`). Unique ignoring case: a name another account has "
        "answers 409 `USERNAME_TAKEN`.",
    )
    password = _password(
        help_text=f"At most {MAX_PASSWORD_LENGTH} characters (`MAX_LENGTH`), and checked by "
        f"the password validators: at least {MIN_PASSWORD_LENGTH} characters "
        "(`PASSWORD_TOO_SHORT`), not all digits (`PASSWORD_ENTIRELY_NUMERIC`), and, which a "
        "schema cannot state, not a commonly used password (`PASSWORD_TOO_COMMON`) and not "
        "too like the username or email (`PASSWORD_TOO_SIMILAR`). Each is a row of "
        "`VALIDATION_ERROR` for `password`."
    )
    email = serializers.EmailField(
        required=False, allow_blank=True, max_length=EMAIL_MAX_LENGTH, validators=[EMAIL_DOMAIN]
    )
    token_name = _token_name(
        help_text="A name for the first token, such as the device. Defaults to the "
        "User-Agent, or 'unnamed'."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        candidate = User(username=attrs["username"], email=attrs.get("email", ""))
        try:
            validate_password(attrs["password"], user=candidate)
        except DjangoValidationError as error:
            raise serializers.ValidationError({"password": get_error_detail(error)}) from None
        return attrs


class RegisterSchema(StrictSerializerExtension):
    """States in the schema the part of the password validators a schema can: at least
    8 characters, not digits only, no NUL. The validators themselves run in ``validate``."""

    target_class = RegisterSerializer
    match_subclasses = False
    priority = 1

    def map_serializer(self, auto_schema: AutoSchema, direction: Direction) -> dict[str, Any]:
        schema = super().map_serializer(auto_schema, direction)
        password = schema["properties"]["password"]
        password["minLength"] = MIN_PASSWORD_LENGTH
        # Some character that is not a digit, and no NUL anywhere.
        password["pattern"] = r"^[^\u0000]*[^\u0000\d][^\u0000]*$"
        return schema


class LoginSerializer(StrictSerializer):
    username = serializers.CharField(max_length=150, help_text="Matched ignoring case.")
    password = _password(help_text=f"At most {MAX_PASSWORD_LENGTH} characters.")
    token_name = _token_name(
        help_text="A name for the new token, such as the device. Defaults to the "
        "User-Agent, or 'unnamed'."
    )


class UserSummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField()


class AuthResultSerializer(serializers.Serializer[Any]):
    """What register and login return: the user and a new token, its key shown once."""

    user = UserSummarySerializer()
    token = serializers.CharField(
        help_text="The key, shown only in this response. Send it as `Authorization: Token <key>`."
    )
    token_name = serializers.CharField()
    expires = serializers.DateTimeField(help_text="When the token stops working.")


class AccountSerializer(serializers.Serializer[User]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.SerializerMethodField()
    date_joined = serializers.DateTimeField()

    def get_email(self, user: User) -> str | None:
        return user.email or None


class ApiTokenSerializer(serializers.ModelSerializer[AuthToken]):
    """A token as its owner sees it in a listing: never the key."""

    prefix = serializers.CharField(
        source="token_key",
        read_only=True,
        help_text="The first characters of the key, to recognise it by.",
    )
    expires = serializers.DateTimeField(source="expiry", read_only=True)
    current = serializers.SerializerMethodField(
        help_text="Whether this is the token that made this request."
    )

    class Meta:
        model = AuthToken
        fields = ["id", "prefix", "name", "created", "last_used", "expires", "current"]
        read_only_fields = fields

    def get_current(self, token: AuthToken) -> bool:
        request = self.context.get("request")
        current = getattr(request, "auth", None)
        return isinstance(current, AuthToken) and current.pk == token.pk


class TokenCreateSerializer(StrictSerializer):
    name = serializers.CharField(
        max_length=TOKEN_NAME_MAX_LENGTH, help_text="What the token is for, e.g. 'my-bot'."
    )
    expires_in_days = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_TOKEN_DAYS,
        help_text="Lifetime in days; the service's default token lifetime when left out.",
    )


class NewApiTokenSerializer(serializers.ModelSerializer[AuthToken]):
    """A token just created for an integration, with its key shown this once."""

    prefix = serializers.CharField(source="token_key", read_only=True)
    expires = serializers.DateTimeField(source="expiry", read_only=True)
    token = serializers.SerializerMethodField(
        help_text="The key, shown only in this response. Send it as `Authorization: Token <key>`."
    )

    class Meta:
        model = AuthToken
        fields = ["id", "prefix", "name", "created", "expires", "token"]
        read_only_fields = fields

    def get_token(self, token: AuthToken) -> str:
        key: str = self.context["key"]
        return key
