"""Routes under /api/v1/: a game's chat rooms, quick messages, mutes and reports."""

from django.urls import path

from .http import messages

urlpatterns = [
    path("games/<int:game_id>/chat", messages.ChatView.as_view(), name="game-chat"),
]
