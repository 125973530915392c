"""One playthrough of a board: the full state, its setup and its JSON form.

The state holds everything, hidden parts included (deck order, hands, tickets, the seed).
Clients never get it: they get ``views.player_view``. The rules that change a state live in
``moves``; this module only stores and copies.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import rng
from .board import BOARD_IDS, Board, load_board
from .colors import LOCOMOTIVE, N_CARD_KINDS
from .errors import ErrorCode, SetupError

# Bumped whenever the engine's behaviour changes for the same seed and actions, so a stored
# game can tell which rules it was played under.
RULES_VERSION = 1

# Phases of a game.
INITIAL_TICKETS = "initial_tickets"
PLAYING = "playing"
GAME_OVER = "game_over"

# Kinds of pending decision.
CHOOSE_INITIAL_TICKETS = "choose_initial_tickets"
TURN_ACTION = "turn_action"
SECOND_CARD = "second_card"
TUNNEL_PAYMENT = "tunnel_payment"
KEEP_TICKETS = "keep_tickets"


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


class GameState:
    """Mutable container; ``GameState.apply`` returns a new state and leaves this one as it was."""

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
    def copy(self) -> GameState:
        new = GameState.__new__(GameState)
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
        total = len(self.deck) + len(self.discard) + sum(1 for c in self.market if c is not None)
        total += sum(sum(h) for h in self.hands)
        if self.tunnel is not None:
            total += sum(self.tunnel.laid) + len(self.tunnel.revealed)
        return total

    def ticket_total(self) -> int:
        return (
            len(self.ticket_deck)
            + len(self.removed_tickets)
            + sum(len(t) for t in self.tickets)
            + sum(len(o) for o in self.offers)
        )

    # ---------------------------------------------------------------- the rules
    def apply(self, seat: int, action: Any) -> GameState:
        """Return the state after ``seat`` plays ``action``; raise an EngineError if illegal."""
        new = self.copy()
        _moves.apply_action(new, seat, action, [])
        return new

    def apply_with_events(self, seat: int, action: Any) -> tuple[GameState, list[Any]]:
        """Like ``apply``, and also return the events the action caused."""
        new = self.copy()
        events: list[Any] = []
        _moves.apply_action(new, seat, action, events)
        return new, events

    def check(self, seat: int, action: Any) -> None:
        """Raise the EngineError ``apply`` would raise; return None if legal."""
        _moves.check_action(self, seat, action)

    def is_legal(self, seat: int, action: Any) -> bool:
        from .errors import EngineError

        try:
            self.check(seat, action)
        except EngineError:
            return False
        return True

    def legal_actions(self, seat: int) -> list[Any]:
        return _legal.legal_actions(self, seat)

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
    def from_json(cls, data: dict[str, Any]) -> GameState:
        if data.get("rules_version") != RULES_VERSION:
            raise SetupError(
                ErrorCode.BAD_SETUP,
                f"State was saved under rules version {data.get('rules_version')}, "
                f"this engine plays version {RULES_VERSION}.",
            )
        s = cls.__new__(cls)
        s._board = load_board(data["board"], data.get("board_options"))
        for name in cls.__slots__:
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


def new_game(
    board: Board | str,
    n_players: int,
    seed: int,
    first_player: int | None = None,
    options: dict[str, str] | None = None,
) -> GameState:
    """Set up a game: shuffle, deal cards and tickets, and wait for the initial ticket choice.

    ``options`` chooses the board's game options (see ``Board.option_specs``); a SetupError
    (``BAD_OPTION``) names one the board does not have.
    """
    if isinstance(board, str):
        if board not in BOARD_IDS:
            raise SetupError(ErrorCode.BAD_SETUP, f"No board {board!r}.")
        board = load_board(board)
    board = board.with_options(options)
    rules = board.rules
    if isinstance(n_players, bool) or not isinstance(n_players, int):
        raise SetupError(ErrorCode.BAD_SETUP, "The number of players must be a whole number.")
    if not rules.min_players <= n_players <= rules.max_players:
        raise SetupError(
            ErrorCode.BAD_SETUP,
            f"{board.name} is played by {rules.min_players} to {rules.max_players} players, "
            f"not {n_players}.",
        )
    if first_player is not None and not 0 <= first_player < n_players:
        raise SetupError(
            ErrorCode.BAD_SETUP, f"The first player must be a seat from 0 to {n_players - 1}."
        )
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SetupError(ErrorCode.BAD_SETUP, "The seed must be a whole number.")

    s = GameState.__new__(GameState)
    s._board = board
    s.seed = seed
    s.shuffles = 0
    s.n_players = n_players
    s.action_count = 0
    s.turn_number = 0
    s.phase = INITIAL_TICKETS
    s.pending_kind = CHOOSE_INITIAL_TICKETS
    s.first_player = (
        first_player if first_player is not None else rng.pick(n_players, seed, "first-player")
    )
    s.current = s.first_player
    s.waiting = list(range(n_players))
    s.forfeited = [False] * n_players
    s.final_turns_left = None
    s.final_trigger = None
    s.skipped_in_row = 0
    s.result = None
    s.tunnel = None

    deck = [c for c in range(LOCOMOTIVE) for _ in range(rules.cards_per_color)]
    deck += [LOCOMOTIVE] * rules.locomotives
    rng.shuffle(deck, seed, "train-deck")
    s.deck = deck
    s.discard = []
    s.hands = [[0] * N_CARD_KINDS for _ in range(n_players)]
    for _ in range(rules.initial_hand):
        for seat in range(n_players):
            s.hands[seat][deck.pop()] += 1
    s.market = [None] * rules.face_up

    long_tickets = [t.index for t in board.tickets if t.long]
    regular = [t.index for t in board.tickets if not t.long]
    rng.shuffle(long_tickets, seed, "long-tickets")
    rng.shuffle(regular, seed, "regular-tickets")
    s.offers = [[] for _ in range(n_players)]
    for seat in range(n_players):
        for _ in range(rules.initial_long_tickets):
            if long_tickets:
                s.offers[seat].append(long_tickets.pop())
        for _ in range(rules.initial_regular_tickets):
            if regular:
                s.offers[seat].append(regular.pop())
    # Long tickets not dealt leave the game unseen.
    s.removed_tickets = long_tickets
    s.ticket_deck = regular
    s.tickets = [[] for _ in range(n_players)]
    s.route_owner = [-1] * len(board.routes)
    s.route_points = [0] * n_players
    s.station_owner = [-1] * len(board.cities)
    s.stations = [[] for _ in range(n_players)]
    s.trains = [rules.trains_per_player] * n_players

    _cards.refresh_market(s, [])
    return s


# Imported last: the rules modules import this one.
from . import cards as _cards  # noqa: E402
from . import legal as _legal  # noqa: E402
from . import moves as _moves  # noqa: E402
