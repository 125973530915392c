"""Every ``code`` a problem body can carry, each with what it means.

The schema lists these as the enum of ``Problem.code``, and docs/api.md has a table of them
with their statuses. The service's own codes (this package's and the apps') are written
here, since this package may not import the apps; the engine's come from ``ErrorCode``.
tests/service/test_problem_codes.py fails when code anywhere in the project raises a code
that is missing here, or when the table in docs/api.md disagrees with this list.
"""

from __future__ import annotations

from engine import ErrorCode

# The service: DRF's own exceptions, the error handlers and the middleware.
_SERVICE = {
    "VALIDATION_ERROR": "The request has invalid fields; `errors` lists each one.",
    "MALFORMED_JSON": "The request body is not valid JSON.",
    "AUTHENTICATION_FAILED": "The token is unknown, expired or revoked.",
    "NOT_AUTHENTICATED": "The operation needs a token and the request sent none.",
    "PERMISSION_DENIED": "The caller may not do this.",
    "NOT_FOUND": "No such resource: an unknown path, a page past the end, or a token that "
    "is not the caller's.",
    "METHOD_NOT_ALLOWED": "The path does not take this HTTP method.",
    "NOT_ACCEPTABLE": "The API cannot answer in a media type the Accept header allows.",
    "UNSUPPORTED_MEDIA_TYPE": "The request body is in a media type the API does not read "
    "(send application/json).",
    "THROTTLED": "Too many requests; wait for the seconds in Retry-After.",
    "REQUEST_TOO_LARGE": "The Content-Length is over the body size limit; the body was not read.",
    "BODY_TOO_LARGE": "A body sent without Content-Length grew past the size limit; reading "
    "stopped there.",
    "UNKNOWN_FIELD": "A field of the request body that the operation does not define (an "
    "`errors` row of `VALIDATION_ERROR`).",
    "WRONG_TYPE": "A field of the request body, or a query parameter, whose value is not of "
    "its JSON type (a number for a boolean, a string for an integer, null where null is not "
    "allowed; an `errors` row of `VALIDATION_ERROR`).",
    "DATABASE_UNAVAILABLE": "The database connection failed; nothing was applied, so a retry "
    "is safe.",
    "SERVER_ERROR": "The server failed; the request was not applied.",
}

# accounts: registration, login and tokens.
_ACCOUNTS = {
    "USERNAME_TAKEN": "Another account has this username, ignoring case.",
    "INVALID_CREDENTIALS": "The username or the password is wrong.",
    "ACCOUNT_LOCKED": "Too many failed logins for this username from this address; wait for "
    "the seconds in Retry-After.",
    "STREAM_TICKET_EXPIRED": "The stream ticket is older than it may be; ask for a new one.",
    "STREAM_TICKET_INVALID": "The `ticket` is not a stream ticket of this service, or the "
    "token it was made with is revoked or expired.",
    "TOKEN_IN_URL": "An API token was sent in the URL; send it in Authorization, or open "
    "the stream with a stream ticket.",
}

# games: boards, the lobby, play, deadlines and vacations.
_GAMES = {
    "GAME_NOT_FOUND": "No such game.",
    "BOARD_NOT_FOUND": "No board by the name in the path.",
    "UNKNOWN_BOARD": "No board by the name in a body field or query parameter.",
    "NOT_A_PLAYER": "The caller holds no seat in this game.",
    "NOT_CREATOR": "Only the game's creator may do this.",
    "GAME_NOT_LOBBY": "The game has left the lobby; `game_status` says where it is.",
    "GAME_NOT_ACTIVE": "The game is not being played; `game_status` says where it is.",
    "GAME_NOT_FINISHED": "The game is not over yet; `game_status` says where it is.",
    "BAD_SCOPE": "The `scope` query parameter is neither `mine` nor `open`.",
    "BAD_STATUS": "The `status` query parameter is not a game status.",
    "BAD_CURSOR": "A paging parameter (`after`, `limit` or `cursor`) is out of range or not "
    "one this list gave out.",
    "BAD_OPTION": "An option the board does not have, or a value it does not offer.",
    "BAD_SEAT_COUNT": "More or fewer seats than the board is played with.",
    "BAD_SEATS": "The seats are not a valid set (two creator seats, a self-invitation, an "
    "invitee listed twice).",
    "BAD_TIME_LIMIT": "The time limit per decision is outside 1 minute to 14 days.",
    "BAD_FIRST_SEAT": "The first seat is not one of the game's seats.",
    "UNKNOWN_USER": "No user by the invited username.",
    "UNKNOWN_AI_LEVEL": "No AI level by that name.",
    "TOO_MANY_BOT_GAMES": "The caller has as many unfinished games of AI seats only as "
    "allowed (none, where the service hosts no such games).",
    "ALREADY_SEATED": "The caller already has a seat or an invitation in this game.",
    "NO_OPEN_SEAT": "No open seat is left to take.",
    "NO_INVITATION": "The caller has no open invitation to this game.",
    "NOT_ENOUGH_PLAYERS": "Too few seats are taken to start the game.",
    "BAD_BODY": "The request body is not a JSON object.",
    "BAD_IF_MATCH": "If-Match is neither a game version nor a game ETag.",
    "BAD_VERSION": "The `version` field is not a whole number.",
    "VERSION_REQUIRED": "A move must state the game version, in If-Match or `version`.",
    "VERSION_MISMATCH": "The game changed since the stated version; `current_version` has "
    "the version now. Nothing was applied.",
    "CONCURRENT_UPDATE": "The game changed while the request ran; retry it.",
    "BAD_IDEMPOTENCY_KEY": "The Idempotency-Key header is too long, empty, or has spaces or "
    "control characters.",
    "IDEMPOTENCY_KEY_IN_FLIGHT": "A request with this Idempotency-Key is still being "
    "processed; retry after Retry-After to get its answer.",
    "IDEMPOTENCY_KEY_REUSED": "This Idempotency-Key was used for a different request.",
    "NO_DEADLINE": "The game has no time limit, so there is no deadline to extend.",
    "OWN_CLOCK": "A player may not give themselves extra time; opponents give it.",
    "BAD_EXTRA_TIME": "Extra time is outside 1 minute to 7 days.",
    "SEAT_NOT_TAKEN_OVER": "The AI is not playing the caller's seat, so there is nothing to "
    "reclaim.",
    "BAD_VACATION": "A vacation must last at least one day.",
    "ALREADY_ON_VACATION": "The caller is on vacation already.",
    "VACATION_ALLOWANCE_USED": "The vacation is longer than the days left this year.",
    "VACATION_NOT_FOUND": "The caller has no vacation with this id.",
    "VACATION_OVER": "That vacation is over already.",
}

# notifications: the inbox, webhooks and push devices.
_NOTIFICATIONS = {
    "NOTIFICATION_NOT_FOUND": "The caller has no notification with this id.",
    "WEBHOOK_NOT_FOUND": "The caller has no webhook with this id.",
    "DELIVERY_NOT_FOUND": "The webhook has no delivery with this id.",
    "DEVICE_NOT_FOUND": "The caller has no push device with this id.",
    "WEBHOOK_LIMIT_REACHED": "The caller has as many webhooks as a user may have.",
    "DEVICE_LIMIT_REACHED": "The caller has as many active push devices as a user may have.",
    "WEBHOOK_INACTIVE": "The webhook is switched off; activate it to redeliver.",
    "WEBHOOK_URL_PRIVATE": "The webhook URL's host is, or resolves to, a private, loopback, "
    "link-local or otherwise non-public address.",
}

# ratings: statistics and the leaderboard.
_RATINGS = {
    "PLAYER_NOT_FOUND": "No player by that username.",
}

# The engine's codes, passed through unchanged: a move that does not fit the game (409),
# input that is no action at all (400), and the problems of a scored position.
_ENGINE: dict[ErrorCode, str] = {
    ErrorCode.GAME_OVER: "The game is over; no more moves.",
    ErrorCode.FORFEITED: "The seat has left the game and takes no more turns.",
    ErrorCode.NOT_YOUR_TURN: "Another seat must decide now.",
    ErrorCode.WRONG_PHASE: "The action does not fit the decision pending; `pending` names it.",
    ErrorCode.DECK_EMPTY: "No train cards are left to draw.",
    ErrorCode.EMPTY_SLOT: "That face-up slot holds no card.",
    ErrorCode.LOCOMOTIVE_NOT_ALLOWED: "A face-up locomotive may not be taken as the second "
    "card, or a locomotive may not pay here.",
    ErrorCode.ROUTE_TAKEN: "The route is claimed already; `owner` is the seat holding it.",
    ErrorCode.DOUBLE_ROUTE_CLOSED: "With 2 or 3 players only one track of a double route is "
    "used, and the other is taken.",
    ErrorCode.DOUBLE_ROUTE_OWNED: "The seat already holds the other track of this double route.",
    ErrorCode.NOT_ENOUGH_TRAINS: "The seat has too few trains left for this route.",
    ErrorCode.WRONG_COLOR: "The cards are not of the colour this route or payment needs.",
    ErrorCode.WRONG_CARD_COUNT: "The payment has the wrong number of cards.",
    ErrorCode.FERRY_NEEDS_LOCOMOTIVES: "A ferry needs locomotives among its cards.",
    ErrorCode.INSUFFICIENT_CARDS: "The seat does not hold the cards of this payment.",
    ErrorCode.STATIONS_DISABLED: "This board is played without stations.",
    ErrorCode.STATION_TAKEN: "The city has a station already; `owner` is its seat.",
    ErrorCode.NO_STATIONS_LEFT: "The seat has built all of its stations.",
    ErrorCode.NO_TICKETS_LEFT: "No destination tickets are left to draw.",
    ErrorCode.TICKET_NOT_OFFERED: "A kept ticket is not one of those offered.",
    ErrorCode.MUST_KEEP_TICKETS: "Too few tickets kept; `minimum` is the fewest allowed.",
    ErrorCode.BAD_ACTION: "The action is malformed (wrong shape or types).",
    ErrorCode.UNKNOWN_ACTION: "No action of this type.",
    ErrorCode.UNKNOWN_ROUTE: "No route by that id on this board.",
    ErrorCode.UNKNOWN_CITY: "No city by that name on this board.",
    ErrorCode.UNKNOWN_TICKET: "No ticket by that id on this board.",
    ErrorCode.UNKNOWN_COLOR: "No card colour by that name.",
    ErrorCode.BAD_SEAT: "The seat number is not one of the game's seats.",
    ErrorCode.BAD_SETUP: "The game cannot be set up as asked.",
    ErrorCode.ILLEGAL_POSITION: "The position given to the score calculator is not one a "
    "game could reach; `errors` has a row per problem.",
    ErrorCode.BAD_SHAPE: "In a scored position: wrong types or unknown keys.",
    ErrorCode.BAD_PLAYER_COUNT: "In a scored position: more or fewer players than the board "
    "is played with.",
    ErrorCode.BAD_TICKET: "In a scored position: a ticket that is not two different cities "
    "with positive whole points.",
    ErrorCode.ROUTE_HELD_TWICE: "In a scored position: a route held by two players.",
    ErrorCode.DOUBLE_ROUTE_BOTH_TRACKS: "In a scored position: one player on both tracks of "
    "a double route.",
    ErrorCode.TOO_MANY_TRAINS: "In a scored position: a player's routes use more trains than "
    "a player has.",
    ErrorCode.TOO_MANY_STATIONS: "In a scored position: more stations than a player has.",
    ErrorCode.STATION_CITY_TAKEN: "In a scored position: two stations in one city.",
}


def _merge(*groups: dict[str, str] | dict[ErrorCode, str]) -> dict[str, str]:
    merged: dict[str, str] = {}
    for group in groups:
        for code, meaning in group.items():
            if code in merged:
                raise ValueError(f"{code} is listed twice")
            merged[str(code)] = meaning
    return merged


PROBLEM_CODES = _merge(_SERVICE, _ACCOUNTS, _GAMES, _NOTIFICATIONS, _RATINGS, _ENGINE)
"""Code → what it means, for every code a problem body can carry."""

PROBLEM_CODE_CHOICES = sorted(PROBLEM_CODES.items())
"""The codes as serializer choices, in alphabetical order."""
