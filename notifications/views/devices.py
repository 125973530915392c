"""Push devices: register, list, remove."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from idempotency.answers import idempotent
from notifications import devices, examples
from notifications.models import Device
from notifications.openapi import DEVICES_TAG, path_id
from notifications.serializers import DeviceInputSerializer, DeviceSerializer
from ttr_service.http.caller import caller
from ttr_service.http.codes import Code
from ttr_service.http.schema import problems


class DeviceListView(APIView):
    @extend_schema(
        operation_id="devices_list",
        summary="My push devices",
        tags=[DEVICES_TAG],
        responses={
            200: OpenApiResponse(
                DeviceSerializer(many=True), description="The caller's registered devices."
            ),
            **problems(),
        },
        examples=[examples.device()],
    )
    def get(self, request: Request) -> Response:
        mine = Device.objects.filter(user=caller(request))
        return Response(DeviceSerializer(mine, many=True).data)

    @extend_schema(
        operation_id="devices_register",
        summary="Register a device for push",
        description="201 for a new token, 200 when the token was known (it then belongs "
        "to the caller, and what was waiting for its previous account is dropped).",
        tags=[DEVICES_TAG],
        request=DeviceInputSerializer,
        responses={
            201: OpenApiResponse(DeviceSerializer, description="The device, newly registered."),
            200: OpenApiResponse(
                DeviceSerializer, description="The device, known already and now the caller's."
            ),
            **problems(
                (Code.DEVICE_LIMIT_REACHED, "Too many devices already."), body=True, keyed=True
            ),
        },
        examples=examples.device_register(),
    )
    @idempotent
    def post(self, request: Request) -> Response:
        body = DeviceInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        device, created = devices.device_register(caller(request), **body.validated_data)
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(DeviceSerializer(device).data, status=code)


class DeviceDetailView(APIView):
    @extend_schema(
        operation_id="devices_delete",
        summary="Remove a push device",
        tags=[DEVICES_TAG],
        parameters=[path_id("device_id", "device")],
        responses={
            204: None,
            **problems((Code.DEVICE_NOT_FOUND, "None of the caller's."), keyed=True),
        },
    )
    @idempotent
    def delete(self, request: Request, device_id: int) -> Response:
        devices.device_delete(caller(request), device_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
