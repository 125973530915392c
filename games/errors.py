"""The refusals the games app raises in several places, with their words said once."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from engine import ErrorCode
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError

_NOT_IN_STATUS = {
    "lobby": Code.GAME_NOT_LOBBY,
    "active": Code.GAME_NOT_ACTIVE,
    "finished": Code.GAME_NOT_FINISHED,
}

# A game's status as a word in a sentence ("The game is finished"); the code stays as is.
_STATUS_WORDS: dict[str, Promise] = {
    "lobby": pgettext_lazy("game status", "in its lobby"),
    "active": pgettext_lazy("game status", "active"),
    "finished": pgettext_lazy("game status", "finished"),
    "cancelled": pgettext_lazy("game status", "cancelled"),
}

# What only the creator may do to a game, by name (``not_creator``).
_CREATOR_ONLY: dict[str, Promise] = {
    "start": gettext_lazy("Only the game's creator may start it."),
    "cancel": gettext_lazy("Only the game's creator may cancel it."),
}


def not_found() -> ServiceError:
    return ServiceError(Code.GAME_NOT_FOUND, _("No such game."))


def not_a_player() -> ServiceError:
    return ServiceError(Code.NOT_A_PLAYER, _("You hold no seat in this game."))


def not_creator(what: str) -> ServiceError:
    """Only the creator may ``what`` the game: ``"start"`` or ``"cancel"``."""
    return ServiceError(Code.NOT_CREATOR, str(_CREATOR_ONLY[what]))


def _status_word(status: str) -> str:
    word = _STATUS_WORDS.get(status)
    return status if word is None else str(word)


def wrong_status(game_status: str, needed: str) -> ServiceError:
    """The game is in ``game_status`` where the request needs it ``needed``."""
    return ServiceError(
        _NOT_IN_STATUS[needed],
        _("The game is %(status)s; this needs a game that is %(needed)s.")
        % {"status": _status_word(game_status), "needed": _status_word(needed)},
        game_status=game_status,
    )


def too_many_bot_games(limit: int) -> ServiceError:
    """A game of AI seats only, asked for by a user who has ``limit`` unfinished already
    (a quota on what the user holds now, not a rate: 409, as for webhooks and devices)."""
    if limit == 0:
        return ServiceError(
            Code.TOO_MANY_BOT_GAMES, _("This service does not host games played by AI seats only.")
        )
    return ServiceError(
        Code.TOO_MANY_BOT_GAMES,
        ngettext(
            "You have %(limit)d unfinished game played by AI seats only, the most allowed; "
            "cancel it or wait for it to finish.",
            "You have %(limit)d unfinished games played by AI seats only, the most allowed; "
            "cancel one or wait for one to finish.",
            limit,
        )
        % {"limit": limit},
    )


def board_not_found(board: str) -> ServiceError:
    """A board named in the path that does not exist (the resource is missing: 404)."""
    return ServiceError(Code.BOARD_NOT_FOUND, _("No board %(board)r.") % {"board": board})


def unknown_board(board: str) -> ServiceError:
    """A board named in a body or query field that does not exist (bad input: 400), with
    the code the engine gives the same mistake."""
    return ServiceError(ErrorCode.UNKNOWN_BOARD, _("Unknown board %(board)r.") % {"board": board})


class DeadlinePassed(Exception):
    """The locked game's deadline has passed: it must be settled before the command can
    run, outside this transaction (settling may need a bot to think)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(game_id)
        self.game_id = game_id
