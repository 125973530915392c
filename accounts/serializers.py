"""Request and response bodies of the accounts endpoints."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import Direction
from rest_framework import serializers
from rest_framework.fields import get_error_detail

from accounts.emails import CODE_DIGITS
from accounts.models import EMAIL_MAX_LENGTH, TOKEN_NAME_MAX_LENGTH, AuthToken
from ttr_service.config.languages import LANGUAGES
from ttr_service.http.strict import (
    StrictFieldsMixin,
    StrictSerializer,
    StrictSerializerExtension,
)

USERNAME_MIN_LENGTH, USERNAME_MAX_LENGTH = 3, 32
USERNAME_PATTERN = rf"^[A-Za-z0-9._-]{{{USERNAME_MIN_LENGTH},{USERNAME_MAX_LENGTH}}}$"
# A password is hashed as given; anything longer is refused before it is hashed or stored.
MAX_PASSWORD_LENGTH = 128
# What the password validators' MinimumLengthValidator asks for (its default).
MIN_PASSWORD_LENGTH = 8


class EmailDomain(RegexValidator):
    """States in the schema what Django's email validator, which the field runs, checks of
    the domain: a top-level part of two or more characters (or `localhost`, or an address
    literal in brackets); `format: email` alone allows less. It checks nothing itself, so an
    address Django refuses gets that validator's one row."""

    def __call__(self, value: Any) -> None:
        return None


EMAIL_DOMAIN = EmailDomain(r"@(localhost|\[[^\]]+\]|[^@\s]+\.[A-Za-z0-9-]{2,63})$")
MAX_TOKEN_DAYS = 365
# A reset secret is far shorter than this.
RESET_TOKEN_MAX_LENGTH = 128

username_format = RegexValidator(
    USERNAME_PATTERN,
    gettext_lazy("3 to 32 characters: ASCII letters, digits, '.', '_' or '-'."),
    code="invalid_username",
)


NEW_PASSWORD_RULES = (
    f"At most {MAX_PASSWORD_LENGTH} characters (`MAX_LENGTH`), and checked by the password "
    f"validators: at least {MIN_PASSWORD_LENGTH} characters (`PASSWORD_TOO_SHORT`), not all "
    "digits (`PASSWORD_ENTIRELY_NUMERIC`), and, which a schema cannot state, not a commonly "
    "used password (`PASSWORD_TOO_COMMON`) and not too like the username or email "
    "(`PASSWORD_TOO_SIMILAR`). Each is a row of `VALIDATION_ERROR` for `{field}`."
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


class NewPassword(StrictFieldsMixin):
    """A body that sets a password: its field named ``new_password_field`` is stated in the
    schema as far as a schema can state the validators (``NewPasswordSchema``)."""

    new_password_field = "new_password"


class RegisterSerializer(NewPassword, StrictSerializer):
    new_password_field = "password"
    username = serializers.CharField(
        min_length=USERNAME_MIN_LENGTH,
        max_length=USERNAME_MAX_LENGTH,
        validators=[username_format],
        help_text="3 to 32 characters: ASCII letters, digits, '.', '_' or '-' "
        "(otherwise `INVALID_USERNAME`). Unique ignoring case: a name another account has "
        "answers 409 `USERNAME_TAKEN`.",
    )
    password = _password(help_text=NEW_PASSWORD_RULES.format(field="password"))
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


class NewPasswordSchema(StrictSerializerExtension):
    """States in the schema the part of the password validators a schema can: at least
    8 characters, not digits only, no NUL. The validators themselves run on the body."""

    target_class = NewPassword
    match_subclasses = True
    priority = 1

    def map_serializer(self, auto_schema: AutoSchema, direction: Direction) -> dict[str, Any]:
        schema = super().map_serializer(auto_schema, direction)
        password = schema["properties"][self.target.new_password_field]
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


LANGUAGE_TEXT = (
    "The language the service writes to this account in (problem details, notifications, "
    "e-mails, push): `en` English, `el` Greek, `vi` Vietnamese, `ru` Russian. null: the "
    "language of each request's `Accept-Language` (English when it names none of these), "
    "and English for what is sent outside a request."
)


class AccountSerializer(serializers.Serializer[Any]):
    """The caller's account (``accounts.emails.Account``)."""

    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.EmailField(
        allow_null=True,
        help_text="The account's e-mail address: the last one verified (null: none yet). "
        "Notifications and password resets go to it.",
    )
    email_verified = serializers.BooleanField(
        help_text="Whether `email` was verified with a code (false only for an address set "
        "before verification existed)."
    )
    pending_email = serializers.EmailField(
        allow_null=True,
        help_text="An address waiting for the code sent to it (`POST /auth/email/verify`); it "
        "becomes `email` once verified.",
    )
    has_password = serializers.BooleanField(
        help_text="False for an account made by signing in with Apple or Google that has not "
        "set a password (it can set one by a reset to its verified e-mail)."
    )
    date_joined = serializers.DateTimeField()
    language = serializers.ChoiceField(
        choices=LANGUAGES,
        allow_null=True,
        help_text=LANGUAGE_TEXT,
    )


class AccountUpdateSerializer(StrictSerializer):
    """What ``PATCH /auth/me`` changes; a field left out keeps its value."""

    language = serializers.ChoiceField(
        choices=LANGUAGES, allow_null=True, required=False, help_text=LANGUAGE_TEXT
    )


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


def _email(help_text: str) -> serializers.EmailField:
    return serializers.EmailField(
        max_length=EMAIL_MAX_LENGTH, validators=[EMAIL_DOMAIN], help_text=help_text
    )


class EmailChangeSerializer(StrictSerializer):
    email = _email(
        "The address to verify. A code is sent to it; until it is entered, the account keeps "
        "the address it has."
    )


class EmailVerifySerializer(StrictSerializer):
    code = serializers.CharField(
        min_length=CODE_DIGITS,
        max_length=CODE_DIGITS,
        validators=[
            RegexValidator(rf"^[0-9]{{{CODE_DIGITS}}}$", "Six digits.", code="invalid_code")
        ],
        help_text="The six digits of the last message sent to `pending_email`, typed or taken "
        "from its link.",
    )


class PasswordChangeSerializer(NewPassword, StrictSerializer):
    current_password = _password(help_text="The account's password now.")
    new_password = _password(help_text=NEW_PASSWORD_RULES.format(field="new_password"))
    revoke_other_tokens = serializers.BooleanField(
        default=False,
        help_text="Also revoke every other token of the account (other devices, bots); the "
        "token of this request stays valid.",
    )


class PasswordChangedSerializer(serializers.Serializer[Any]):
    revoked_tokens = serializers.IntegerField(help_text="How many other tokens were revoked.")


class PasswordResetSerializer(StrictSerializer):
    email = _email("The account's e-mail address.")


class PasswordResetConfirmSerializer(NewPassword, StrictSerializer):
    token = serializers.CharField(
        max_length=RESET_TOKEN_MAX_LENGTH,
        help_text="The secret of the reset message's link (its `token`).",
    )
    new_password = _password(help_text=NEW_PASSWORD_RULES.format(field="new_password"))
