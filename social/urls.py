"""Routes under /api/v1/: friends, friend requests, blocks, and who may invite me."""

from django.urls import path

from .views import blocks, friends, preferences, requests

urlpatterns = [
    path("friends", friends.FriendListView.as_view(), name="friends"),
    path("friends/<str:username>", friends.FriendDetailView.as_view(), name="friend"),
    path("friend-requests", requests.FriendRequestSendView.as_view(), name="friend-requests"),
    path(
        "friend-requests/incoming",
        requests.IncomingRequestsView.as_view(),
        name="friend-requests-incoming",
    ),
    path(
        "friend-requests/outgoing",
        requests.OutgoingRequestsView.as_view(),
        name="friend-requests-outgoing",
    ),
    path(
        "friend-requests/<int:request_id>",
        requests.FriendRequestCancelView.as_view(),
        name="friend-request",
    ),
    path(
        "friend-requests/<int:request_id>/accept",
        requests.FriendRequestAcceptView.as_view(),
        name="friend-request-accept",
    ),
    path(
        "friend-requests/<int:request_id>/decline",
        requests.FriendRequestDeclineView.as_view(),
        name="friend-request-decline",
    ),
    path("blocks", blocks.BlockListView.as_view(), name="blocks"),
    path("blocks/<str:username>", blocks.BlockDetailView.as_view(), name="block"),
    path("social-settings", preferences.SocialSettingsView.as_view(), name="social-settings"),
]
