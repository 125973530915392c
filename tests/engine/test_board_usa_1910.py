"""USA 1910 and its variants (1910, Mega Game, Big Cities): each deck against the reference
file, the deal/keep/draw counts, the Globetrotter and the Big Cities bonus option."""

from __future__ import annotations

import json

import pytest

from engine import (
    DrawTickets,
    ErrorCode,
    GameState,
    IllegalActionError,
    KeepTickets,
    SetupError,
    load_board,
    new_game,
    replay,
)
from engine.replay import game_record
from engine.scoring import PlayerPosition, TicketSpec, score_position
from engine.state import KEEP_TICKETS

from .factory import started
from .reference import reference

REF = reference("usa-1910")
NAME = {c["id"]: c["name"] for c in reference("usa")["cities"]}
VARIANTS = {"usa-1910": "1910", "usa-mega": "mega", "usa-bigcities": "big_cities"}


@pytest.mark.parametrize(("board_id", "key"), VARIANTS.items())
def test_every_ticket_of_the_deck_matches_the_reference(board_id, key):
    board, variant = load_board(board_id), REF["variants"][key]
    assert len(board.tickets) == variant["ticket_count"] == len(variant["tickets"])
    assert [t.id for t in board.tickets] == [t["id"] for t in variant["tickets"]]
    for entry in variant["tickets"]:
        ticket = board.ticket_by_id[entry["id"]]
        assert ticket.cities == (NAME[entry["from"]], NAME[entry["to"]])
        assert ticket.points == entry["points"]


@pytest.mark.parametrize(("board_id", "key"), VARIANTS.items())
def test_the_counts_and_bonuses_match_the_reference(board_id, key):
    rules, variant = load_board(board_id).rules, REF["variants"][key]
    assert rules.initial_regular_tickets == variant["initial_tickets"]["deal"]
    assert rules.initial_keep_min == variant["initial_tickets"]["keep_min"]
    assert rules.draw_tickets == variant["draw_tickets"]["draw"]
    assert rules.draw_keep_min == variant["draw_tickets"]["keep_min"]
    assert rules.longest_path_bonus == (variant["longest_path_bonus"] or 0)
    assert rules.globetrotter_bonus == (variant["globetrotter_bonus"] or 0)
    assert rules.stations_per_player == 0 and rules.initial_long_tickets == 0


@pytest.mark.parametrize("board_id", VARIANTS)
def test_the_map_is_the_usa_map(board_id):
    usa, board = load_board("usa"), load_board(board_id)
    assert board.routes == usa.routes
    assert board.cities == usa.cities


def test_the_reprinted_originals_carry_their_revised_values():
    mega = load_board("usa-mega")
    usa = load_board("usa")
    for entry in REF["revised_originals"]:
        pair = (NAME[entry["from"]], NAME[entry["to"]])
        [reprint] = [t for t in mega.tickets if t.cities == pair]
        [original] = [t for t in usa.tickets if t.cities == pair]
        assert reprint.points == entry["points_1910_reprint"]
        assert original.points == entry["points_2004"]
    assert REF["totals"]["points_sum_mega"] == sum(t.points for t in mega.tickets)


def test_every_big_cities_ticket_touches_a_big_city():
    big = {NAME[c] for c in REF["big_cities"]}
    board = load_board("usa-bigcities")
    assert all(big & set(t.cities) for t in board.tickets)
    assert sum(t.points for t in board.tickets) == REF["totals"]["points_sum_big_cities"]


@pytest.mark.parametrize(
    ("board_id", "deal", "keep", "draw"),
    [("usa-1910", 3, 2, 3), ("usa-mega", 5, 3, 4), ("usa-bigcities", 4, 2, 4)],
)
def test_deal_keep_and_draw_counts_are_enforced(board_id, deal, keep, draw):
    s = new_game(board_id, 2, 11, first_player=0)
    assert [len(o) for o in s.offers] == [deal, deal]
    offer = [s.board.tickets[t].id for t in s.offers[0]]
    with pytest.raises(IllegalActionError) as err:
        s.apply(0, KeepTickets(tuple(offer[: keep - 1])))
    assert err.value.code == ErrorCode.MUST_KEEP_TICKETS
    s = s.apply(0, KeepTickets(tuple(offer[:keep])))
    s = s.apply(1, KeepTickets(tuple(s.board.tickets[t].id for t in s.offers[1])))
    s = s.apply(0, DrawTickets())
    assert s.pending.kind == KEEP_TICKETS and len(s.offers[0]) == draw


def _position(board, routes: tuple[str, ...], tickets: tuple[str, ...]) -> PlayerPosition:
    return PlayerPosition(
        tuple(board.route_by_id[r].index for r in routes),
        (),
        tuple(TicketSpec.of(board.ticket_by_id[t]) for t in tickets),
    )


def test_the_globetrotter_goes_to_the_most_completed_tickets_and_ties_all_score_it():
    board = load_board("usa-1910")
    # 1910-34 Washington-Atlanta (4) and 1910-02 Chicago-Atlanta (5).
    wa = ("atlanta-raleigh-1", "raleigh-washington-1")
    p0 = _position(board, wa, ("1910-34",))
    p1 = _position(board, ("atlanta-nashville-1", "chicago-pittsburgh-1"), ("1910-02",))
    p2 = _position(board, (), ())
    sheet = score_position(board, [p0, p1, p2])
    bonus = [p["globetrotter_bonus"] for p in sheet["players"]]
    assert bonus == [15, 0, 0]
    assert [p["longest_path_bonus"] for p in sheet["players"]] == [0, 0, 0]
    # Tied on completed tickets: both score it.
    p1 = _position(board, wa, ("1910-34",))
    p0 = _position(board, ("boston-montreal-1",), ())
    sheet = score_position(board, [p0, _position(board, (), ()), p1])
    assert [p["globetrotter_bonus"] for p in sheet["players"]] == [0, 0, 15]
    p0 = _position(board, ("atlanta-raleigh-2", "raleigh-washington-2"), ("1910-34",))
    sheet = score_position(board, [p0, _position(board, (), ()), p1])
    assert [p["globetrotter_bonus"] for p in sheet["players"]] == [15, 0, 15]


def test_nobody_scores_the_globetrotter_without_a_completed_ticket():
    board = load_board("usa-1910")
    sheet = score_position(board, [_position(board, (), ("1910-34",)), _position(board, (), ())])
    assert [p["globetrotter_bonus"] for p in sheet["players"]] == [0, 0]


def test_the_mega_game_scores_both_bonuses():
    board = load_board("usa-mega")
    p0 = _position(board, ("atlanta-raleigh-1", "raleigh-washington-1"), ("1910-34",))
    sheet = score_position(board, [p0, _position(board, ("boston-montreal-1",), ())])
    me = sheet["players"][0]
    assert (me["longest_path_bonus"], me["globetrotter_bonus"]) == (10, 15)
    assert me["total"] == 2 + 2 + 4 + 10 + 15


def test_big_cities_has_no_bonus_by_default_and_the_option_chooses_one():
    board = load_board("usa-bigcities")
    assert board.options == {"bonus": "none"}
    assert (board.rules.longest_path_bonus, board.rules.globetrotter_bonus) == (0, 0)
    spec = board.option_specs[0]
    assert spec.name == "bonus" and spec.default == "none"
    assert set(spec.choices) == {"none", "longest_path", "globetrotter", "both"}
    longest = load_board("usa-bigcities", {"bonus": "longest_path"})
    assert (longest.rules.longest_path_bonus, longest.rules.globetrotter_bonus) == (10, 0)
    both = load_board("usa-bigcities", {"bonus": "both"})
    assert (both.rules.longest_path_bonus, both.rules.globetrotter_bonus) == (10, 15)
    # The base board is unchanged by choosing an option.
    assert load_board("usa-bigcities").rules.longest_path_bonus == 0


@pytest.mark.parametrize(
    ("board_id", "options"),
    [
        ("usa-bigcities", {"bonus": "everything"}),
        ("usa-bigcities", {"colour": "red"}),
        ("usa", {"bonus": "none"}),
        ("usa-bigcities", {"bonus": 1}),
    ],
)
def test_an_unknown_option_or_value_is_refused(board_id, options):
    with pytest.raises(SetupError) as err:
        new_game(board_id, 2, 1, options=options)
    assert err.value.code == ErrorCode.BAD_OPTION


def test_the_chosen_option_travels_with_the_state_and_the_record():
    s = started(board="usa-bigcities", options={"bonus": "globetrotter"})
    data = json.loads(json.dumps(s.to_json()))
    assert data["board_options"] == {"bonus": "globetrotter"}
    again = GameState.from_json(data)
    assert again.board.rules.globetrotter_bonus == 15
    assert again.to_json() == data
    s0 = new_game("usa-bigcities", 2, 1, first_player=0, options={"bonus": "globetrotter"})
    record = game_record(s0, [])
    assert record["board_options"] == {"bonus": "globetrotter"}
    assert replay(record).board.rules.globetrotter_bonus == 15
    # A board without options stores none, so Europe states keep their exact form.
    assert "board_options" not in started().to_json()
