"""Service errors of the games app, each with a stable code."""

from __future__ import annotations

from rest_framework import status

from ttr_service.problems import ServiceError


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
