"""Routes under /api/v1/: a game's chat rooms, quick messages, mutes and reports."""

from django.urls import path

from .views import messages, moderation

urlpatterns = [
    path("games/<int:game_id>/chat", messages.ChatView.as_view(), name="game-chat"),
    path(
        "chat/quick-messages",
        moderation.QuickMessageListView.as_view(),
        name="chat-quick-messages",
    ),
    path("chat/mutes", moderation.MuteListView.as_view(), name="chat-mutes"),
    path("chat/mutes/<str:username>", moderation.MuteDetailView.as_view(), name="chat-mute"),
    path(
        "chat/messages/<int:message_id>/report",
        moderation.ReportView.as_view(),
        name="chat-message-report",
    ),
]
