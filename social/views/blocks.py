"""Blocks: the players I block, blocking one, and unblocking."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.blocks import block_create, block_delete
from accounts.relations import blocks_of
from idempotency.answers import idempotent
from social import examples
from social.openapi import PAGE_PAST_END, PAGE_SIZE_BAD, TAG, USERNAME
from social.serializers import BlockPageSerializer, BlockSerializer, UsernameSerializer
from social.views.paging import page_answer
from ttr_service.http.caller import caller
from ttr_service.http.codes import Code
from ttr_service.http.pagination import PAGE, PAGE_SIZE
from ttr_service.http.schema import problems

_BLOCK = UsernameSerializer()


class BlockListView(APIView):
    @extend_schema(
        operation_id="blocks_list",
        summary="The players I block",
        description="The latest first. Paginated.",
        tags=[TAG],
        parameters=[PAGE, PAGE_SIZE],
        responses={
            200: OpenApiResponse(
                BlockPageSerializer, description="A page of the players the caller blocks."
            ),
            **problems(PAGE_SIZE_BAD, PAGE_PAST_END),
        },
        examples=[examples.blocks()],
    )
    def get(self, request: Request) -> Response:
        return page_answer(self, request, blocks_of(caller(request).pk), BlockPageSerializer)

    @extend_schema(
        operation_id="blocks_create",
        summary="Block a player",
        description="201 for a new block, 200 when the caller blocked the player already. "
        "Their friendship ends, and the friend requests between them are dropped. From now "
        "on neither may send the other a friend request, invite the other into a game, or "
        "take a seat in a lobby the other created or sits in. The player is not told; what "
        "they are answered does not say they are blocked (docs/api.md). Games are left as "
        "they are.",
        tags=[TAG],
        request=UsernameSerializer,
        responses={
            201: OpenApiResponse(BlockSerializer, description="The block, new."),
            200: OpenApiResponse(BlockSerializer, description="The block, made earlier."),
            **problems(
                Code.NAMED_YOURSELF,
                (Code.PLAYER_NOT_FOUND, "No player by that username."),
                body=True,
                keyed=True,
            ),
        },
        examples=[examples.username("carol"), examples.block_made()],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        fields = _BLOCK.run_validation(request.data)
        block, created = block_create(caller(request), fields["username"])
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(BlockSerializer(block).data, status=code)


class BlockDetailView(APIView):
    @extend_schema(
        operation_id="blocks_delete",
        summary="Unblock a player",
        description="The player may befriend and invite the caller again. What the block "
        "ended (a friendship, friend requests) does not come back, and the requests the "
        "player sent while blocked, which the caller never saw, are dropped.",
        tags=[TAG],
        parameters=[USERNAME],
        request=None,
        responses={
            204: None,
            **problems(
                (Code.BLOCK_NOT_FOUND, "The caller blocks no player by this username."), keyed=True
            ),
        },
    )
    @idempotent
    def delete(self, request: Request, username: str) -> Response:
        block_delete(caller(request), username)
        return Response(status=status.HTTP_204_NO_CONTENT)
