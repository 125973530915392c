"""A game as the API writes it: in a list, whole as a seat or anyone else sees it, and the
legal actions of a seat. Each shape is a serializer that writes the response (one instance
per shape, made once) and from which the schema is generated.

The builders below gather a game's values (from its row, its seats and the engine's view of
its state for one seat) and hand them to the shape's serializer, which writes exactly the
fields it declares: a value the shape does not declare is not sent, and one it requires
but is missing fails the request.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from engine import CARD_NAMES, EngineError, Forfeit, GameState, player_view
from engine.views import pending_view, player_views
from games.domain.seats import controller, seat_index, state_of
from games.models import Game, GameStatus, Seat, SeatKind, TimeoutPolicy
from games.serializers.actions import ActionField
from games.serializers.boards import TicketSerializer
from games.serializers.score import ScoreSheetSerializer
from games.serializers.times import when as _when
from ttr_service.http.writers import Writer


class SeatSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=SeatKind.choices)
    username = serializers.CharField(allow_null=True)
    ai_level = serializers.CharField(allow_null=True)
    pending = serializers.BooleanField(help_text="A decision of this seat is pending.")
    controlled_by = serializers.ChoiceField(
        choices=["person", "ai"],
        allow_null=True,
        help_text="Who plays the seat now: its person, or the AI (an AI seat, or a "
        "person's seat the AI took over after missed deadlines); null while nobody sits "
        "there (an open seat or an invitation).",
    )
    ai_controlled_since = serializers.DateTimeField(
        allow_null=True,
        help_text="When the AI took this person's seat over; null unless it holds it now.",
    )
    can_reclaim = serializers.BooleanField(
        help_text="Whether the caller may take this seat back now "
        "(`POST /games/{id}/reclaim`): true only on the caller's own seat while the AI "
        "holds it."
    )


class GameSummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    board = serializers.CharField()
    options = serializers.DictField(
        child=serializers.CharField(), help_text="The board's game options, defaults included."
    )
    status = serializers.ChoiceField(choices=GameStatus.choices)
    version = serializers.IntegerField()
    players = serializers.IntegerField()
    created_by = serializers.CharField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    turn_time_limit = serializers.IntegerField(allow_null=True)
    timeout_policy = serializers.ChoiceField(choices=TimeoutPolicy.choices)
    deadline = serializers.DateTimeField(allow_null=True)
    seats = SeatSerializer(many=True)
    your_seat = serializers.IntegerField(allow_null=True)
    your_turn = serializers.BooleanField()


class GameSummaryPageSerializer(serializers.Serializer[Any]):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = GameSummarySerializer(many=True)


class TunnelSerializer(serializers.Serializer[Any]):
    route = serializers.CharField()
    color = serializers.ChoiceField(
        choices=list(CARD_NAMES), help_text="The colour laid (`locomotive`: only locomotives)."
    )
    laid = serializers.DictField(
        child=serializers.IntegerField(), help_text="The cards laid, per colour."
    )
    revealed = serializers.ListField(
        child=serializers.ChoiceField(choices=list(CARD_NAMES)),
        help_text="The cards turned from the deck.",
    )
    extra = serializers.IntegerField(help_text="How many more cards the tunnel asks for.")


class PendingSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(
        choices=[
            "choose_initial_tickets",
            "turn_action",
            "second_card",
            "tunnel_payment",
            "keep_tickets",
        ],
        allow_null=True,
        help_text="null once the game is over (no decision is pending).",
    )
    seats = serializers.ListField(child=serializers.IntegerField())
    tunnel = TunnelSerializer(
        required=False, help_text="While a tunnel's extra cards are to be paid: what lies face up."
    )


class PublicSeatSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    trains = serializers.IntegerField()
    stations_left = serializers.IntegerField()
    stations = serializers.ListField(child=serializers.CharField())
    routes = serializers.ListField(child=serializers.CharField())
    route_points = serializers.IntegerField()
    hand_size = serializers.IntegerField()
    tickets = serializers.IntegerField(help_text="How many tickets the seat holds.")
    tickets_offered = serializers.IntegerField()
    forfeited = serializers.BooleanField()


class HeldTicketSerializer(TicketSerializer):
    connected = serializers.BooleanField(
        help_text="Your routes already join its cities (or its origin to a destination)."
    )


HandSerializer: type[serializers.Serializer[Any]] = type(
    "HandSerializer",
    (serializers.Serializer,),
    {name: serializers.IntegerField(min_value=0) for name in CARD_NAMES},
)


class OwnSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    hand = HandSerializer(help_text="How many cards of each colour you hold.")
    tickets = HeldTicketSerializer(many=True)
    offered_tickets = TicketSerializer(many=True)


class LastRoundSerializer(serializers.Serializer[Any]):
    triggered_by = serializers.IntegerField()
    turns_left = serializers.IntegerField()


class GameStateViewSerializer(serializers.Serializer[Any]):
    rules_version = serializers.IntegerField()
    board = serializers.CharField()
    board_options = serializers.DictField(child=serializers.CharField())
    players = serializers.IntegerField()
    phase = serializers.ChoiceField(choices=["initial_tickets", "playing", "game_over"])
    turn = serializers.IntegerField()
    current_seat = serializers.IntegerField(allow_null=True)
    first_seat = serializers.IntegerField()
    pending = PendingSerializer(allow_null=True)
    market = serializers.ListField(child=serializers.CharField(allow_null=True))
    deck_size = serializers.IntegerField()
    discard_size = serializers.IntegerField()
    ticket_deck_size = serializers.IntegerField()
    last_round = LastRoundSerializer(allow_null=True)
    seats = PublicSeatSerializer(many=True)
    you = OwnSerializer(
        allow_null=True, help_text="Only for a seated player: your own hand and tickets."
    )
    result = ScoreSheetSerializer(allow_null=True, help_text="The final score sheet, once over.")


class GameDetailSerializer(GameSummarySerializer):
    state = GameStateViewSerializer(allow_null=True, help_text="null until the game starts.")


class LegalActionsSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    pending = PendingSerializer()
    actions = serializers.ListField(
        child=ActionField(),
        help_text="Every action the caller may send now, payments spelled out; empty while "
        "no decision of the caller's is pending. `forfeit` is not listed (see `can_forfeit`).",
    )
    can_forfeit = serializers.BooleanField(
        help_text='Whether the caller may send `{"type": "forfeit"}` now: true for a seat '
        "still playing, at any moment of the game."
    )


_SUMMARY = Writer(GameSummarySerializer())
_DETAIL = Writer(GameDetailSerializer())
_LEGAL = Writer(LegalActionsSerializer())


def _seat(seat: Seat, viewer: int | None) -> dict[str, Any]:
    """A seat as the player in seat ``viewer`` (None: anyone else) sees it."""
    return {
        "index": seat.index,
        "kind": seat.kind,
        "username": seat.user.get_username() if seat.user is not None else None,
        "ai_level": seat.ai_level or None,
        "pending": seat.pending,
        "controlled_by": controller(seat),
        "ai_controlled_since": _when(seat.ai_controlled_since if seat.ai_controlled else None),
        "can_reclaim": seat.ai_controlled and viewer == seat.index,
    }


def _summary(game: Game, mine: Seat | None) -> dict[str, Any]:
    viewer = seat_index(mine)
    return {
        "id": game.pk,
        "board": game.board,
        "options": game.options,
        "status": game.status,
        "version": game.version,
        "players": game.players,
        "created_by": game.created_by.get_username(),
        "created_at": _when(game.created_at),
        "started_at": _when(game.started_at),
        "finished_at": _when(game.finished_at),
        "turn_time_limit": game.turn_time_limit,
        "timeout_policy": game.timeout_policy,
        "deadline": _when(game.deadline),
        "seats": [_seat(s, viewer) for s in game.seated],
        "your_seat": viewer,
        "your_turn": bool(mine is not None and mine.pending),
    }


def game_summaries(games: list[tuple[Game, Seat | None]]) -> list[dict[str, Any]]:
    """Games in a list, each as the player in its seat (None: anyone else) sees it."""
    return _SUMMARY.many([_summary(game, mine) for game, mine in games])


def game_detail(game: Game, mine: Seat | None, state: GameState | None = None) -> dict[str, Any]:
    """The whole game as seat ``mine`` (None: anyone else) may see it; ``state``, when
    given, is the game's state already parsed."""
    data = _summary(game, mine)
    data["state"] = None
    if game.state is not None:
        data["state"] = player_view(state or state_of(game), seat_index(mine))
    return _DETAIL(data)


def game_details(
    game: Game, seats: list[Seat], state: GameState | None = None
) -> dict[int, dict[str, Any]]:
    """``game_detail`` for each of ``seats`` (of ``game``), by seat index; the engine's
    views of them are built together."""
    views: dict[int | None, dict[str, Any]] = {}
    if game.state is not None:
        views = player_views(state or state_of(game), [s.index for s in seats])
    common = _summary(game, None)
    return {
        s.index: _DETAIL(
            {
                **common,
                # Whether a seat may be reclaimed depends on who looks.
                "seats": [_seat(other, s.index) for other in game.seated],
                "your_seat": s.index,
                "your_turn": bool(s.pending),
                "state": views.get(s.index),
            }
        )
        for s in seats
    }


def legal_actions(game: Game, seat: int) -> dict[str, Any]:
    """What ``seat`` may do now in ``game``: every action spelled out, and the forfeit."""
    state = state_of(game)
    return _LEGAL(
        {
            "version": game.version,
            "pending": pending_view(state) or {"kind": None, "seats": []},
            "actions": [a.to_json() for a in state.legal_actions(seat)],
            "can_forfeit": _may_forfeit(state, seat),
        }
    )


def _may_forfeit(state: GameState, seat: int) -> bool:
    """The engine's own check of a forfeit (a seat still playing, a game not over)."""
    try:
        state.check(seat, Forfeit())
    except EngineError:
        return False
    return True
