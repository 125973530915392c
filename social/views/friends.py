"""My friends: the list, and ending a friendship."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.friends import friend_remove
from accounts.relations import friends_of
from idempotency.answers import idempotent
from social import examples
from social.friends import friend_rows
from social.openapi import PAGE_PAST_END, PAGE_SIZE_BAD, TAG, USERNAME
from social.serializers import FriendPageSerializer
from social.views.paging import page_answer
from ttr_service.http.caller import caller
from ttr_service.http.codes import Code
from ttr_service.http.pagination import PAGE, PAGE_SIZE
from ttr_service.http.schema import problems


class FriendListView(APIView):
    @extend_schema(
        operation_id="friends_list",
        summary="My friends",
        description="The caller's friends by name (ignoring case), each with when the two "
        "became friends and whether the friend is seated in a game being played now. "
        "Paginated.",
        tags=[TAG],
        parameters=[PAGE, PAGE_SIZE],
        responses={
            200: OpenApiResponse(
                FriendPageSerializer, description="A page of the caller's friends."
            ),
            **problems(PAGE_SIZE_BAD, PAGE_PAST_END),
        },
        examples=[examples.friends()],
    )
    def get(self, request: Request) -> Response:
        rows = friends_of(caller(request).pk)
        return page_answer(self, request, rows, FriendPageSerializer, friend_rows)


class FriendDetailView(APIView):
    @extend_schema(
        operation_id="friends_remove",
        summary="End a friendship",
        description="The two are friends no more. The other player is not told; the caller is "
        "no longer among their friends.",
        tags=[TAG],
        parameters=[USERNAME],
        request=None,
        responses={
            204: None,
            **problems(
                (Code.FRIEND_NOT_FOUND, "No friend of the caller's has this username."), keyed=True
            ),
        },
    )
    @idempotent
    def delete(self, request: Request, username: str) -> Response:
        friend_remove(caller(request), username)
        return Response(status=status.HTTP_204_NO_CONTENT)
