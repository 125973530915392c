"""``POST /stream-tickets``: a short-lived ticket that opens event streams (see
``accounts.stream_tickets``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import stream_tickets
from accounts.authentication import caller_token
from accounts.openapi import RETRY_AFTER, TAG, WWW_AUTHENTICATE
from idempotency.answers import idempotent
from ttr_service.http.schema import problems


class StreamTicketSerializer(serializers.Serializer[Any]):
    ticket = serializers.CharField(
        help_text="Pass as `?ticket=` to `GET /games/{id}/events` or `GET /stream`. It opens "
        "streams only, and only until `expires_at`; a stream once open lives on."
    )
    expires_at = serializers.DateTimeField()
    expires_in = serializers.IntegerField(help_text="Seconds the ticket stays good for.")


class StreamTicketView(APIView):
    @extend_schema(
        operation_id="stream_tickets_create",
        summary="A ticket for opening event streams from a browser",
        description="A browser's `EventSource` cannot send `Authorization`, and an API "
        "token must never go in a URL: ask for a ticket with the token in the header, then "
        "open the stream with `?ticket=`. Ask for a new one each time a stream is opened "
        "(an `EventSource` that reconnects after the ticket expired gets 401).",
        tags=[TAG],
        request=None,
        responses={
            201: OpenApiResponse(StreamTicketSerializer, description="The new ticket."),
            **problems(keyed=True),
        },
        parameters=[RETRY_AFTER, WWW_AUTHENTICATE],
        examples=[
            OpenApiExample(
                "A ticket",
                value={
                    "ticket": "sst_WzQyLDdd:1vQx2a:Zp3kq0m7Wc2r1yJb5dV8hT6nX4sUeA9fLgKoHiMjN0",
                    "expires_at": "2026-12-01T10:01:00Z",
                    "expires_in": 60,
                },
                response_only=True,
                status_codes=["201"],
            )
        ],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        ticket, expires_at = stream_tickets.issue(caller_token(request))
        body = {
            "ticket": ticket,
            "expires_at": expires_at,
            "expires_in": settings.STREAM_TICKET_SECONDS,
        }
        return Response(StreamTicketSerializer(body).data, status=status.HTTP_201_CREATED)
