"""Every problem code the API can answer, declared once: its HTTP status, what it means, and
the members it adds to the problem body.

A raise site names its code and says what went wrong for a person; the status comes from
here::

    raise ServiceError(Code.GAME_NOT_FOUND, "No such game.")

The engine's codes are its own ``ErrorCode``; ``ENGINE`` in
``ttr_service.http.declarations`` gives each its status and meaning. Generated from these
declarations: the schema's ``Problem.code`` enum and its optional members, the problem
responses each operation lists (``ttr_service.http.schema.problems``), and the tables of
docs/api.md (``make schema``).
"""

from __future__ import annotations

from enum import Enum

from engine import ErrorCode
from ttr_service.http.declarations import ENGINE, MEMBERS, Declared


class Code(Enum):
    """The service's own codes (the engine's are ``engine.ErrorCode``)."""

    # Any request: DRF's own exceptions, the error handlers and the middleware.
    VALIDATION_ERROR = Declared(400, "The request has invalid fields; `errors` lists each one.")
    MALFORMED_JSON = Declared(400, "The request body is not valid JSON.")
    UNKNOWN_FIELD = Declared(
        400,
        "A field of the request body that the operation does not define (an `errors` row "
        "of `VALIDATION_ERROR`).",
        row=True,
    )
    WRONG_TYPE = Declared(
        400,
        "A field of the request body, or a query parameter, whose value is not of its JSON "
        "type (a number for a boolean, a string for an integer, null where null is not "
        "allowed; an `errors` row of `VALIDATION_ERROR`).",
        row=True,
    )
    AUTHENTICATION_FAILED = Declared(401, "The token is unknown, expired or revoked.")
    NOT_AUTHENTICATED = Declared(401, "The operation needs a token and the request sent none.")
    PERMISSION_DENIED = Declared(403, "The caller may not do this.")
    NOT_FOUND = Declared(
        404,
        "No such resource: an unknown path, a page past the end, or a token that is not "
        "the caller's.",
    )
    METHOD_NOT_ALLOWED = Declared(405, "The path does not take this HTTP method.")
    NOT_ACCEPTABLE = Declared(
        406, "The API cannot answer in a media type the Accept header allows."
    )
    UNSUPPORTED_MEDIA_TYPE = Declared(
        415,
        "The request body is in a media type the API does not read (send application/json).",
    )
    THROTTLED = Declared(
        429, "Too many requests; wait for the seconds in Retry-After.", retry_after=True
    )
    REQUEST_TOO_LARGE = Declared(
        413, "The Content-Length is over the body size limit; the body was not read."
    )
    BODY_TOO_LARGE = Declared(
        413,
        "A body sent without Content-Length grew past the size limit; reading stopped there.",
    )
    DATABASE_UNAVAILABLE = Declared(
        503,
        "The database connection failed; nothing was applied, so a retry is safe.",
        retry_after=True,
    )
    SERVER_ERROR = Declared(500, "The server failed; the request was not applied.")

    # Accounts: registration, login, tokens and stream tickets.
    USERNAME_TAKEN = Declared(409, "Another account has this username, ignoring case.")
    INVALID_CREDENTIALS = Declared(401, "The username or the password is wrong.")
    ACCOUNT_LOCKED = Declared(
        429,
        "Too many failed logins for this username from this address; wait for the seconds "
        "in Retry-After.",
        retry_after=True,
    )
    STREAM_TICKET_EXPIRED = Declared(
        401, "The stream ticket is older than it may be; ask for a new one."
    )
    STREAM_TICKET_INVALID = Declared(
        401,
        "The `ticket` is not a stream ticket of this service, or the token it was made with "
        "is revoked or expired.",
    )
    TOKEN_IN_URL = Declared(
        401,
        "An API token was sent in the URL; send it in Authorization, or open the stream "
        "with a stream ticket.",
    )

    # Games: boards, the lobby, play, deadlines and vacations.
    GAME_NOT_FOUND = Declared(404, "No such game.")
    BOARD_NOT_FOUND = Declared(404, "No board by the name in the path.")
    NOT_A_PLAYER = Declared(403, "The caller holds no seat in this game.")
    NOT_CREATOR = Declared(403, "Only the game's creator may do this.")
    GAME_NOT_LOBBY = Declared(
        409, "The game has left the lobby; `game_status` says where it is.", ("game_status",)
    )
    GAME_NOT_ACTIVE = Declared(
        409, "The game is not being played; `game_status` says where it is.", ("game_status",)
    )
    GAME_NOT_FINISHED = Declared(
        409, "The game is not over yet; `game_status` says where it is.", ("game_status",)
    )
    BAD_SCOPE = Declared(400, "The `scope` query parameter is neither `mine` nor `open`.")
    BAD_STATUS = Declared(400, "The `status` query parameter is not a game status.")
    BAD_CURSOR = Declared(
        400,
        "A paging parameter (`after`, `limit` or `cursor`) is out of range or not one this "
        "list gave out.",
    )
    BAD_SEAT_COUNT = Declared(400, "More or fewer seats than the board is played with.")
    BAD_SEATS = Declared(
        400,
        "The seats are not a valid set (two creator seats, a self-invitation, an invitee "
        "listed twice).",
    )
    BAD_TIME_LIMIT = Declared(400, "The time limit per decision is outside 1 minute to 14 days.")
    BAD_FIRST_SEAT = Declared(400, "The first seat is not one of the game's seats.")
    UNKNOWN_USER = Declared(400, "No user by the invited username.")
    UNKNOWN_AI_LEVEL = Declared(400, "No AI level by that name.")
    TOO_MANY_BOT_GAMES = Declared(
        409,
        "The caller has as many unfinished games of AI seats only as allowed (none, where "
        "the service hosts no such games).",
    )
    ALREADY_SEATED = Declared(409, "The caller already has a seat or an invitation in this game.")
    NO_OPEN_SEAT = Declared(409, "No open seat is left to take.")
    NO_INVITATION = Declared(409, "The caller has no open invitation to this game.")
    NOT_ENOUGH_PLAYERS = Declared(409, "Too few seats are taken to start the game.")
    BAD_BODY = Declared(400, "The request body is not a JSON object.")
    BAD_IF_MATCH = Declared(400, "If-Match is neither a game version nor a game ETag.")
    BAD_VERSION = Declared(400, "The `version` field is not a whole number.")
    VERSION_REQUIRED = Declared(
        428, "A move must state the game version, in If-Match or `version`."
    )
    VERSION_MISMATCH = Declared(
        412,
        "The game changed since the stated version; `current_version` has the version now. "
        "Nothing was applied.",
        ("current_version",),
    )
    CONCURRENT_UPDATE = Declared(409, "The game changed while the request ran; retry it.")
    BAD_IDEMPOTENCY_KEY = Declared(
        400,
        "The Idempotency-Key header is too long, empty, or has spaces or control characters.",
    )
    IDEMPOTENCY_KEY_IN_FLIGHT = Declared(
        409,
        "A request with this Idempotency-Key is still being processed; retry after "
        "Retry-After to get its answer.",
        retry_after=True,
    )
    IDEMPOTENCY_KEY_REUSED = Declared(422, "This Idempotency-Key was used for a different request.")
    NO_DEADLINE = Declared(409, "The game has no time limit, so there is no deadline to extend.")
    OWN_CLOCK = Declared(409, "A player may not give themselves extra time; opponents give it.")
    BAD_EXTRA_TIME = Declared(400, "Extra time is outside 1 minute to 7 days.")
    SEAT_NOT_TAKEN_OVER = Declared(
        409, "The AI is not playing the caller's seat, so there is nothing to reclaim."
    )
    BAD_VACATION = Declared(400, "A vacation must last at least one day.")
    ALREADY_ON_VACATION = Declared(409, "The caller is on vacation already.")
    VACATION_ALLOWANCE_USED = Declared(409, "The vacation is longer than the days left this year.")
    VACATION_NOT_FOUND = Declared(404, "The caller has no vacation with this id.")
    VACATION_OVER = Declared(409, "That vacation is over already.")

    # Notifications: the inbox, webhooks and push devices.
    NOTIFICATION_NOT_FOUND = Declared(404, "The caller has no notification with this id.")
    WEBHOOK_NOT_FOUND = Declared(404, "The caller has no webhook with this id.")
    DELIVERY_NOT_FOUND = Declared(404, "The webhook has no delivery with this id.")
    DEVICE_NOT_FOUND = Declared(404, "The caller has no push device with this id.")
    WEBHOOK_LIMIT_REACHED = Declared(409, "The caller has as many webhooks as a user may have.")
    DEVICE_LIMIT_REACHED = Declared(
        409, "The caller has as many active push devices as a user may have."
    )
    WEBHOOK_INACTIVE = Declared(409, "The webhook is switched off; activate it to redeliver.")
    WEBHOOK_URL_PRIVATE = Declared(
        400,
        "The webhook URL's host is, or resolves to, a private, loopback, link-local or "
        "otherwise non-public address.",
    )

    # Friends and blocks (a refusal a block causes never tells the blocked player so).
    NAMED_YOURSELF = Declared(
        400, "The username is the caller's own: a player can't befriend or block themselves."
    )
    FRIEND_REQUEST_NOT_FOUND = Declared(
        404, "The caller has no such friend request (sent to them, or sent by them to cancel)."
    )
    FRIEND_NOT_FOUND = Declared(404, "The player is not one of the caller's friends.")
    BLOCK_NOT_FOUND = Declared(404, "The caller does not block this player.")
    ALREADY_FRIENDS = Declared(409, "The caller and the player are friends already.")
    FRIEND_REQUEST_PENDING = Declared(409, "The caller's friend request to the player is pending.")
    FRIEND_REQUEST_LIMIT_REACHED = Declared(
        409, "The caller has as many friend requests pending as a user may send."
    )
    FRIEND_LIMIT_REACHED = Declared(
        409, "The caller, or the other player, has as many friends as a user may have."
    )
    PLAYER_BLOCKED = Declared(409, "The caller blocks this player (or a player in this game).")
    NOT_INVITABLE = Declared(409, "The player can't be invited by the caller.")
    SEAT_REFUSED = Declared(409, "The caller can't take a seat in this game.")

    # Accounts: e-mail, passwords, providers
    EMAIL_TAKEN = Declared(409, "Another account has verified this e-mail address.")
    EMAIL_NOT_PENDING = Declared(409, "No e-mail address of the account awaits its code.")
    EMAIL_CODE_INVALID = Declared(400, "Not the code last sent; `detail` says the tries left.")
    EMAIL_CODE_EXPIRED = Declared(409, "The code expired or was tried too often; ask again.")
    EMAIL_THROTTLED = Declared(
        429, "Too many messages asked for; wait for the seconds in Retry-After.", retry_after=True
    )
    CURRENT_PASSWORD_WRONG = Declared(403, "The current password given is not the account's.")
    PASSWORD_NOT_SET = Declared(409, "The account has no password; set one by a reset.")
    RESET_TOKEN_INVALID = Declared(400, "The reset secret is wrong, used or expired.")
    PROVIDER_NOT_CONFIGURED = Declared(404, "The service takes no sign-in of this provider.")
    PROVIDER_TOKEN_INVALID = Declared(401, "The provider's ID token is refused; `detail` says why.")
    PROVIDER_UNAVAILABLE = Declared(503, "The provider's keys could not be read.", retry_after=True)
    PROVIDER_ALREADY_LINKED = Declared(409, "The identity, or one of its provider, is linked.")
    LAST_SIGN_IN_METHOD = Declared(409, "Unlinking it would leave the account no sign-in.")

    # Ratings: statistics and the leaderboard.
    PLAYER_NOT_FOUND = Declared(404, "No player by that username.")

    # Deleting an account and exporting its data.
    DELETION_NOT_CONFIRMED = Declared(
        400, "Send the account's `password` (or, without one, `confirm` of `DELETE`)."
    )
    EXPORT_PENDING = Declared(409, "An export of the account is being built; wait for it.")
    EXPORT_THROTTLED = Declared(
        429,
        "An export was asked for recently; wait for the seconds in Retry-After.",
        retry_after=True,
    )
    EXPORT_NOT_READY = Declared(409, "The export is being built, or it failed.")
    EXPORT_GONE = Declared(410, "The export was downloaded already, or it expired.")
    # Matchmaking: quick match (seeks) and rematches.
    SEEK_NOT_FOUND = Declared(404, "No seek of the caller's has this id.")
    SEEK_EXISTS = Declared(409, "The caller has a seek waiting at this pace already.")
    SEEK_MATCHED = Declared(409, "The seek found its game already; it can't be cancelled.")
    REMATCH_DECLINED = Declared(409, "A player declined the rematch of this game.")
    REMATCH_MADE = Declared(409, "The rematch of this game is made already.")
    # Chat at the table.
    CHAT_ROOM_CLOSED = Declared(
        403,
        "Players read the spectators' room of their game only once it is over, and never "
        "write in it.",
    )
    CHAT_SUSPENDED = Declared(403, "A moderator suspended the caller's chat.")
    CHAT_MESSAGE_NOT_FOUND = Declared(404, "No message the caller may read has this id.")
    CHAT_MUTE_NOT_FOUND = Declared(404, "The caller does not mute this player.")
    CHAT_ALREADY_REPORTED = Declared(409, "The caller reported this message already.")

    @property
    def declared(self) -> Declared:
        value: Declared = self.value
        return value

    @property
    def status(self) -> int:
        return self.declared.status

    def __str__(self) -> str:
        return self.name


ProblemCode = Code | ErrorCode


def declared(code: ProblemCode) -> Declared:
    """The declaration of a code, the service's or the engine's."""
    return code.declared if isinstance(code, Code) else ENGINE[code]


def every_code() -> dict[str, Declared]:
    """Every code by name, sorted by status and then as declared."""
    found: dict[str, Declared] = {code.name: code.declared for code in Code}
    for engine_code, declaration in ENGINE.items():
        if engine_code.value in found:
            raise ValueError(f"{engine_code} is declared twice")
        found[engine_code.value] = declaration
    return dict(sorted(found.items(), key=lambda item: item[1].status))


def _check() -> None:
    missing = set(ErrorCode) - set(ENGINE)
    if missing:
        raise ValueError(f"engine codes without a declaration: {sorted(missing)}")
    for name, declaration in every_code().items():
        unknown = set(declaration.members) - set(MEMBERS)
        if unknown:
            raise ValueError(f"{name} carries undeclared members {sorted(unknown)}")


_check()


def engine_codes(status: int) -> tuple[ErrorCode, ...]:
    """The engine's codes answered with ``status``, as declared."""
    return tuple(code for code, declaration in ENGINE.items() if declaration.status == status)
