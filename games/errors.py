"""Service errors of the games app, each with a stable code."""

from __future__ import annotations

from rest_framework import status

from ttr_service.http.problems import ServiceError


def not_found() -> ServiceError:
    return ServiceError("GAME_NOT_FOUND", "No such game.", status.HTTP_404_NOT_FOUND)


def not_a_player() -> ServiceError:
    return ServiceError("NOT_A_PLAYER", "You hold no seat in this game.", status.HTTP_403_FORBIDDEN)


def not_creator(what: str) -> ServiceError:
    return ServiceError(
        "NOT_CREATOR", f"Only the game's creator may {what}.", status.HTTP_403_FORBIDDEN
    )


def wrong_status(game_status: str, needed: str) -> ServiceError:
    return ServiceError(
        "GAME_NOT_" + needed.upper(),
        f"The game is {game_status}; this needs a game that is {needed}.",
        status.HTTP_409_CONFLICT,
        game_status=game_status,
    )


def conflict(code: str, detail: str) -> ServiceError:
    return ServiceError(code, detail, status.HTTP_409_CONFLICT)


def bad_request(code: str, detail: str) -> ServiceError:
    return ServiceError(code, detail, status.HTTP_400_BAD_REQUEST)


def bad_idempotency_key(max_length: int) -> ServiceError:
    return bad_request(
        "BAD_IDEMPOTENCY_KEY",
        f"Idempotency-Key must be 1 to {max_length} visible ASCII characters (no spaces or "
        "control characters), such as a UUID.",
    )


def too_many_bot_games(limit: int) -> ServiceError:
    """A game of AI seats only, asked for by a user who has ``limit`` unfinished already
    (a quota on what the user holds now, not a rate: 409, as for webhooks and devices)."""
    if limit == 0:
        return conflict(
            "TOO_MANY_BOT_GAMES", "This service does not host games played by AI seats only."
        )
    return conflict(
        "TOO_MANY_BOT_GAMES",
        f"You have {limit} unfinished games played by AI seats only, the most allowed; "
        "cancel one or wait for one to finish.",
    )


def board_not_found(board: str) -> ServiceError:
    """A board named in the path that does not exist (the resource is missing: 404)."""
    return ServiceError("BOARD_NOT_FOUND", f"No board {board!r}.", status.HTTP_404_NOT_FOUND)


def unknown_board(board: str) -> ServiceError:
    """A board named in a body or query field that does not exist (bad input: 400), with
    the code the engine gives the same mistake."""
    return bad_request("UNKNOWN_BOARD", f"Unknown board {board!r}.")


class DeadlinePassed(Exception):
    """The locked game's deadline has passed: it must be settled before the command can
    run, outside this transaction (settling may need a bot to think)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(game_id)
        self.game_id = game_id
