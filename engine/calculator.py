"""Score calculator: final scores for any position given as plain JSON.

The input names a board and, in seat order, each player's routes, stations and tickets::

    {"board": "europe",
     "players": [{"routes": ["paris-zurich"], "stations": ["Wien"],
                  "tickets": [["Paris", "Wien", 8], "berlin-roma"]}]}

Route ids, city names and printed ticket ids are matched as the board does it: case and
accents do not matter, and city aliases are accepted. ``options`` may choose the board's game
options (Big Cities' ``bonus``). A ticket is a printed ticket's id (a
country ticket's id scores all its destinations) or ``[city, city, points]`` for any pair of
cities; on a board with neighbouring countries either end may be a country, joined at any of
its border points. ``forfeited`` (false by default) may mark
a player who left the game.

A position need not be finished, but it must be one a game could reach: ``parse_position``
checks everything and raises one ``PositionError`` naming every problem it found, each
with a stable code and the field at fault (``players[1].routes[3]``). ``score`` returns
``score_position``'s sheet unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from .board import BOARD_IDS, Board, Place, Ticket, check_options, fold_name, load_board
from .errors import ErrorCode, PositionError, PositionProblem, SetupError
from .scoring import PlayerPosition, TicketSpec, score_position
from .texts import Text, as_text, gettext_noop, ngettext

TOP_KEYS = frozenset({"board", "options", "players"})
PLAYER_KEYS = frozenset({"routes", "stations", "tickets", "forfeited"})
# Beyond these sizes a list is not looked at item by item: no game gets near them.
MAX_TICKETS = 100
MAX_NAME_LENGTH = 100


@dataclass
class _Check:
    """Problems found so far, in the order of the input."""

    problems: list[PositionProblem] = field(default_factory=list)

    def add(self, where: str, code: ErrorCode, message: str | Text) -> None:
        self.problems.append(PositionProblem(where, code, as_text(message)))


# What is wrong with a list of a player's routes, stations or tickets: not a list, or longer
# than any position has (``count`` items, at most ``limit``).
_LISTS: dict[str, tuple[Text, Text]] = {
    "routes": (
        gettext_noop("Must be a list of route ids."),
        gettext_noop("%(count)d route ids: no position has more than %(limit)d."),
    ),
    "stations": (
        gettext_noop("Must be a list of city names."),
        gettext_noop("%(count)d city names: no position has more than %(limit)d."),
    ),
    "tickets": (
        gettext_noop("Must be a list of tickets."),
        gettext_noop("%(count)d tickets: no position has more than %(limit)d."),
    ),
}


def _show(value: object) -> str:
    """A value for a message, cut short so that a huge input is not echoed back."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_name(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and 0 < len(value) <= MAX_NAME_LENGTH


def parse_position(
    data: object, default_board: str | None = None
) -> tuple[Board, list[PlayerPosition]]:
    """The board and each seat's position, or ``PositionError`` listing every problem."""
    check = _Check()
    if not isinstance(data, Mapping):
        check.add(
            "", ErrorCode.BAD_SHAPE, gettext_noop("A position is a JSON object with 'players'.")
        )
        raise PositionError(check.problems)
    for key in sorted(set(map(str, data)) - TOP_KEYS):
        check.add(
            key,
            ErrorCode.BAD_SHAPE,
            gettext_noop("Unknown key %(key)s: expected board, options, players.", key=_show(key)),
        )

    board = _board(data.get("board", default_board), check)
    if board is not None and "options" in data:
        board = _with_options(board, data["options"], check)
    players = data.get("players")
    if not isinstance(players, list):
        check.add(
            "players", ErrorCode.BAD_SHAPE, gettext_noop("'players' must be a list, in seat order.")
        )
        raise PositionError(check.problems)
    if board is None:
        raise PositionError(check.problems)

    rules = board.rules
    if not rules.min_players <= len(players) <= rules.max_players:
        check.add(
            "players",
            ErrorCode.BAD_PLAYER_COUNT,
            ngettext(
                "%(players)d player: the %(board)s board takes %(low)d to %(high)d.",
                "%(players)d players: the %(board)s board takes %(low)d to %(high)d.",
                len(players),
                players=len(players),
                board=board.name,
                low=rules.min_players,
                high=rules.max_players,
            ),
        )
    parser = _PositionParser(board, len(players), check)
    positions = [parser.player(seat, p) for seat, p in enumerate(players)]
    if check.problems:
        raise PositionError(check.problems)
    return board, positions


def score(data: object, default_board: str | None = None) -> dict[str, Any]:
    """``score_position``'s sheet for a position given as JSON (see the module docstring)."""
    board, positions = parse_position(data, default_board)
    return score_position(board, positions)


def _with_options(board: Board, options: object, check: _Check) -> Board | None:
    """The board with the position's game options (such as Big Cities' bonus)."""
    if not isinstance(options, Mapping):
        check.add(
            "options",
            ErrorCode.BAD_SHAPE,
            gettext_noop("'options' is an object of option: value."),
        )
        return None
    try:
        return board.with_options(check_options(board, options))
    except SetupError as exc:
        check.add(f"options.{exc.context.get('option', '')}", ErrorCode.BAD_OPTION, exc.text)
        return None


def _board(board_id: object, check: _Check) -> Board | None:
    if board_id is None:
        check.add("board", ErrorCode.BAD_SHAPE, gettext_noop("Name the board, e.g. 'europe'."))
        return None
    if not isinstance(board_id, str) or board_id not in BOARD_IDS:
        check.add(
            "board",
            ErrorCode.UNKNOWN_BOARD,
            gettext_noop(
                "No board %(board)s; known boards: %(boards)s.",
                board=_show(board_id),
                boards=", ".join(BOARD_IDS),
            ),
        )
        return None
    return load_board(board_id)


class _PositionParser:
    """Reads one player at a time, remembering what earlier seats hold."""

    def __init__(self, board: Board, n_players: int, check: _Check) -> None:
        self.board = board
        self.check = check
        self.doubles_usable = board.rules.doubles_usable(n_players)
        self.route_holder: dict[int, tuple[int, str]] = {}  # route -> (seat, field)
        self.station_holder: dict[int, tuple[int, str]] = {}  # city -> (seat, field)
        self.tickets_by_id: dict[str, Ticket] = {fold_name(t.id): t for t in board.tickets}

    def player(self, seat: int, data: object) -> PlayerPosition:
        where = f"players[{seat}]"
        if not isinstance(data, Mapping):
            self.check.add(
                where,
                ErrorCode.BAD_SHAPE,
                gettext_noop("A player is an object: routes, stations, tickets."),
            )
            return PlayerPosition((), (), ())
        for key in sorted(set(map(str, data)) - PLAYER_KEYS):
            self.check.add(
                f"{where}.{key}",
                ErrorCode.BAD_SHAPE,
                gettext_noop(
                    "Unknown key %(key)s: expected routes, stations, tickets, forfeited.",
                    key=_show(key),
                ),
            )
        forfeited = data.get("forfeited", False)
        if not isinstance(forfeited, bool):
            self.check.add(
                f"{where}.forfeited", ErrorCode.BAD_SHAPE, gettext_noop("Must be true or false.")
            )
            forfeited = False
        return PlayerPosition(
            routes=self._routes(seat, where, data.get("routes", [])),
            stations=self._stations(seat, where, data.get("stations", [])),
            tickets=self._tickets(where, data.get("tickets", [])),
            forfeited=forfeited,
        )

    def _list(self, where: str, value: object, limit: int, what: str) -> list[object] | None:
        """``value`` if it is a list of at most ``limit`` items; ``what`` says of what (a key
        of ``_LISTS``)."""
        not_list, too_long = _LISTS[what]
        if not isinstance(value, list):
            self.check.add(where, ErrorCode.BAD_SHAPE, not_list)
            return None
        if len(value) > limit:
            self.check.add(
                where,
                ErrorCode.BAD_SHAPE,
                Text(too_long.template, {"count": len(value), "limit": limit}),
            )
            return None
        return value

    def _routes(self, seat: int, where: str, value: object) -> tuple[int, ...]:
        where = f"{where}.routes"
        items = self._list(where, value, len(self.board.routes), "routes")
        if items is None:
            return ()
        board, check = self.board, self.check
        held: list[int] = []
        for j, item in enumerate(items):
            at = f"{where}[{j}]"
            route = board.route(item) if _is_name(item) else None
            if route is None:
                if isinstance(item, str):
                    check.add(
                        at,
                        ErrorCode.UNKNOWN_ROUTE,
                        gettext_noop("No route %(route)s on this board.", route=_show(item)),
                    )
                else:
                    check.add(
                        at,
                        ErrorCode.BAD_SHAPE,
                        gettext_noop("A route is given by its id, a string."),
                    )
                continue
            if route.index in self.route_holder:
                other, other_at = self.route_holder[route.index]
                held_by = (
                    gettext_noop("%(route)s is already held by this player (%(at)s).")
                    if other == seat
                    else gettext_noop("%(route)s is already held by seat %(seat)d (%(at)s).")
                )
                check.add(
                    at,
                    ErrorCode.ROUTE_HELD_TWICE,
                    Text(held_by.template, {"route": route.id, "seat": other, "at": other_at}),
                )
                continue
            for sibling in board.siblings[route.index]:
                if sibling not in self.route_holder:
                    continue
                other, other_at = self.route_holder[sibling]
                if other == seat:
                    check.add(
                        at,
                        ErrorCode.DOUBLE_ROUTE_BOTH_TRACKS,
                        gettext_noop(
                            "%(route)s: this player already holds the other track, "
                            "%(other)s (%(at)s).",
                            route=route.id,
                            other=board.routes[sibling].id,
                            at=other_at,
                        ),
                    )
                elif not self.doubles_usable:
                    check.add(
                        at,
                        ErrorCode.DOUBLE_ROUTE_CLOSED,
                        gettext_noop(
                            "%(route)s: with fewer than %(players)d players only one track of "
                            "a double route is used, and seat %(seat)d holds %(other)s (%(at)s).",
                            route=route.id,
                            players=board.rules.double_routes_min_players,
                            seat=other,
                            other=board.routes[sibling].id,
                            at=other_at,
                        ),
                    )
            self.route_holder[route.index] = (seat, at)
            held.append(route.index)
        trains = sum(board.routes[i].length for i in held)
        if trains > board.rules.trains_per_player:
            check.add(
                where,
                ErrorCode.TOO_MANY_TRAINS,
                gettext_noop(
                    "These routes take %(trains)d trains; a player has %(limit)d.",
                    trains=trains,
                    limit=board.rules.trains_per_player,
                ),
            )
        return tuple(held)

    def _stations(self, seat: int, where: str, value: object) -> tuple[int, ...]:
        where = f"{where}.stations"
        items = self._list(where, value, len(self.board.cities), "stations")
        if items is None:
            return ()
        check = self.check
        limit = self.board.rules.stations_per_player
        if len(items) > limit:
            check.add(
                where,
                ErrorCode.TOO_MANY_STATIONS,
                ngettext(
                    "%(count)d station; a player has %(limit)d.",
                    "%(count)d stations; a player has %(limit)d.",
                    len(items),
                    count=len(items),
                    limit=limit,
                ),
            )
        cities: list[int] = []
        for j, item in enumerate(items):
            at = f"{where}[{j}]"
            city = self._city(at, item)
            if city is None:
                continue
            if city in self.station_holder:
                other, other_at = self.station_holder[city]
                has = (
                    gettext_noop("%(city)s already has a station of this player (%(at)s).")
                    if other == seat
                    else gettext_noop("%(city)s already has a station of seat %(seat)d (%(at)s).")
                )
                values = {"city": self.board.cities[city].name, "seat": other, "at": other_at}
                check.add(at, ErrorCode.STATION_CITY_TAKEN, Text(has.template, values))
                continue
            self.station_holder[city] = (seat, at)
            cities.append(city)
        return tuple(cities)

    def _city(self, at: str, item: object) -> int | None:
        city = self.board.city(item) if _is_name(item) else None
        if city is not None:
            return city.index
        if isinstance(item, str):
            self.check.add(
                at,
                ErrorCode.UNKNOWN_CITY,
                gettext_noop("No city %(city)s on this board.", city=_show(item)),
            )
        else:
            self.check.add(
                at, ErrorCode.BAD_SHAPE, gettext_noop("A city is given by its name, a string.")
            )
        return None

    def _tickets(self, where: str, value: object) -> tuple[TicketSpec, ...]:
        where = f"{where}.tickets"
        items = self._list(where, value, MAX_TICKETS, "tickets")
        if items is None:
            return ()
        tickets = (self._ticket(f"{where}[{j}]", item) for j, item in enumerate(items))
        return tuple(t for t in tickets if t is not None)

    def _ticket(self, at: str, item: object) -> TicketSpec | None:
        check = self.check
        if isinstance(item, str):
            printed = self._printed(item) if _is_name(item) else None
            if printed is None:
                check.add(
                    at,
                    ErrorCode.UNKNOWN_TICKET,
                    gettext_noop("No printed ticket %(ticket)s.", ticket=_show(item)),
                )
                return None
            return TicketSpec.of(printed)
        if not isinstance(item, list) or len(item) != 3:
            check.add(
                at,
                ErrorCode.BAD_SHAPE,
                gettext_noop("A ticket is a printed ticket's id or [city, city, points]."),
            )
            return None
        a, b = self._place(f"{at}[0]", item[0]), self._place(f"{at}[1]", item[1])
        points = item[2]
        good = True
        if isinstance(points, bool) or not isinstance(points, int) or points <= 0:
            check.add(
                f"{at}[2]",
                ErrorCode.BAD_TICKET,
                gettext_noop(
                    "Ticket points must be a positive whole number, not %(points)s.",
                    points=_show(points),
                ),
            )
            good = False
        if a is not None and b is not None and set(a.nodes) & set(b.nodes):
            check.add(
                at, ErrorCode.BAD_TICKET, gettext_noop("A ticket joins two different cities.")
            )
            good = False
        if a is None or b is None or not good:
            return None
        if len(a.nodes) == len(b.nodes) == 1:
            return TicketSpec(a.nodes[0], b.nodes[0], points)
        # A country at either end: any of its border points will do.
        return TicketSpec(
            a.nodes[0], b.nodes[0], points, None, ((a.nodes, b.nodes, points, b.name),), a.name
        )

    def _place(self, at: str, item: object) -> Place | None:
        """A ticket end: a city, or on a board with neighbouring countries, a country."""
        place = self.board.place(item) if _is_name(item) else None
        if place is not None:
            return place
        if isinstance(item, str):
            self.check.add(
                at,
                ErrorCode.UNKNOWN_CITY,
                gettext_noop("No city or country %(place)s on this board.", place=_show(item)),
            )
        else:
            self.check.add(
                at, ErrorCode.BAD_SHAPE, gettext_noop("A city is given by its name, a string.")
            )
        return None

    def _printed(self, ticket_id: str) -> Ticket | None:
        """A printed ticket by id, ignoring case and accents, in either city order."""
        key = fold_name(ticket_id)
        found = self.tickets_by_id.get(key)
        if found is None and key.count("-") == 1:
            first, second = key.split("-")
            found = self.tickets_by_id.get(f"{second}-{first}")
        return found
