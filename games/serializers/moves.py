"""The move log as the API writes it: each move as the caller may see it (a blind draw's
colour to its drawer only, everything once the game is over), a page of them, and a
finished game's record."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from engine import Event, action_view, event_view
from games.models import GameStatus, Move
from games.serializers.actions import ActionField, LoggedActionField
from games.serializers.events import EventField
from games.serializers.score import ScoreSheetSerializer
from games.serializers.times import when
from ttr_service.http.writers import Writer


class MoveSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    by_ai = serializers.BooleanField()
    action = LoggedActionField(allow_null=True, help_text="null for a move of the table's own.")
    events = serializers.ListField(child=EventField(), help_text="What the move caused, in order.")
    version = serializers.IntegerField()
    at = serializers.DateTimeField()


class MoveListSerializer(serializers.Serializer[Any]):
    moves = MoveSerializer(many=True)
    next_after = serializers.IntegerField(help_text="Pass as `after` to get the moves that follow.")
    has_more = serializers.BooleanField()


class RecordEntrySerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    action = ActionField()


class GameRecordSerializer(serializers.Serializer[Any]):
    board = serializers.CharField()
    board_options = serializers.DictField(
        child=serializers.CharField(), required=False, help_text="Only for a board with options."
    )
    players = serializers.IntegerField()
    seed = serializers.IntegerField()
    first_player = serializers.IntegerField()
    rules_version = serializers.IntegerField()
    actions = RecordEntrySerializer(many=True, help_text="Every move, in order.")


class GameStateSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(help_text="The game's version now.")
    status = serializers.ChoiceField(choices=GameStatus.choices)


class GameEndSerializer(GameStateSerializer):
    result = ScoreSheetSerializer(
        allow_null=True, help_text="The final score sheet; null for a cancelled game."
    )


_MOVE = Writer(MoveSerializer())
_GAME_STATE = Writer(GameStateSerializer())
_GAME_END = Writer(GameEndSerializer())
_PAGE = Writer(MoveListSerializer())
_RECORD = Writer(GameRecordSerializer())


def _move(move: Move, viewer: int | None, everything: bool) -> dict[str, Any]:
    """A logged move as seat ``viewer`` (None: anyone else) may see it; ``everything``
    once the game is over."""
    if everything:
        events = [
            {**e["public"], **(e["private"] or {}), "type": e["type"], "seat": e["seat"]}
            for e in move.events
        ]
        action = move.action
    else:
        events = [event_view(Event.from_json(e), viewer) for e in move.events]
        action = action_view(move.action, move.seat, viewer) if move.action else None
    return {
        "number": move.number,
        "seat": move.seat,
        "by_ai": move.by_ai,
        "action": action,
        "events": events,
        "version": move.version,
        "at": when(move.created_at),
    }


def moves_seen(rows: list[Move], viewer: int | None, status: str) -> list[dict[str, Any]]:
    """Logged moves as seat ``viewer`` (None: anyone else) of a game in ``status`` may see
    them: what the move log and the game's event stream both send."""
    everything = status == GameStatus.FINISHED
    return [_MOVE(_move(m, viewer, everything)) for m in rows]


def moves_of_seat(rows: list[Move], seat: int) -> list[dict[str, Any]]:
    """Logged moves as ``seat`` saw them while the game was played, even once it is over:
    never another seat's hidden cards (what an account's data export holds)."""
    return [_MOVE(_move(m, seat, False)) for m in rows]


def move_page(
    rows: list[Move], viewer: int | None, status: str, after: int, more: bool
) -> dict[str, Any]:
    """A page of the move log: the moves after ``after`` and the ``after`` to ask for next."""
    everything = status == GameStatus.FINISHED
    moves = [_move(m, viewer, everything) for m in rows]
    return _PAGE(
        {"moves": moves, "next_after": moves[-1]["number"] if moves else after, "has_more": more}
    )


def game_record(record: dict[str, Any]) -> dict[str, Any]:
    """A finished game's seed, rules version and every move: enough to replay it."""
    return _RECORD(record)


def game_now(version: int, status: str) -> dict[str, Any]:
    """What a stream tells of a game that changed without a move."""
    return _GAME_STATE({"version": version, "status": status})


def game_end(version: int, status: str, result: dict[str, Any] | None) -> dict[str, Any]:
    """What a stream tells last: the game over (with its score sheet) or cancelled."""
    return _GAME_END({"version": version, "status": status, "result": result})
