"""Friend requests: send one, list those sent to me and by me, accept, decline, cancel."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import friends
from accounts.models import Friendship
from accounts.relations import requests_from, requests_to
from idempotency.answers import idempotent
from social import examples
from social.friends import friend_row
from social.openapi import PAGE_PAST_END, PAGE_SIZE_BAD, REQUEST_ID, TAG
from social.serializers import (
    FriendRequestPageSerializer,
    FriendRequestSerializer,
    FriendSerializer,
    UsernameSerializer,
)
from social.views.paging import page_answer
from ttr_service.http.caller import caller
from ttr_service.http.codes import Code
from ttr_service.http.pagination import PAGE, PAGE_SIZE
from ttr_service.http.schema import problems

_SEND = UsernameSerializer()
_NOT_YOURS = (
    Code.FRIEND_REQUEST_NOT_FOUND,
    "The caller neither sent nor was sent a pending friend request with this id (answered, "
    "cancelled, or someone else's).",
)
_SENT_BY_CALLER = (
    Code.PERMISSION_DENIED,
    "The caller sent this request; only its recipient answers it.",
)


class FriendRequestSendView(APIView):
    @extend_schema(
        operation_id="friend_requests_send",
        summary="Ask a player to be my friend",
        description="201: the request, pending until the player answers; they are told "
        "(`friend_request`). 200: that player had asked the caller already, so this accepts "
        "their request and the two are friends now. A request to a player who blocks the "
        "caller is answered as any other and stays pending for the caller, but that player "
        "never sees it.",
        tags=[TAG],
        request=UsernameSerializer,
        responses={
            201: OpenApiResponse(FriendRequestSerializer, description="The request, pending."),
            200: OpenApiResponse(
                FriendSerializer, description="The player, a friend now (their request accepted)."
            ),
            **problems(
                Code.NAMED_YOURSELF,
                (Code.PLAYER_NOT_FOUND, "No player by that username."),
                Code.ALREADY_FRIENDS,
                Code.FRIEND_REQUEST_PENDING,
                (Code.PLAYER_BLOCKED, "The caller blocks this player."),
                Code.FRIEND_REQUEST_LIMIT_REACHED,
                (
                    Code.FRIEND_LIMIT_REACHED,
                    "Accepting the player's own request would give the caller, or them, more "
                    "friends than a user may have.",
                ),
                body=True,
                keyed=True,
            ),
        },
        examples=[examples.username("bob"), examples.request_sent(), examples.friend_made()],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        fields = _SEND.run_validation(request.data)
        user = caller(request)
        made = friends.friend_request_send(user, fields["username"])
        if isinstance(made, Friendship):
            return Response(FriendSerializer(friend_row(made, user)).data)
        return Response(FriendRequestSerializer(made).data, status=status.HTTP_201_CREATED)


class IncomingRequestsView(APIView):
    @extend_schema(
        operation_id="friend_requests_incoming",
        summary="Friend requests sent to me",
        description="The requests waiting for the caller's answer, the latest first. Paginated.",
        tags=[TAG],
        parameters=[PAGE, PAGE_SIZE],
        responses={
            200: OpenApiResponse(
                FriendRequestPageSerializer, description="A page of requests sent to the caller."
            ),
            **problems(PAGE_SIZE_BAD, PAGE_PAST_END),
        },
        examples=[examples.incoming()],
    )
    def get(self, request: Request) -> Response:
        rows = requests_to(caller(request).pk)
        return page_answer(self, request, rows, FriendRequestPageSerializer)


class OutgoingRequestsView(APIView):
    @extend_schema(
        operation_id="friend_requests_outgoing",
        summary="Friend requests I sent",
        description="The caller's requests that wait for an answer, the latest first. A "
        "request declined is no longer here. Paginated.",
        tags=[TAG],
        parameters=[PAGE, PAGE_SIZE],
        responses={
            200: OpenApiResponse(
                FriendRequestPageSerializer, description="A page of requests the caller sent."
            ),
            **problems(PAGE_SIZE_BAD, PAGE_PAST_END),
        },
        examples=[examples.outgoing()],
    )
    def get(self, request: Request) -> Response:
        rows = requests_from(caller(request).pk)
        return page_answer(self, request, rows, FriendRequestPageSerializer)


class FriendRequestAcceptView(APIView):
    @extend_schema(
        operation_id="friend_requests_accept",
        summary="Accept a friend request sent to me",
        description="The two are friends from now on; the sender is told (`friend_accepted`).",
        tags=[TAG],
        parameters=[REQUEST_ID],
        request=None,
        responses={
            200: OpenApiResponse(FriendSerializer, description="The sender, a friend now."),
            **problems(
                _SENT_BY_CALLER,
                _NOT_YOURS,
                (
                    Code.FRIEND_LIMIT_REACHED,
                    "The caller, or the sender, has as many friends as a user may have.",
                ),
                keyed=True,
            ),
        },
        examples=[examples.friend_made()],
    )
    @idempotent
    def post(self, request: Request, request_id: int) -> Response:
        user = caller(request)
        friendship = friends.friend_request_accept(user, request_id)
        return Response(FriendSerializer(friend_row(friendship, user)).data)


class FriendRequestDeclineView(APIView):
    @extend_schema(
        operation_id="friend_requests_decline",
        summary="Decline a friend request sent to me",
        description="The request is gone. Its sender is not told; it is no longer among their "
        "pending requests, and they may send another.",
        tags=[TAG],
        parameters=[REQUEST_ID],
        request=None,
        responses={204: None, **problems(_SENT_BY_CALLER, _NOT_YOURS, keyed=True)},
    )
    @idempotent
    def post(self, request: Request, request_id: int) -> Response:
        friends.friend_request_decline(caller(request), request_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class FriendRequestCancelView(APIView):
    @extend_schema(
        operation_id="friend_requests_cancel",
        summary="Cancel a friend request I sent",
        tags=[TAG],
        parameters=[REQUEST_ID],
        request=None,
        responses={
            204: None,
            **problems(
                (
                    Code.PERMISSION_DENIED,
                    "The request was sent to the caller; only its sender cancels it.",
                ),
                _NOT_YOURS,
                keyed=True,
            ),
        },
    )
    @idempotent
    def delete(self, request: Request, request_id: int) -> Response:
        friends.friend_request_cancel(caller(request), request_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
