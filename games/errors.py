"""The refusals the games app raises in several places, with their words said once."""

from __future__ import annotations

from engine import ErrorCode
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError

_NOT_IN_STATUS = {
    "lobby": Code.GAME_NOT_LOBBY,
    "active": Code.GAME_NOT_ACTIVE,
    "finished": Code.GAME_NOT_FINISHED,
}


def not_found() -> ServiceError:
    return ServiceError(Code.GAME_NOT_FOUND, "No such game.")


def not_a_player() -> ServiceError:
    return ServiceError(Code.NOT_A_PLAYER, "You hold no seat in this game.")


def not_creator(what: str) -> ServiceError:
    return ServiceError(Code.NOT_CREATOR, f"Only the game's creator may {what}.")


def wrong_status(game_status: str, needed: str) -> ServiceError:
    """The game is in ``game_status`` where the request needs it ``needed``."""
    return ServiceError(
        _NOT_IN_STATUS[needed],
        f"The game is {game_status}; this needs a game that is {needed}.",
        game_status=game_status,
    )


def too_many_bot_games(limit: int) -> ServiceError:
    """A game of AI seats only, asked for by a user who has ``limit`` unfinished already
    (a quota on what the user holds now, not a rate: 409, as for webhooks and devices)."""
    if limit == 0:
        return ServiceError(
            Code.TOO_MANY_BOT_GAMES, "This service does not host games played by AI seats only."
        )
    return ServiceError(
        Code.TOO_MANY_BOT_GAMES,
        f"You have {limit} unfinished games played by AI seats only, the most allowed; "
        "cancel one or wait for one to finish.",
    )


def board_not_found(board: str) -> ServiceError:
    """A board named in the path that does not exist (the resource is missing: 404)."""
    return ServiceError(Code.BOARD_NOT_FOUND, f"No board {board!r}.")


def unknown_board(board: str) -> ServiceError:
    """A board named in a body or query field that does not exist (bad input: 400), with
    the code the engine gives the same mistake."""
    return ServiceError(ErrorCode.UNKNOWN_BOARD, f"Unknown board {board!r}.")


class DeadlinePassed(Exception):
    """The locked game's deadline has passed: it must be settled before the command can
    run, outside this transaction (settling may need a bot to think)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(game_id)
        self.game_id = game_id
