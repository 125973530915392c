"""Webhook endpoints, their secrets and their delivery logs."""

from __future__ import annotations

from django.db import transaction
from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from idempotency.answers import idempotent
from notifications import examples, webhooks
from notifications.models import Delivery, WebhookEndpoint
from notifications.openapi import WEBHOOKS_TAG, path_id
from notifications.pagination import DeliveryPages
from notifications.serializers import (
    DeliverySerializer,
    WebhookEndpointInputSerializer,
    WebhookEndpointSerializer,
    WebhookEndpointWithSecretSerializer,
)
from notifications.views.query import CURSOR, PAGE_SIZE
from ttr_service.http.caller import caller
from ttr_service.http.codes import Code
from ttr_service.http.schema import problems

WEBHOOK_ID = path_id("webhook_id", "webhook")
DELIVERY_ID = path_id("delivery_id", "delivery")


class WebhookListView(APIView):
    @extend_schema(
        operation_id="webhooks_list",
        summary="My webhook endpoints",
        tags=[WEBHOOKS_TAG],
        responses={
            200: OpenApiResponse(
                WebhookEndpointSerializer(many=True),
                description="The caller's webhook endpoints, without their secrets.",
            ),
            **problems(),
        },
        examples=[examples.webhook()],
    )
    def get(self, request: Request) -> Response:
        mine = WebhookEndpoint.objects.filter(user=caller(request))
        return Response(WebhookEndpointSerializer(mine, many=True).data)

    @extend_schema(
        operation_id="webhooks_create",
        summary="Add a webhook endpoint",
        description="Deliveries are POSTed as JSON `{type, timestamp, data}` and signed the "
        "Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature`). "
        "The signing secret is in this response only.",
        tags=[WEBHOOKS_TAG],
        request=WebhookEndpointInputSerializer,
        responses={
            201: OpenApiResponse(
                WebhookEndpointWithSecretSerializer,
                description="The new endpoint, with its signing secret (shown once).",
            ),
            **problems(
                (
                    Code.WEBHOOK_URL_PRIVATE,
                    "The URL's host is or resolves to a private, loopback or link-local address "
                    "(see `WEBHOOK_ALLOW_PRIVATE`).",
                ),
                (Code.WEBHOOK_LIMIT_REACHED, "Too many endpoints already."),
                body=True,
                keyed=True,
            ),
        },
        examples=examples.webhook_create(),
    )
    @idempotent
    def post(self, request: Request) -> Response:
        body = WebhookEndpointInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        endpoint = webhooks.endpoint_create(caller(request), **body.validated_data)
        return Response(
            WebhookEndpointWithSecretSerializer(endpoint).data, status=status.HTTP_201_CREATED
        )


class WebhookDetailView(APIView):
    @extend_schema(
        operation_id="webhooks_retrieve",
        summary="One webhook endpoint",
        tags=[WEBHOOKS_TAG],
        parameters=[WEBHOOK_ID],
        responses={
            200: OpenApiResponse(WebhookEndpointSerializer, description="The endpoint."),
            **problems((Code.WEBHOOK_NOT_FOUND, "None of the caller's.")),
        },
        examples=[examples.webhook()],
    )
    def get(self, request: Request, webhook_id: int) -> Response:
        endpoint = webhooks.endpoint_of(caller(request), webhook_id)
        return Response(WebhookEndpointSerializer(endpoint).data)

    @extend_schema(
        operation_id="webhooks_update",
        summary="Change a webhook endpoint",
        tags=[WEBHOOKS_TAG],
        parameters=[WEBHOOK_ID],
        request=WebhookEndpointInputSerializer(partial=True),
        responses={
            200: OpenApiResponse(
                WebhookEndpointSerializer, description="The endpoint, as now changed."
            ),
            **problems(
                (
                    Code.WEBHOOK_URL_PRIVATE,
                    "The URL's host is or resolves to a private, loopback or link-local address "
                    "(see `WEBHOOK_ALLOW_PRIVATE`).",
                ),
                (Code.WEBHOOK_NOT_FOUND, "None of the caller's."),
                body=True,
                keyed=True,
            ),
        },
        examples=examples.webhook_update(),
    )
    @idempotent
    def patch(self, request: Request, webhook_id: int) -> Response:
        body = WebhookEndpointInputSerializer(data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        changes = {k: v for k, v in body.validated_data.items() if k in request.data}
        endpoint = webhooks.endpoint_update(caller(request), webhook_id, **changes)
        return Response(WebhookEndpointSerializer(endpoint).data)

    @extend_schema(
        operation_id="webhooks_delete",
        summary="Remove a webhook endpoint and its delivery log",
        tags=[WEBHOOKS_TAG],
        parameters=[WEBHOOK_ID],
        responses={
            204: None,
            **problems((Code.WEBHOOK_NOT_FOUND, "None of the caller's."), keyed=True),
        },
    )
    @idempotent
    def delete(self, request: Request, webhook_id: int) -> Response:
        webhooks.endpoint_delete(caller(request), webhook_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookRotateSecretView(APIView):
    @extend_schema(
        operation_id="webhooks_rotate_secret",
        summary="Replace a webhook's signing secret",
        description="The new secret signs every attempt from now on, retries included; "
        "it is in this response only.",
        tags=[WEBHOOKS_TAG],
        parameters=[WEBHOOK_ID],
        request=None,
        responses={
            200: OpenApiResponse(
                WebhookEndpointWithSecretSerializer,
                description="The endpoint, with its new signing secret (shown once).",
            ),
            **problems((Code.WEBHOOK_NOT_FOUND, "None of the caller's."), keyed=True),
        },
        examples=[examples.webhook_secret()],
    )
    @idempotent
    def post(self, request: Request, webhook_id: int) -> Response:
        endpoint = webhooks.endpoint_rotate_secret(caller(request), webhook_id)
        return Response(WebhookEndpointWithSecretSerializer(endpoint).data)


class DeliveryListView(ListAPIView[Delivery]):
    serializer_class = DeliverySerializer
    pagination_class = DeliveryPages

    def get_queryset(self) -> QuerySet[Delivery]:
        return webhooks.deliveries_of(caller(self.request), self.kwargs["webhook_id"])

    @extend_schema(
        operation_id="webhooks_deliveries_list",
        summary="A webhook's delivery log, newest first",
        tags=[WEBHOOKS_TAG],
        parameters=[WEBHOOK_ID, CURSOR, PAGE_SIZE],
        responses={
            200: OpenApiResponse(
                DeliverySerializer(many=True),
                description="A page of the endpoint's deliveries, newest first.",
            ),
            **problems(
                (Code.BAD_CURSOR, "A cursor this list did not give out."),
                (Code.VALIDATION_ERROR, "`page_size` is not a whole number from 1."),
                (Code.WEBHOOK_NOT_FOUND, "None of the caller's."),
            ),
        },
        examples=examples.deliveries(),
    )
    def get(self, request: Request, webhook_id: int) -> Response:
        return super().get(request, webhook_id)


class DeliveryRedeliverView(APIView):
    @extend_schema(
        operation_id="webhooks_deliveries_redeliver",
        summary="Send a delivery again",
        description="Queues a new delivery of the same event with the same `webhook-id`, "
        "so a receiver that already has it can tell.",
        tags=[WEBHOOKS_TAG],
        parameters=[WEBHOOK_ID, DELIVERY_ID],
        request=None,
        responses={
            202: OpenApiResponse(
                DeliverySerializer, description="The new delivery, queued to be sent."
            ),
            **problems(
                (Code.WEBHOOK_NOT_FOUND, "None of the caller's."),
                (Code.DELIVERY_NOT_FOUND, "None of the caller's."),
                (Code.WEBHOOK_INACTIVE, "Activate the endpoint first."),
                keyed=True,
            ),
        },
        examples=[examples.redelivery()],
    )
    @idempotent
    def post(self, request: Request, webhook_id: int, delivery_id: int) -> Response:
        with transaction.atomic():
            copy = webhooks.delivery_redeliver(caller(request), webhook_id, delivery_id)
        return Response(DeliverySerializer(copy).data, status=status.HTTP_202_ACCEPTED)
