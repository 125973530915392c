"""The in-app inbox: list, mark one read, mark all read."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from idempotency.answers import idempotent
from notifications import examples, services
from notifications.models import Notification
from notifications.openapi import NOTIFICATIONS_TAG, path_id
from notifications.pagination import NewestFirst
from notifications.serializers import (
    MarkedReadSerializer,
    NotificationListQuery,
    NotificationSerializer,
)
from notifications.views.query import CURSOR, PAGE_SIZE
from ttr_service.http.caller import caller
from ttr_service.http.codes import Code
from ttr_service.http.schema import problems


class NotificationListView(ListAPIView[Notification]):
    serializer_class = NotificationSerializer
    pagination_class = NewestFirst

    def get_queryset(self) -> QuerySet[Notification]:
        query = NotificationListQuery.read(self.request)
        notifications = Notification.objects.filter(user=caller(self.request))
        if query.get("unread") == "true":
            notifications = notifications.filter(read_at__isnull=True)
        return notifications

    @extend_schema(
        operation_id="notifications_list",
        summary="My notifications, newest first",
        tags=[NOTIFICATIONS_TAG],
        parameters=[
            NotificationListQuery,
            CURSOR,
            PAGE_SIZE,
        ],
        responses={
            200: OpenApiResponse(
                NotificationSerializer(many=True),
                description="A page of the caller's notifications, newest first.",
            ),
            **problems(
                (
                    Code.VALIDATION_ERROR,
                    "`unread` is neither `true` nor `false`, or `page_size` is not a whole number "
                    "from 1.",
                ),
                (Code.BAD_CURSOR, "A cursor this list did not give out."),
            ),
        },
        examples=[examples.notification()],
    )
    def get(self, request: Request) -> Response:
        return super().get(request)


class NotificationReadView(APIView):
    @extend_schema(
        operation_id="notifications_read",
        summary="Mark one notification read",
        tags=[NOTIFICATIONS_TAG],
        parameters=[path_id("notification_id", "notification")],
        request=None,
        responses={
            200: OpenApiResponse(NotificationSerializer, description="The notification, now read."),
            **problems((Code.NOTIFICATION_NOT_FOUND, "None of the caller's."), keyed=True),
        },
        examples=[examples.notification_read()],
    )
    @idempotent
    def post(self, request: Request, notification_id: int) -> Response:
        notification = services.notification_mark_read(caller(request), notification_id)
        return Response(NotificationSerializer(notification).data)


class NotificationReadAllView(APIView):
    @extend_schema(
        operation_id="notifications_read_all",
        summary="Mark all my notifications read",
        tags=[NOTIFICATIONS_TAG],
        request=None,
        responses={
            200: OpenApiResponse(
                MarkedReadSerializer, description="How many notifications were marked read."
            ),
            **problems(keyed=True),
        },
        examples=[examples.marked_read()],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        marked = services.notifications_mark_all_read(caller(request))
        return Response(MarkedReadSerializer({"marked": marked}).data)
