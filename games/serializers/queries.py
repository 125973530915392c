"""The query parameters of the games' lists, declared once for the schema and for reading."""

from __future__ import annotations

from rest_framework import serializers

from games.models import GameStatus
from ttr_service.http.codes import Code
from ttr_service.http.query import QueryParameters, WholeNumberParameter

MAX_MOVES_PAGE = 500


class GameListQuery(QueryParameters):
    codes = {"scope": Code.BAD_SCOPE, "status": Code.BAD_STATUS}

    scope = serializers.ChoiceField(
        ["mine", "open"],
        default="mine",
        help_text="`mine`: the games the caller created, sits in or is invited to; `open`: "
        "lobbies with an open seat. Another value: 400 `BAD_SCOPE`.",
    )
    status = serializers.ChoiceField(
        GameStatus.values,
        required=False,
        help_text="Only games in this status. Another value: 400 `BAD_STATUS`.",
    )


class MoveListQuery(QueryParameters):
    codes = {"after": Code.BAD_CURSOR, "limit": Code.BAD_CURSOR}

    after = WholeNumberParameter(
        min_value=0,
        default=0,
        help_text="Move number to start after (0 = start). Anything else: `BAD_CURSOR`.",
    )
    limit = WholeNumberParameter(
        min_value=1,
        max_value=MAX_MOVES_PAGE,
        default=100,
        help_text=f"At most this many moves (1 to {MAX_MOVES_PAGE}). Anything else: `BAD_CURSOR`.",
    )
