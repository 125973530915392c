"""How a problem code is declared (``Declared``), the optional members a problem body may
carry (``MEMBERS``), and the engine's own codes with their statuses (``ENGINE``).

The service's codes are declared in ``ttr_service.http.codes``, beside these.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import ErrorCode
from engine.phases import (
    CHOOSE_INITIAL_TICKETS,
    KEEP_TICKETS,
    SECOND_CARD,
    TUNNEL_PAYMENT,
    TURN_ACTION,
)


@dataclass(frozen=True, eq=False)  # eq=False: two alike declarations stay two codes
class Declared:
    status: int
    meaning: str
    members: tuple[str, ...] = ()
    """The optional members of the problem body that come with this code (``MEMBERS``)."""
    retry_after: bool = False
    """Answered with a ``Retry-After`` header."""
    row: bool = False
    """A code of an ``errors`` row (a field's problem), never of a whole problem."""


@dataclass(frozen=True)
class Member:
    """An optional member of a problem body: its JSON type, its values when they are few,
    and what it holds."""

    type: type
    text: str
    choices: tuple[str, ...] = ()


PENDING_KINDS = (CHOOSE_INITIAL_TICKETS, TURN_ACTION, SECOND_CARD, TUNNEL_PAYMENT, KEEP_TICKETS)
GAME_STATUSES = ("lobby", "active", "finished", "cancelled")

MEMBERS = {
    "current_version": Member(
        int,
        "the game's version now. Fetch the game and decide again at this version.",
    ),
    "game_status": Member(str, "the game's status now.", GAME_STATUSES),
    "pending": Member(
        str,
        "the kind of decision the seat must make now, one of "
        + ", ".join(f"`{kind}`" for kind in PENDING_KINDS)
        + ".",
    ),
    "owner": Member(int, "the seat holding the route, or the city's station."),
    "minimum": Member(int, "the fewest tickets that may be kept."),
}


# The engine's codes, passed through unchanged: input that is no action at all or names
# what the board does not have (400), a move that does not fit the game (409), and the
# problems of a position given to the score calculator (400, rows of ILLEGAL_POSITION).
ENGINE: dict[ErrorCode, Declared] = {
    ErrorCode.GAME_OVER: Declared(409, "The game is over; no more moves."),
    ErrorCode.FORFEITED: Declared(409, "The seat has left the game and takes no more turns."),
    ErrorCode.NOT_YOUR_TURN: Declared(409, "Another seat must decide now."),
    ErrorCode.WRONG_PHASE: Declared(
        409, "The action does not fit the decision pending; `pending` names it.", ("pending",)
    ),
    ErrorCode.DECK_EMPTY: Declared(409, "No train cards are left to draw."),
    ErrorCode.EMPTY_SLOT: Declared(409, "That face-up slot holds no card."),
    ErrorCode.LOCOMOTIVE_NOT_ALLOWED: Declared(
        409,
        "A face-up locomotive may not be taken as the second card, or a locomotive may not "
        "pay here.",
    ),
    ErrorCode.ROUTE_TAKEN: Declared(
        409, "The route is claimed already; `owner` is the seat holding it.", ("owner",)
    ),
    ErrorCode.DOUBLE_ROUTE_CLOSED: Declared(
        409,
        "With 2 or 3 players only one track of a double route is used, and the other is taken.",
    ),
    ErrorCode.DOUBLE_ROUTE_OWNED: Declared(
        409, "The seat already holds the other track of this double route."
    ),
    ErrorCode.NOT_ENOUGH_TRAINS: Declared(409, "The seat has too few trains left for this route."),
    ErrorCode.WRONG_COLOR: Declared(
        409, "The cards are not of the colour this route or payment needs."
    ),
    ErrorCode.WRONG_CARD_COUNT: Declared(409, "The payment has the wrong number of cards."),
    ErrorCode.FERRY_NEEDS_LOCOMOTIVES: Declared(409, "A ferry needs locomotives among its cards."),
    ErrorCode.INSUFFICIENT_CARDS: Declared(
        409, "The seat does not hold the cards of this payment."
    ),
    ErrorCode.STATIONS_DISABLED: Declared(409, "This board is played without stations."),
    ErrorCode.STATION_TAKEN: Declared(
        409, "The city has a station already; `owner` is its seat.", ("owner",)
    ),
    ErrorCode.NO_STATIONS_LEFT: Declared(409, "The seat has built all of its stations."),
    ErrorCode.NO_TICKETS_LEFT: Declared(409, "No destination tickets are left to draw."),
    ErrorCode.TICKET_NOT_OFFERED: Declared(409, "A kept ticket is not one of those offered."),
    ErrorCode.MUST_KEEP_TICKETS: Declared(
        409, "Too few tickets kept; `minimum` is the fewest allowed.", ("minimum",)
    ),
    ErrorCode.BAD_ACTION: Declared(400, "The action is malformed (wrong shape or types)."),
    ErrorCode.UNKNOWN_ACTION: Declared(400, "No action of this type."),
    ErrorCode.UNKNOWN_ROUTE: Declared(400, "No route by that id on this board."),
    ErrorCode.UNKNOWN_CITY: Declared(400, "No city by that name on this board."),
    ErrorCode.UNKNOWN_TICKET: Declared(400, "No ticket by that id on this board."),
    ErrorCode.UNKNOWN_COLOR: Declared(400, "No card colour by that name."),
    ErrorCode.BAD_SEAT: Declared(400, "The seat number is not one of the game's seats."),
    ErrorCode.BAD_SETUP: Declared(409, "The game cannot be set up as asked."),
    ErrorCode.BAD_OPTION: Declared(
        400, "An option the board does not have, or a value it does not offer."
    ),
    ErrorCode.UNKNOWN_BOARD: Declared(
        400, "No board by the name in a body field or query parameter."
    ),
    ErrorCode.ILLEGAL_POSITION: Declared(
        400,
        "The position given to the score calculator is not one a game could reach; "
        "`errors` has a row per problem.",
    ),
    ErrorCode.BAD_SHAPE: Declared(400, "In a scored position: wrong types or unknown keys."),
    ErrorCode.BAD_PLAYER_COUNT: Declared(
        400, "In a scored position: more or fewer players than the board is played with."
    ),
    ErrorCode.BAD_TICKET: Declared(
        400,
        "In a scored position: a ticket that is not two different cities with positive "
        "whole points.",
    ),
    ErrorCode.ROUTE_HELD_TWICE: Declared(400, "In a scored position: a route held by two players."),
    ErrorCode.DOUBLE_ROUTE_BOTH_TRACKS: Declared(
        400, "In a scored position: one player on both tracks of a double route."
    ),
    ErrorCode.TOO_MANY_TRAINS: Declared(
        400, "In a scored position: a player's routes use more trains than a player has."
    ),
    ErrorCode.TOO_MANY_STATIONS: Declared(
        400, "In a scored position: more stations than a player has."
    ),
    ErrorCode.STATION_CITY_TAKEN: Declared(400, "In a scored position: two stations in one city."),
}
