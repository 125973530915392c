"""A bot is given its seat's view: the stand-in state shows the seat all it may see, and
nothing of what it may not."""

from __future__ import annotations

import pytest

from engine import GameState, player_view
from engine.board import Ticket
from engine.bots import seat_view
from engine.bots.knowledge import Knowledge, Tunnel, aim, know
from engine.colors import CARD_INDEX, CARD_NAMES
from engine.invariants import violations

from .invariants import perturb_hidden, states_of_a_game

BOARDS = [("europe", 4), ("europe", 2), ("usa", 5), ("switzerland", 3), ("usa-mega", 4)]


def fields(s: GameState) -> dict[str, object]:
    data = s.to_json()
    data.pop("seed", None)
    return data


@pytest.mark.parametrize(("board", "players"), BOARDS)
def test_the_view_is_the_same_whatever_the_seat_cannot_see(board, players):
    checked = 0
    for s in states_of_a_game(5 + players, players, every=13, board=board):
        for seat in range(players):
            other = perturb_hidden(s, seat)
            assert fields(other) != fields(s)  # hidden data did change
            view, again = seat_view(s, seat), seat_view(other, seat)
            assert view.state.to_json() == again.state.to_json()
            assert view.knowledge == again.knowledge
            checked += 1
    assert checked > 20


@pytest.mark.parametrize(("board", "players"), BOARDS)
def test_the_view_shows_the_seat_all_it_may_see(board, players):
    for s in states_of_a_game(9 + players, players, every=17, board=board):
        for seat in range(players):
            stand_in = seat_view(s, seat).state
            assert player_view(stand_in, seat) == player_view(s, seat)
            if seat in s.pending.seats:
                assert stand_in.legal_actions(seat) == s.legal_actions(seat)
            # Every card and ticket is still somewhere: the stand-in is a whole game.
            assert violations(stand_in) == []
            assert stand_in.seed != s.seed


def test_a_bot_cannot_read_the_real_hidden_cards():
    """What the seat cannot see is the same in every view, not the real game's."""
    s = states_of_a_game(3, 4, every=40, board="europe")[3]
    seat = s.pending.seats[0]
    stand_in = seat_view(s, seat).state
    assert stand_in.deck != s.deck
    others = [o for o in range(4) if o != seat]
    assert [stand_in.tickets[o] for o in others] != [s.tickets[o] for o in others]


def know_from_view(state: GameState, seat: int) -> Knowledge:
    """The seat's knowledge rebuilt from ``player_view`` alone: what ``know`` must equal."""
    view = player_view(state, seat)
    board = state.board
    me = view["you"]
    owner = [-1] * len(board.routes)
    station_owner = [-1] * len(board.cities)
    for entry in view["seats"]:
        for rid in entry["routes"]:
            owner[board.route_by_id[rid].index] = entry["seat"]
        for name in entry["stations"]:
            station_owner[board.city_by_name[name].index] = entry["seat"]
    pending = view["pending"] or {}
    tunnel = None
    if "tunnel" in pending:
        t = pending["tunnel"]
        tunnel = Tunnel(board.route_by_id[t["route"]].index, CARD_INDEX[t["color"]], t["extra"])
    players = view["players"]

    def ticket(ticket_id: str) -> Ticket:
        return aim(board, board.ticket_by_id[ticket_id], owner, seat, players)

    return Knowledge(
        board=board,
        seat=seat,
        players=players,
        kind=pending.get("kind"),
        hand=[me["hand"][name] for name in CARD_NAMES],
        tickets=[ticket(t["id"]) for t in me["tickets"]],
        connected=[bool(t["connected"]) for t in me["tickets"]],
        offers=[ticket(t["id"]) for t in me["offered_tickets"]],
        owner=owner,
        station_owner=station_owner,
        my_stations=[board.city_by_name[n].index for n in view["seats"][seat]["stations"]],
        trains=[e["trains"] for e in view["seats"]],
        hand_sizes=[e["hand_size"] for e in view["seats"]],
        ticket_counts=[e["tickets"] for e in view["seats"]],
        stations_left=[e["stations_left"] for e in view["seats"]],
        route_points=[e["route_points"] for e in view["seats"]],
        market=[None if c is None else CARD_INDEX[c] for c in view["market"]],
        deck_size=view["deck_size"],
        discard_size=view["discard_size"],
        ticket_deck_size=view["ticket_deck_size"],
        last_round=view["last_round"] is not None,
        tunnel=tunnel,
    )


@pytest.mark.parametrize(("board", "players"), BOARDS)
def test_knowledge_is_what_the_view_shows(board, players):
    checked = 0
    for s in states_of_a_game(13 + players, players, every=7, board=board):
        for seat in range(players):
            assert know(s, seat) == know_from_view(s, seat), (board, seat)
            checked += 1
    assert checked > 20


def _lists(s: GameState) -> set[int]:
    """The identities of the lists a state holds, nested ones too."""
    out = set()
    for value in s.to_json().values():
        if isinstance(value, list):
            out.add(id(value))
            out |= {id(x) for x in value if isinstance(x, list)}
    return out


@pytest.mark.parametrize(("board", "players"), BOARDS)
def test_the_knowledge_read_later_from_the_redacted_view_is_the_seats(board, players):
    """The view's knowledge, read from the stand-in when first asked for, is what the seat
    knew of the game when the view was made, even when the real game has changed since:
    the view keeps nothing of the real state, not even a list shared with it."""
    checked = 0
    for s in states_of_a_game(3 + players, players, every=11, board=board):
        for seat in range(players):
            real = s.copy()
            before = know(real, seat)
            view = seat_view(real, seat)
            assert view.state is not real
            assert not _lists(view.state) & _lists(real)
            # The real game changes, in what the seat sees and in what it does not.
            real.hands[seat][0] += 1
            real.route_owner[0] = seat if real.route_owner[0] == -1 else -1
            real.deck.reverse()
            assert know(real, seat) != before
            assert view.knowledge == before
            assert view.knowledge is view.knowledge  # read once
            assert view.state.to_json() == seat_view(s, seat).state.to_json()
            checked += 1
    assert checked > 20


def test_the_stand_in_deals_what_the_seat_has_not_seen_in_a_fixed_order():
    """Redacted, not sampled: the unseen cards lie sorted in the deck, and the same view
    comes from any game the seat cannot tell apart."""
    s = states_of_a_game(4, 4, every=40, board="europe")[3]
    seat = s.pending.seats[0]
    stand_in = seat_view(s, seat).state
    assert stand_in.deck == sorted(stand_in.deck)
    assert stand_in.discard == sorted(stand_in.discard)
    assert stand_in.seed == 0
    assert stand_in.ticket_deck == sorted(stand_in.ticket_deck)
