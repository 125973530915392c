"""What a game state holds: every field, copying, simple queries and the JSON form.

The state holds everything, hidden parts included (deck order, hands, tickets, the seed).
Clients never get it: they get ``views.player_view``. ``GameData`` only stores and copies;
the rules that change a state (``cards``, ``turns``, ``moves``) and list its legal actions
(``legal``) take a ``GameData``, and ``state.GameState`` adds them as methods.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

from .board import Board, load_board
from .errors import ErrorCode, SetupError
from .phases import CHOOSE_INITIAL_TICKETS, GAME_OVER, INITIAL_TICKETS
from .texts import gettext_noop

# Bumped whenever the engine's behaviour changes for the same seed and actions, so a stored
# game can tell which rules it was played under.
RULES_VERSION = 1


@dataclass(frozen=True, slots=True)
class Pending:
    """Who must decide next, and what kind of decision it is."""

    kind: str | None
    seats: tuple[int, ...]


@dataclass(slots=True)
class Tunnel:
    """A tunnel claim waiting for the pay-or-decline decision."""

    route: int
    color: int  # card index paid with; LOCOMOTIVE when only locomotives were laid
    laid: list[int]  # counts per card kind
    revealed: list[int]  # card indices
    extra: int

    def copy(self) -> Tunnel:
        return Tunnel(self.route, self.color, list(self.laid), list(self.revealed), self.extra)


class GameData:
    """Mutable container of one playthrough's state (``state.GameState`` adds the rules)."""

    __slots__ = (
        "_board",
        "action_count",
        "current",
        "deck",
        "discard",
        "final_trigger",
        "final_turns_left",
        "first_player",
        "forfeited",
        "hands",
        "market",
        "n_players",
        "offers",
        "pending_kind",
        "phase",
        "removed_tickets",
        "result",
        "route_owner",
        "route_points",
        "seed",
        "shuffles",
        "skipped_in_row",
        "station_owner",
        "stations",
        "ticket_deck",
        "tickets",
        "trains",
        "tunnel",
        "turn_number",
        "waiting",
    )

    _board: Board
    action_count: int
    current: int
    deck: list[int]  # card indices; the top card is the last element
    discard: list[int]
    final_turns_left: int | None  # turns still to play once the end is triggered
    final_trigger: int | None  # seat whose turn triggered the last round
    first_player: int
    forfeited: list[bool]
    hands: list[list[int]]  # per seat, counts per card kind
    market: list[int | None]
    n_players: int
    offers: list[list[int]]  # per seat, ticket indices on offer (not yet kept)
    pending_kind: str | None
    phase: str
    removed_tickets: list[int]
    result: dict[str, Any] | None
    route_owner: list[int]  # per route, the seat holding it or -1
    route_points: list[int]
    seed: int
    shuffles: int
    skipped_in_row: int
    station_owner: list[int]  # per city, the seat with a station there or -1
    stations: list[list[int]]  # per seat, city indices in build order
    ticket_deck: list[int]  # the top ticket is the last element
    tickets: list[list[int]]  # per seat, kept ticket indices
    trains: list[int]
    tunnel: Tunnel | None
    turn_number: int
    waiting: list[int]  # seats still to make their initial ticket choice

    @property
    def board(self) -> Board:
        return self._board

    # ----------------------------------------------------------------- copying
    def copy(self) -> Self:
        cls = type(self)
        new = cls.__new__(cls)
        new._board = self._board
        new.action_count = self.action_count
        new.current = self.current
        new.deck = self.deck[:]
        new.discard = self.discard[:]
        new.final_turns_left = self.final_turns_left
        new.final_trigger = self.final_trigger
        new.first_player = self.first_player
        new.forfeited = self.forfeited[:]
        new.hands = [h[:] for h in self.hands]
        new.market = self.market[:]
        new.n_players = self.n_players
        new.offers = [o[:] for o in self.offers]
        new.pending_kind = self.pending_kind
        new.phase = self.phase
        new.removed_tickets = self.removed_tickets[:]
        new.result = self.result
        new.route_owner = self.route_owner[:]
        new.route_points = self.route_points[:]
        new.seed = self.seed
        new.shuffles = self.shuffles
        new.skipped_in_row = self.skipped_in_row
        new.station_owner = self.station_owner[:]
        new.stations = [s[:] for s in self.stations]
        new.ticket_deck = self.ticket_deck[:]
        new.tickets = [t[:] for t in self.tickets]
        new.trains = self.trains[:]
        new.tunnel = self.tunnel.copy() if self.tunnel is not None else None
        new.turn_number = self.turn_number
        new.waiting = self.waiting[:]
        return new

    # ----------------------------------------------------------------- queries
    @property
    def is_over(self) -> bool:
        return self.phase == GAME_OVER

    @property
    def pending(self) -> Pending:
        if self.phase == GAME_OVER:
            return Pending(None, ())
        if self.phase == INITIAL_TICKETS:
            return Pending(CHOOSE_INITIAL_TICKETS, tuple(self.waiting))
        return Pending(self.pending_kind, (self.current,))

    def routes_of(self, seat: int) -> list[int]:
        return [i for i, owner in enumerate(self.route_owner) if owner == seat]

    def stations_left(self, seat: int) -> int:
        return self._board.rules.stations_per_player - len(self.stations[seat])

    def card_total(self) -> int:
        """Every train card, wherever it is: the invariant is that this never changes."""
        market = self.market
        total = len(self.deck) + len(self.discard) + len(market) - market.count(None)
        total += sum(map(sum, self.hands))
        if self.tunnel is not None:
            total += sum(self.tunnel.laid) + len(self.tunnel.revealed)
        return total

    def ticket_total(self) -> int:
        return (
            len(self.ticket_deck)
            + len(self.removed_tickets)
            + sum(map(len, self.tickets))
            + sum(map(len, self.offers))
        )

    # ------------------------------------------------------------------- JSON
    def to_json(self) -> dict[str, Any]:
        """The complete state (hidden parts included) as plain JSON. Never send it to a client.

        The lists are shared with the state, not copied: serialise the result (or copy it)
        before the state changes.
        """
        t = self.tunnel
        out = {
            "rules_version": RULES_VERSION,
            "board": self._board.id,
            "seed": self.seed,
            "shuffles": self.shuffles,
            "n_players": self.n_players,
            "phase": self.phase,
            "pending_kind": self.pending_kind,
            "current": self.current,
            "first_player": self.first_player,
            "turn_number": self.turn_number,
            "action_count": self.action_count,
            "waiting": self.waiting,
            "deck": self.deck,
            "discard": self.discard,
            "market": self.market,
            "hands": self.hands,
            "trains": self.trains,
            "route_owner": self.route_owner,
            "route_points": self.route_points,
            "station_owner": self.station_owner,
            "stations": self.stations,
            "ticket_deck": self.ticket_deck,
            "tickets": self.tickets,
            "offers": self.offers,
            "removed_tickets": self.removed_tickets,
            "tunnel": None
            if t is None
            else {
                "route": t.route,
                "color": t.color,
                "laid": t.laid,
                "revealed": t.revealed,
                "extra": t.extra,
            },
            "final_turns_left": self.final_turns_left,
            "final_trigger": self.final_trigger,
            "forfeited": self.forfeited,
            "skipped_in_row": self.skipped_in_row,
            "result": self.result,
        }
        if self._board.options:
            # Only boards with game options store them, so older states read the same.
            out["board_options"] = self._board.options
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        if data.get("rules_version") != RULES_VERSION:
            raise SetupError(
                ErrorCode.BAD_SETUP,
                gettext_noop(
                    "State was saved under rules version %(saved)s, this engine plays version "
                    "%(version)s.",
                    saved=data.get("rules_version"),
                    version=RULES_VERSION,
                ),
            )
        s = cls.__new__(cls)
        s._board = load_board(data["board"], data.get("board_options"))
        for name in GameData.__slots__:
            if name in ("_board", "tunnel"):
                continue
            value = data[name]
            if isinstance(value, list):
                value = [v[:] if isinstance(v, list) else v for v in value]
            setattr(s, name, value)
        t = data["tunnel"]
        s.tunnel = (
            None
            if t is None
            else Tunnel(t["route"], t["color"], list(t["laid"]), list(t["revealed"]), t["extra"])
        )
        return s
