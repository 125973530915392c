from django.urls import path

from . import api

urlpatterns = [
    path("leaderboard", api.LeaderboardView.as_view(), name="leaderboard"),
    # Before the username route, so "me" always means the caller.
    path("players/me/stats", api.MyStatsView.as_view(), name="player-me-stats"),
    path("players/<str:username>/stats", api.PlayerStatsView.as_view(), name="player-stats"),
]
