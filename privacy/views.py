"""``/account/deletion`` and ``/account/exports``: thin views over ``deletion`` and
``exports``."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from accounts.openapi import RETRY_AFTER
from idempotency.answers import idempotent
from privacy import deletion, examples, exports
from privacy.models import DataExport, ExportStatus
from privacy.serializers import (
    ArchiveSerializer,
    DeletionRequestSerializer,
    DeletionSerializer,
    ExportSerializer,
)
from ttr_service.http.caller import caller
from ttr_service.http.codes import Code
from ttr_service.http.schema import problems

TAG = "account"
# The newest exports a list shows.
LISTED = 20

EXPORT_ID = OpenApiParameter(
    "export_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The export's `id`."
)


def _shown(request: Request, export: DataExport) -> dict[str, Any]:
    now_status = exports.status_of(export)
    link = None
    if now_status == ExportStatus.READY:
        link = reverse("account-export-download", kwargs={"export_id": export.pk}, request=request)
    data: dict[str, Any] = ExportSerializer(
        {
            "id": export.pk,
            "status": now_status,
            "created_at": export.created_at,
            "ready_at": export.ready_at,
            "expires_at": export.expires_at,
            "download": link,
        }
    ).data
    return data


class AccountDeletionView(APIView):
    @extend_schema(
        operation_id="account_delete",
        summary="Delete my account",
        description="Confirmed by the account's `password`, or by `confirm` of `DELETE` for "
        "an account without one (it signs in with Apple or Google only). Every token of the "
        "account is revoked at once, this one too. The account is erased right after this "
        "answer, or, with a grace period (`ACCOUNT_DELETION_GRACE_HOURS`), at `erase_at`: "
        "signing in again before then (`POST /auth/login`, or a provider's sign-in) cancels "
        "the deletion. Erased: the username (a pseudonym `deleted-player-…` from then on), "
        "e-mail, identities, tokens, friends, requests, blocks, settings, devices, webhooks, "
        "notifications, kept answers; finished games keep the seat under the pseudonym.",
        tags=[TAG],
        request=DeletionRequestSerializer,
        responses={
            202: OpenApiResponse(DeletionSerializer, description="The deletion, under way."),
            **problems(
                Code.DELETION_NOT_CONFIRMED,
                (Code.CURRENT_PASSWORD_WRONG, "The password is not the account's."),
                body=True,
                keyed=True,
            ),
        },
        examples=[
            examples.DELETE_WITH_PASSWORD,
            examples.DELETE_CONFIRMED,
            examples.DELETION,
            examples.NOT_CONFIRMED,
        ],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        body = DeletionRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        asked = deletion.deletion_request(
            caller(request), password=data.get("password"), confirm=data.get("confirm")
        )
        shown = DeletionSerializer(
            {
                "status": "erasing" if asked.erase_at <= asked.requested_at else "scheduled",
                "erase_at": asked.erase_at,
            }
        ).data
        return Response(shown, status=status.HTTP_202_ACCEPTED)


class ExportListView(APIView):
    @extend_schema(
        operation_id="account_exports_list",
        summary="My data exports",
        description=f"The newest {LISTED}, newest first.",
        tags=[TAG],
        responses={
            200: OpenApiResponse(ExportSerializer(many=True), description="The exports."),
            **problems(),
        },
        examples=[examples.EXPORT_LIST],
    )
    def get(self, request: Request) -> Response:
        mine = exports.exports_of(caller(request))[:LISTED]
        return Response([_shown(request, export) for export in mine])

    @extend_schema(
        operation_id="account_exports_create",
        summary="Export my data",
        description="A worker builds a JSON archive of everything the service keeps of the "
        "account; an `export_ready` notification says when it is `ready`. One export at a "
        "time (`EXPORT_PENDING`), and one per `DATA_EXPORT_INTERVAL_MINUTES` "
        "(`EXPORT_THROTTLED`, with `Retry-After`).",
        tags=[TAG],
        request=None,
        responses={
            202: OpenApiResponse(ExportSerializer, description="The export, being built."),
            **problems(Code.EXPORT_PENDING, Code.EXPORT_THROTTLED, keyed=True),
        },
        parameters=[RETRY_AFTER],
        examples=[examples.EXPORT_ASKED, examples.THROTTLED],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        export = exports.export_request(caller(request))
        return Response(_shown(request, export), status=status.HTTP_202_ACCEPTED)


class ExportDetailView(APIView):
    @extend_schema(
        operation_id="account_exports_retrieve",
        summary="One of my data exports",
        tags=[TAG],
        parameters=[EXPORT_ID],
        responses={
            200: OpenApiResponse(ExportSerializer, description="The export."),
            **problems((Code.NOT_FOUND, "You have no export with this id.")),
        },
        examples=[examples.EXPORT_READY],
    )
    def get(self, request: Request, export_id: int) -> Response:
        return Response(_shown(request, exports.export_of(caller(request), export_id)))


class ExportDownloadView(APIView):
    @extend_schema(
        operation_id="account_exports_download",
        summary="Download a data export, once",
        description="The archive as a JSON attachment, given once, to its owner, until "
        "`expires_at` (`DATA_EXPORT_HOURS` after it was ready). Then, or after it was "
        "downloaded, 410 `EXPORT_GONE`.",
        tags=[TAG],
        parameters=[EXPORT_ID],
        responses={
            200: OpenApiResponse(ArchiveSerializer, description="The archive."),
            **problems(
                (Code.NOT_FOUND, "You have no export with this id."),
                Code.EXPORT_NOT_READY,
                Code.EXPORT_GONE,
            ),
        },
        examples=[examples.ARCHIVE, examples.GONE],
    )
    def get(self, request: Request, export_id: int) -> HttpResponse:
        archive = exports.export_download(caller(request), export_id)
        filename = f"ttr-account-export-{export_id}.json"
        # The JSON ArchiveSerializer wrote when it was built (exports.export_build).
        return HttpResponse(
            archive,
            content_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )
