"""Routes under /api/v1/: seeks (quick match) and the rematch of a finished game."""

from django.urls import path

from . import views

urlpatterns = [
    path("seeks", views.SeekListView.as_view(), name="seeks"),
    path("seeks/<int:seek_id>", views.SeekDetailView.as_view(), name="seek"),
    path("games/<int:game_id>/rematch", views.RematchView.as_view(), name="game-rematch"),
]
