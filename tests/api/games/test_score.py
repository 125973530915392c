"""``POST /api/v1/boards/{board}/score``: the score calculator over HTTP."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle

from engine.calculator import score

pytestmark = pytest.mark.django_db

URL = "/api/v1/boards/europe/score"
POSITION: dict[str, Any] = {
    "players": [
        {
            "routes": ["frankfurt-paris-1", "berlin-frankfurt-1", "berlin-wien"],
            "stations": ["Wien"],
            "tickets": ["paris-wien", ["Frankfurt", "København", 5]],
        },
        {"routes": ["essen-kobenhavn-1"], "tickets": [["Essen", "Kobenhavn", 3]]},
    ]
}


def post(client: Any, body: Any, url: str = URL, **headers: str) -> Any:
    return client.post(url, body, format="json", **headers)


def test_an_anonymous_caller_gets_the_score_sheet(anonymous):
    response = post(anonymous, POSITION)
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body == score(POSITION, default_board="europe")
    assert body["players"][0]["tickets"][0]["completed"] is True
    assert body["players"][1]["tickets"][0]["path"] == ["essen-kobenhavn-1"]
    assert [r["seat"] for r in body["ranking"]] == [0, 1]


def test_a_body_naming_the_same_board_is_accepted(anonymous):
    response = post(anonymous, {"board": "europe", **POSITION})
    assert response.status_code == 200


def test_an_illegal_position_is_a_400_listing_every_problem(anonymous):
    body = {
        "players": [
            {"routes": ["frankfurt-paris-1", "paris-moon"], "stations": ["Wien", "Atlantis"]},
            {
                "routes": ["frankfurt-paris-2"],
                "stations": ["Vienna"],
                "tickets": [["Paris", "Roma", 0]],
            },
        ]
    }
    response = post(anonymous, body)
    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert problem["code"] == "ILLEGAL_POSITION"
    assert "5 problems" in problem["detail"]
    assert [(e["field"], e["code"]) for e in problem["errors"]] == [
        ("players[0].routes[1]", "UNKNOWN_ROUTE"),
        ("players[0].stations[1]", "UNKNOWN_CITY"),
        ("players[1].routes[0]", "DOUBLE_ROUTE_CLOSED"),
        ("players[1].stations[0]", "STATION_CITY_TAKEN"),
        ("players[1].tickets[0][2]", "BAD_TICKET"),
    ]
    assert all(e["detail"] for e in problem["errors"])


def test_unknown_keys_are_refused_by_name_as_everywhere_in_the_api(anonymous):
    # The command line reports them as BAD_SHAPE; the API answers as for any other body.
    response = post(anonymous, {"players": [{"route": []}, {}]})
    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert [(e["field"], e["code"]) for e in response.json()["errors"]] == [
        ("players[0].route", "UNKNOWN_FIELD")
    ]


def test_a_body_naming_another_board_is_a_400(anonymous):
    response = post(anonymous, {"board": "usa", **POSITION})
    assert response.status_code == 400
    problem = response.json()
    assert problem["code"] == "VALIDATION_ERROR"
    assert problem["errors"] == [
        {"field": "board", "code": "BOARD_MISMATCH", "detail": "Must be europe."}
    ]


def test_an_unknown_board_is_a_404(anonymous):
    response = post(anonymous, POSITION, url="/api/v1/boards/mars/score")
    assert response.status_code == 404
    assert response.json()["code"] == "BOARD_NOT_FOUND"


def test_more_than_five_players_is_refused_by_validation(anonymous):
    response = post(anonymous, {"players": [{}] * 6})
    assert response.status_code == 400
    problem = response.json()
    assert problem["code"] == "VALIDATION_ERROR"
    assert [e["field"] for e in problem["errors"]] == ["players"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"players": [{"routes": ["dieppe-paris"] * 500}, {}]}, "players[0].routes"),
        ({"players": [{"stations": ["x" * 1000]}, {}]}, "players[0].stations[0]"),
        ({"players": [{"tickets": [["Paris", "Wien", 1]] * 101}, {}]}, "players[0].tickets"),
        ({"players": [{"tickets": [{"from": "Paris"}]}, {}]}, "players[0].tickets[0]"),
        ({"players": "everyone"}, "players"),
        ([1, 2, 3], ""),
    ],
)
def test_oversized_or_mistyped_bodies_are_validation_errors(anonymous, body, field):
    response = post(anonymous, body)
    assert response.status_code == 400
    problem = response.json()
    assert problem["code"] == "VALIDATION_ERROR"
    assert [e["field"] for e in problem["errors"]] == [field]


def test_a_logged_in_caller_may_use_it_too(make_user, auth_client):
    client = auth_client(make_user("alice"))
    assert post(client, POSITION).status_code == 200


def test_the_default_rate_comes_from_the_settings():
    assert settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["score"] == "60/min"


def test_it_is_throttled_in_its_own_scope(anonymous, monkeypatch):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "score", "3/min")
    answers = [post(anonymous, POSITION).status_code for _ in range(3)]
    response = post(anonymous, POSITION)
    assert answers == [200, 200, 200]
    assert response.status_code == 429
    assert response.json()["code"] == "THROTTLED"
    assert 0 < int(response["Retry-After"]) <= 60
    assert anonymous.get("/api/v1/boards/europe").status_code == 200
