"""One playthrough of a board: ``GameState`` (the data of ``state_data`` plus the rules) and
its setup, ``new_game``.

The fields, copying and the JSON form live in ``state_data``; the rules that change a state
live in ``moves`` (with ``cards`` and ``turns``), the legal action lists in ``legal``. Those
modules work on a ``GameData`` and never import this one, so this module can call them.
"""

from __future__ import annotations

from . import cards, legal, moves, rng
from .actions import Action
from .board import BOARD_IDS, Board, load_board
from .colors import LOCOMOTIVE, N_CARD_KINDS
from .errors import EngineError, ErrorCode, SetupError
from .events import Event
from .phases import (
    CHOOSE_INITIAL_TICKETS,
    GAME_OVER,
    INITIAL_TICKETS,
    KEEP_TICKETS,
    PLAYING,
    SECOND_CARD,
    TUNNEL_PAYMENT,
    TURN_ACTION,
)
from .state_data import RULES_VERSION, GameData, Pending, Tunnel
from .texts import gettext_noop

__all__ = [
    "CHOOSE_INITIAL_TICKETS",
    "GAME_OVER",
    "INITIAL_TICKETS",
    "KEEP_TICKETS",
    "PLAYING",
    "RULES_VERSION",
    "SECOND_CARD",
    "TUNNEL_PAYMENT",
    "TURN_ACTION",
    "GameState",
    "Pending",
    "Tunnel",
    "new_game",
]


class GameState(GameData):
    """Mutable container; ``GameState.apply`` returns a new state and leaves this one as it was."""

    __slots__ = ()

    # ---------------------------------------------------------------- the rules
    def apply(self, seat: int, action: Action) -> GameState:
        """Return the state after ``seat`` plays ``action``; raise an EngineError if illegal."""
        new = self.copy()
        moves.apply_action(new, seat, action, [])
        return new

    def apply_with_events(self, seat: int, action: Action) -> tuple[GameState, list[Event]]:
        """Like ``apply``, and also return the events the action caused."""
        new = self.copy()
        events: list[Event] = []
        moves.apply_action(new, seat, action, events)
        return new, events

    def check(self, seat: int, action: Action) -> None:
        """Raise the EngineError ``apply`` would raise; return None if legal."""
        moves.check_action(self, seat, action)

    def is_legal(self, seat: int, action: Action) -> bool:
        try:
            self.check(seat, action)
        except EngineError:
            return False
        return True

    def legal_actions(self, seat: int) -> list[Action]:
        return legal.legal_actions(self, seat)


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
            raise SetupError(ErrorCode.BAD_SETUP, gettext_noop("No board %(board)r.", board=board))
        board = load_board(board)
    board = board.with_options(options)
    rules = board.rules
    if isinstance(n_players, bool) or not isinstance(n_players, int):
        raise SetupError(
            ErrorCode.BAD_SETUP, gettext_noop("The number of players must be a whole number.")
        )
    if not rules.min_players <= n_players <= rules.max_players:
        raise SetupError(
            ErrorCode.BAD_SETUP,
            gettext_noop(
                "%(board)s is played by %(low)d to %(high)d players, not %(players)d.",
                board=board.name,
                low=rules.min_players,
                high=rules.max_players,
                players=n_players,
            ),
        )
    if first_player is not None and not 0 <= first_player < n_players:
        raise SetupError(
            ErrorCode.BAD_SETUP,
            gettext_noop("The first player must be a seat from 0 to %(last)d.", last=n_players - 1),
        )
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SetupError(ErrorCode.BAD_SETUP, gettext_noop("The seed must be a whole number."))

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

    cards.refresh_market(s, [])
    return s
