"""Output serializers: they document the JSON the views return."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from engine import BOARD_IDS, ErrorCode
from ttr_service.http.query import QueryParameters

from .models import RatingChange

DEFAULT_BOARD = "europe"


class LeaderboardQuery(QueryParameters):
    codes = {"board": ErrorCode.UNKNOWN_BOARD}

    board = serializers.ChoiceField(
        list(BOARD_IDS),
        default=DEFAULT_BOARD,
        help_text="The board's leaderboard. Another value (empty too): 400 `UNKNOWN_BOARD`.",
    )


class LeaderboardRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(help_text="1 for the best rating; equal ratings share a rank.")
    username = serializers.CharField()
    rating = serializers.FloatField()
    rated_games = serializers.IntegerField()
    wins = serializers.IntegerField(help_text="Rated games finished in first place (shared too).")


class LeaderboardPageSerializer(serializers.Serializer[Any]):
    board = serializers.CharField()
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = LeaderboardRowSerializer(many=True)


class RatingChangeSerializer(serializers.Serializer[RatingChange]):
    game = serializers.IntegerField(source="game_id", help_text="The game's id.")
    place = serializers.IntegerField()
    opponents = serializers.IntegerField()
    before = serializers.FloatField()
    after = serializers.FloatField()
    change = serializers.FloatField()
    at = serializers.DateTimeField(source="created_at")


class PlayerBoardStatsSerializer(serializers.Serializer[Any]):
    board = serializers.CharField()
    games = serializers.IntegerField(help_text="Finished games, AI games included.")
    wins = serializers.IntegerField(help_text="Games finished in first place (shared too).")
    total_score = serializers.IntegerField()
    average_score = serializers.FloatField(allow_null=True)
    tickets_completed = serializers.IntegerField()
    tickets_failed = serializers.IntegerField()
    longest_path_bonuses = serializers.IntegerField()
    forfeits = serializers.IntegerField()
    last_played = serializers.DateTimeField(allow_null=True)
    rating = serializers.FloatField(
        allow_null=True, help_text="null until the player has finished a rated game here."
    )
    rated_games = serializers.IntegerField()
    rated_wins = serializers.IntegerField()
    recent_rating_changes = RatingChangeSerializer(
        many=True, help_text="The latest rated games here, newest first (at most 10)."
    )


class PlayerStatsSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    boards = PlayerBoardStatsSerializer(
        many=True, help_text="One entry per board played, by board."
    )
