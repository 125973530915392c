"""Turn order, the last round, forfeits and the end of the game."""

from __future__ import annotations

from .cards import refresh_market
from .colors import N_CARD_KINDS
from .errors import ErrorCode, MalformedActionError, illegal
from .events import Event
from .final import final_result
from .legal import claimable_routes
from .payments import can_pay
from .phases import GAME_OVER, INITIAL_TICKETS, PLAYING, TURN_ACTION
from .state_data import GameData
from .texts import gettext_noop


def has_any_action(s: GameData, seat: int) -> bool:
    """Whether ``seat`` has at least one legal turn action (cheap checks first)."""
    if s.deck or s.discard or any(c is not None for c in s.market):
        return True
    if s.ticket_deck:
        return True
    rules = s.board.rules
    hand = s.hands[seat]
    built = len(s.stations[seat])
    if (
        built < rules.stations_per_player
        and -1 in s.station_owner
        and can_pay(
            hand,
            rules.station_costs[built],
            required_color=None,
            min_locomotives=0,
            locomotives_allowed=not rules.locomotives_only_on_tunnels,
        )
    ):
        return True
    return bool(claimable_routes(s, seat))


def _active_count(s: GameData) -> int:
    return s.n_players - sum(s.forfeited)


def _upcoming_final_turns(s: GameData) -> list[int]:
    """The seats still to finish a turn in the last round, the current one first."""
    if s.final_turns_left is None:
        return []
    order: list[int] = []
    seat = s.current
    for _ in range(s.n_players):
        if len(order) >= s.final_turns_left:
            break
        if not s.forfeited[seat]:
            order.append(seat)
        seat = (seat + 1) % s.n_players
    return order


def check_forfeit(s: GameData, seat: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < s.n_players:
        raise MalformedActionError(
            ErrorCode.BAD_SEAT,
            gettext_noop("Seat must be a number from 0 to %(last)d.", last=s.n_players - 1),
        )
    if s.phase == GAME_OVER:
        raise illegal(ErrorCode.GAME_OVER, gettext_noop("The game is over."))
    if s.forfeited[seat]:
        raise illegal(
            ErrorCode.FORFEITED, gettext_noop("Seat %(seat)d has already forfeited.", seat=seat)
        )


def forfeit_seat(s: GameData, seat: int, events: list[Event]) -> None:
    """``seat`` leaves the game: its routes stay, it takes no more turns and ranks last.

    A decision it had pending is resolved safely first (laid tunnel cards return to its
    hand, tickets on offer are returned as if not kept). With fewer than two players left,
    the game ends.
    """
    check_forfeit(s, seat)
    rules = s.board.rules
    in_turn = s.phase == PLAYING and s.current == seat
    if not in_turn and seat in _upcoming_final_turns(s):
        assert s.final_turns_left is not None
        s.final_turns_left -= 1
    s.forfeited[seat] = True
    events.append(Event("forfeited", seat, {}))
    if s.offers[seat]:
        initial = s.phase == INITIAL_TICKETS
        policy = rules.unkept_initial_tickets if initial else rules.unkept_drawn_tickets
        if policy == "removed":
            s.removed_tickets.extend(s.offers[seat])
        else:
            s.ticket_deck[0:0] = s.offers[seat][::-1]
        s.offers[seat] = []
    if s.tunnel is not None and in_turn:
        t = s.tunnel
        for kind in range(N_CARD_KINDS):
            s.hands[seat][kind] += t.laid[kind]
        s.discard.extend(t.revealed)
        s.tunnel = None
    if _active_count(s) < 2:
        finish(s, events)
        return
    if s.phase == INITIAL_TICKETS:
        if seat in s.waiting:
            s.waiting.remove(seat)
        if not s.waiting:
            begin_play(s, events)
        return
    if in_turn:
        end_turn(s, events)


def end_turn(s: GameData, events: list[Event]) -> None:
    refresh_market(s, events)
    seat = s.current
    s.turn_number += 1
    if s.final_turns_left is None:
        if s.trains[seat] <= s.board.rules.end_trigger_trains:
            s.final_trigger = seat
            s.final_turns_left = _active_count(s)
            events.append(
                Event(
                    "last_round", seat, {"trains": s.trains[seat], "turns_left": s.final_turns_left}
                )
            )
    else:
        s.final_turns_left -= 1
        if s.final_turns_left <= 0:
            finish(s, events)
            return
    start_next_turn(s, events)


def start_next_turn(s: GameData, events: list[Event]) -> None:
    seat = s.current
    for _ in range(s.n_players):
        seat = (seat + 1) % s.n_players
        if not s.forfeited[seat]:
            break
    else:
        finish(s, events)
        return
    s.current = seat
    s.pending_kind = TURN_ACTION
    events.append(Event("turn_started", seat, {"turn": s.turn_number}))
    if has_any_action(s, seat):
        s.skipped_in_row = 0
        return
    # Nothing at all can be done (no cards, no tickets, nothing affordable): the turn passes.
    s.skipped_in_row += 1
    events.append(Event("turn_skipped", seat, {"reason": "no legal action"}))
    if s.skipped_in_row >= _active_count(s):
        finish(s, events)
        return
    end_turn(s, events)


def finish(s: GameData, events: list[Event]) -> None:
    s.phase = GAME_OVER
    s.pending_kind = None
    s.result = final_result(s)
    ranking = s.result["ranking"]
    events.append(Event("game_over", None, {"ranking": ranking}))


def begin_play(s: GameData, events: list[Event]) -> None:
    """Every seat has chosen its tickets: the first player (or the next one still playing)
    starts. The deck is full, so that seat has a legal action."""
    s.phase = PLAYING
    s.current = s.first_player
    if s.forfeited[s.current]:
        s.current = (s.current - 1) % s.n_players
        start_next_turn(s, events)
        return
    s.pending_kind = TURN_ACTION
    events.append(Event("turn_started", s.current, {"turn": s.turn_number}))
