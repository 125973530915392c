"""Input and output shapes of the notifications endpoints."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ttr_service.http.query import QueryParameters
from ttr_service.http.strict import StrictSerializer

from .models import Delivery, Device, Kind, Notification, Platform, WebhookEndpoint
from .preferences import known_timezones

TIME_FORMAT = "%H:%M"
# What ``TIME_FORMAT`` reads: ``strptime`` takes one or two digits for each part.
TIME_PATTERN = r"^([01]?[0-9]|2[0-3]):[0-5]?[0-9]$"


# ----------------------------------------------------------------------------- inbox
class NotificationDataSerializer(serializers.Serializer[dict[str, Any]]):
    """Public details of a notice; which fields appear depends on its type."""

    game_id = serializers.IntegerField(required=False)
    board = serializers.CharField(required=False)
    seat = serializers.IntegerField(required=False, help_text="The recipient's seat.")
    invited_by = serializers.CharField(required=False, help_text="`invitation`: who invited.")
    pending = serializers.CharField(
        required=False, allow_null=True, help_text="`your_turn`: the decision asked for."
    )
    deadline = serializers.DateTimeField(
        required=False, allow_null=True, help_text="The deadline of that decision, if any."
    )
    window_seconds = serializers.IntegerField(
        required=False, help_text="`deadline_approaching`: the warning's window."
    )
    place = serializers.IntegerField(required=False, help_text="`game_over`: the place taken.")
    total = serializers.IntegerField(required=False, help_text="`game_over`: the final score.")
    policy = serializers.CharField(
        required=False, help_text="`timed_out`: what the timeout policy did."
    )
    missed_turns = serializers.IntegerField(required=False)
    username = serializers.CharField(
        required=False,
        help_text="`friend_request`: who sent it; `friend_accepted`: who accepted it; "
        "`rematch_offered`: who asked; `rematch_declined`: who declined; `chat_message`: "
        "who wrote the first message since the last notice.",
    )
    friend_request_id = serializers.IntegerField(
        required=False, help_text="`friend_request`: the request's id, to accept or decline it."
    )
    export_id = serializers.IntegerField(
        required=False,
        help_text="`export_ready`: the export's id, to download it "
        "(`GET /account/exports/{id}/download`).",
    )
    expires_at = serializers.DateTimeField(
        required=False, help_text="`export_ready`: until when it may be downloaded, once."
    )
    seek_id = serializers.IntegerField(
        required=False, help_text="`match_found`: the seek that found the game (`game_id`)."
    )
    seek_status = serializers.CharField(
        required=False, help_text="`match_found`: the seek's status now (`matched`)."
    )
    rematch_of = serializers.IntegerField(
        required=False,
        help_text="`rematch_offered`, `rematch_declined`: the finished game the rematch is of "
        "(also `game_id`).",
    )

    def to_representation(self, instance: dict[str, Any]) -> dict[str, Any]:
        # The stored details as they are: a key a notice lacks stays out (not null).
        return {name: value for name, value in instance.items() if name in self.fields}


class NotificationSerializer(serializers.ModelSerializer[Notification]):
    type = serializers.ChoiceField(
        source="kind", choices=Kind.choices, help_text="The kind of event."
    )
    # The field shadows Serializer.data for the type checker only: DRF's metaclass takes
    # declared fields out of the class, so the serializer's .data is still the property.
    data = NotificationDataSerializer(  # type: ignore[assignment]
        help_text="Public details: game id, board, seat, deadline…"
    )
    read = serializers.SerializerMethodField()

    class Meta:
        model = Notification
        fields = ["id", "type", "game_id", "data", "created_at", "read_at", "read"]

    def get_read(self, obj: Notification) -> bool:
        return obj.read_at is not None


class NotificationListQuery(QueryParameters):
    unread = serializers.ChoiceField(
        choices=["true", "false"],
        required=False,
        help_text="`true`: unread ones only. Another value (empty too): `VALIDATION_ERROR` "
        "(`INVALID_CHOICE`).",
    )


class MarkedReadSerializer(serializers.Serializer[Any]):
    marked = serializers.IntegerField(help_text="How many notifications were unread.")


# ----------------------------------------------------------------------- preferences
class ChannelFlagsSerializer(StrictSerializer):
    in_app = serializers.BooleanField(
        read_only=True, default=True, help_text="Always on: every notification is kept."
    )
    webhook = serializers.BooleanField()
    email = serializers.BooleanField()
    push = serializers.BooleanField()


class KindChannelsSerializer(StrictSerializer):
    """One entry per kind; in a PUT, a kind left out gets its defaults."""

    your_turn = ChannelFlagsSerializer(required=False)
    deadline_approaching = ChannelFlagsSerializer(required=False)
    timed_out = ChannelFlagsSerializer(required=False)
    seat_taken_over = ChannelFlagsSerializer(required=False)
    invitation = ChannelFlagsSerializer(required=False)
    game_started = ChannelFlagsSerializer(required=False)
    game_over = ChannelFlagsSerializer(required=False)
    friend_request = ChannelFlagsSerializer(required=False)
    friend_accepted = ChannelFlagsSerializer(required=False)
    export_ready = ChannelFlagsSerializer(required=False)
    match_found = ChannelFlagsSerializer(required=False)
    rematch_offered = ChannelFlagsSerializer(required=False)
    rematch_declined = ChannelFlagsSerializer(required=False)
    chat_message = ChannelFlagsSerializer(required=False)


@extend_schema_field({"type": "string", "pattern": TIME_PATTERN, "example": "22:00"})
class LocalTimeField(serializers.TimeField):
    """A wall-clock time as ``HH:MM``: not the RFC 3339 ``format: time``, which needs seconds
    and an offset."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format=TIME_FORMAT, input_formats=[TIME_FORMAT], **kwargs)


class QuietHoursSerializer(StrictSerializer):
    start = LocalTimeField(
        help_text="Local time, HH:MM on a 24-hour clock (00:00 to 23:59; a single-digit hour "
        "or minute is taken too, and answered with two digits). Otherwise `INVALID`."
    )
    end = LocalTimeField(
        help_text="Local time, HH:MM as `start`. The same time as `start`: `EMPTY`. Earlier "
        "than `start`: the quiet hours run over midnight."
    )
    timezone = serializers.CharField(
        help_text="An IANA time zone name as the server's time zone database has it, e.g. "
        "`Europe/Paris`, `America/Argentina/Buenos_Aires` or `UTC` (case matters; not an "
        "offset such as `+01:00`). Another name: `UNKNOWN_TIMEZONE`."
    )

    def validate_timezone(self, value: str) -> str:
        if value not in known_timezones():
            raise serializers.ValidationError(
                _("'%(timezone)s' is not an IANA time zone.") % {"timezone": value},
                code="unknown_timezone",
            )
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["start"] == attrs["end"]:
            raise serializers.ValidationError(
                {"end": _("Quiet hours must end at another time than they start.")}, code="empty"
            )
        return attrs


class PreferencesSerializer(StrictSerializer):
    channels = KindChannelsSerializer()
    quiet_hours = QuietHoursSerializer(
        allow_null=True,
        required=False,
        help_text="Email and push wait until these hours end; null (or left out): none.",
    )


# --------------------------------------------------------------------------- webhooks
# The scheme, ignoring case, then a host without spaces and an optional path, query or
# fragment: the shape of every URL the URL validator and the scheme check below let through.
WEBHOOK_URL_PATTERN = r"^[Hh][Tt][Tt][Pp][Ss]?://[^\s/?#]{1,253}([/?#][^\s]*)?$"
WEBHOOK_URL_MAX_LENGTH = 2000


def _http_url(value: str) -> None:
    if urlsplit(value).scheme not in ("http", "https"):
        raise serializers.ValidationError(_("Only http and https URLs."), code="bad_scheme")


@extend_schema_field(
    {
        "type": "string",
        "format": "uri",
        "pattern": WEBHOOK_URL_PATTERN,
        "maxLength": WEBHOOK_URL_MAX_LENGTH,
        "example": "https://hooks.example.org/ttr",
    }
)
class WebhookUrlField(serializers.URLField):
    """A URL the server can POST to; the schema states its shape (see the help text)."""


class WebhookEndpointSerializer(serializers.ModelSerializer[WebhookEndpoint]):
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=Kind.choices),
        help_text="Kinds sent to this endpoint; empty: every kind.",
    )

    class Meta:
        model = WebhookEndpoint
        fields = ["id", "name", "url", "events", "active", "created_at", "updated_at"]


class WebhookEndpointWithSecretSerializer(WebhookEndpointSerializer):
    secret = serializers.CharField(
        help_text="The signing secret (`whsec_…`); shown only now, keep it."
    )

    class Meta(WebhookEndpointSerializer.Meta):
        fields = [*WebhookEndpointSerializer.Meta.fields, "secret"]


class WebhookEndpointInputSerializer(StrictSerializer):
    url = WebhookUrlField(
        max_length=WEBHOOK_URL_MAX_LENGTH,
        validators=[_http_url],
        help_text="An absolute `http` or `https` URL (scheme in any case), at most "
        f"{WEBHOOK_URL_MAX_LENGTH} characters, as Django's URL validator takes it: the host "
        "is a domain name of at most 253 characters ending in a top-level domain of two or "
        "more letters (or an IDN "
        "`xn--` one), `localhost`, an IPv4 address or an IPv6 address in brackets; then an "
        "optional port, path, query and fragment; no spaces. Otherwise `INVALID`; another "
        "scheme: `BAD_SCHEME`. A host that is or resolves to a private, loopback or "
        "link-local address is refused as `WEBHOOK_URL_PRIVATE` (unless the service allows "
        "it).",
    )
    name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=Kind.choices),
        required=False,
        default=list,
        help_text="Kinds to send; empty or left out: every kind.",
    )
    active = serializers.BooleanField(required=False, default=True)

    def validate_events(self, value: list[str]) -> list[str]:
        return sorted(set(value), key=Kind.values.index)


class DeliverySerializer(serializers.ModelSerializer[Delivery]):
    notification_id = serializers.IntegerField(read_only=True)
    type = serializers.ChoiceField(source="notification.kind", choices=Kind.choices, read_only=True)

    class Meta:
        model = Delivery
        fields = [
            "id",
            "notification_id",
            "type",
            "message_id",
            "status",
            "attempts",
            "last_response_code",
            "last_error",
            "next_attempt_at",
            "delivered_at",
            "created_at",
        ]


# ---------------------------------------------------------------------------- devices
class DeviceSerializer(serializers.ModelSerializer[Device]):
    class Meta:
        model = Device
        fields = ["id", "platform", "token", "name", "created_at", "active", "deactivated_at"]
        extra_kwargs = {
            "active": {
                "help_text": "False once FCM or APNs reported the token invalid; "
                "registering the token again turns it back on."
            },
        }


class DeviceInputSerializer(StrictSerializer):
    platform = serializers.ChoiceField(choices=Platform.choices)
    token = serializers.CharField(max_length=512)
    name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
