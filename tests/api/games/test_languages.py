# ruff: noqa: RUF001  (Greek and Russian text, letter for letter as the service says it)
"""Refusals in the caller's language (``Accept-Language``): the engine's and the games app's,
with the machine code, the field names and the board's names unchanged."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from engine import BOARD_IDS, ClaimRoute, EngineError, canonical_action, load_board
from games import errors
from games.board_texts import DESCRIPTIONS, board_descriptions
from ttr_service.http.problems import engine_text

pytestmark = pytest.mark.django_db

# A six-car route: the four cards of a first hand never pay for it.
LONG_ROUTE = "budapest-kyiv"

NOT_ENOUGH_CARDS = {
    "en": "Not enough cards for route budapest-kyiv: it needs 6 red cards and 0 locomotive(s).",
    "el": "Δεν υπάρχουν αρκετές κάρτες (διαδρομή budapest-kyiv): χρειάζονται 6 κάρτες red "
    "και ατμομηχανές: 0.",
    "vi": "Không đủ thẻ cho tuyến budapest-kyiv: cần 6 thẻ red và 0 đầu máy.",
    "ru": "Не хватает карт (маршрут budapest-kyiv): нужно 6 карт цвета red и локомотивов: 0.",
}

NO_SUCH_GAME = {
    "en": "No such game.",
    "el": "Δεν υπάρχει τέτοιο παιχνίδι.",
    "vi": "Không có ván chơi này.",
    "ru": "Такой игры нет.",
}


def _claim_long_route(client: Any, game_id: int, language: str | None) -> Any:
    version = client.get(f"/api/v1/games/{game_id}").json()["version"]
    headers = {} if language is None else {"HTTP_ACCEPT_LANGUAGE": language}
    return client.post(
        f"/api/v1/games/{game_id}/actions",
        {
            "version": version,
            "action": {"type": "claim_route", "route": LONG_ROUTE, "color": "red"},
        },
        format="json",
        **headers,
    )


@pytest.mark.parametrize("language", ["en", "el", "vi", "ru"])
def test_an_engine_refusal_is_said_in_the_callers_language(started, creator, language):
    response = _claim_long_route(creator, started, language)
    assert response.status_code == 409, response.content
    body = response.json()
    assert body["code"] == "INSUFFICIENT_CARDS"
    assert body["detail"] == NOT_ENOUGH_CARDS[language]


def test_without_accept_language_the_engine_speaks_english(started, creator):
    response = _claim_long_route(creator, started, None)
    assert response.json()["detail"] == NOT_ENOUGH_CARDS["en"]


def test_an_unknown_route_keeps_its_id_and_its_field_in_greek(started, creator):
    version = creator.get(f"/api/v1/games/{started}").json()["version"]
    response = creator.post(
        f"/api/v1/games/{started}/actions",
        {"version": version, "action": {"type": "claim_route", "route": "atlantis-paris"}},
        format="json",
        HTTP_ACCEPT_LANGUAGE="el",
    )
    body = response.json()
    assert (response.status_code, body["code"]) == (400, "UNKNOWN_ROUTE")
    assert body["detail"] == "Άγνωστη διαδρομή 'atlantis-paris'."
    assert body["errors"] == [{"field": "route", "code": "UNKNOWN_ROUTE", "detail": body["detail"]}]


@pytest.mark.parametrize("language", ["en", "el", "vi", "ru"])
def test_a_games_refusal_is_said_in_the_callers_language(creator, language):
    response = creator.get("/api/v1/games/999999", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    assert response.json()["code"] == "GAME_NOT_FOUND"
    assert response.json()["detail"] == NO_SUCH_GAME[language]


def test_a_refusal_with_a_status_word_translates_the_word_not_the_code(two_player_game, creator):
    # A game being played has no result yet: the status word is Russian, game_status is not.
    game_id = two_player_game["id"]
    response = creator.get(f"/api/v1/games/{game_id}/result", HTTP_ACCEPT_LANGUAGE="ru")
    body = response.json()
    assert body["code"] == "GAME_NOT_FINISHED"
    assert body["game_status"] == "active"
    assert body["detail"] == "Игра сейчас идёт, а для этого нужна игра, которая завершена."


def _illegal_position(unknown_routes: int) -> dict[str, Any]:
    routes = [f"nowhere-{i}" for i in range(unknown_routes)]
    return {"players": [{"routes": routes}, {"routes": []}]}


@pytest.mark.parametrize(
    ("count", "detail"),
    [
        (1, "Позиция недопустима: найдена 1 проблема."),
        (2, "Позиция недопустима: найдено 2 проблемы."),
        (5, "Позиция недопустима: найдено 5 проблем."),
        (21, "Позиция недопустима: найдена 21 проблема."),
    ],
)
def test_a_count_takes_the_russian_plural_form_it_needs(anonymous, count, detail):
    response = anonymous.post(
        "/api/v1/boards/europe/score",
        _illegal_position(count),
        format="json",
        HTTP_ACCEPT_LANGUAGE="ru",
    )
    body = response.json()
    assert (response.status_code, body["code"]) == (400, "ILLEGAL_POSITION")
    assert body["detail"] == detail
    assert len(body["errors"]) == count
    assert body["errors"][0] == {
        "field": "players[0].routes[0]",
        "code": "UNKNOWN_ROUTE",
        "detail": "На этой карте нет маршрута 'nowhere-0'.",
    }


@pytest.mark.parametrize(
    ("count", "detail"),
    [
        (1, "The position is not legal: 1 problem found."),
        (2, "The position is not legal: 2 problems found."),
    ],
)
def test_english_keeps_its_own_plural(anonymous, count, detail):
    response = anonymous.post(
        "/api/v1/boards/europe/score", _illegal_position(count), format="json"
    )
    assert response.json()["detail"] == detail


def test_the_engine_keeps_its_english_message_and_the_template_behind_it():
    with pytest.raises(EngineError) as caught:
        canonical_action(ClaimRoute("paris-moon", "red", 0), load_board("europe"))
    refusal = caught.value
    assert refusal.message == "Unknown route 'paris-moon'."
    assert refusal.text.template == "Unknown route %(route)r."
    assert refusal.text.values == {"route": "paris-moon"}
    with translation.override("vi"):
        assert engine_text(refusal.text) == "Tuyến 'paris-moon' không tồn tại."


def test_a_games_plural_follows_the_russian_forms():
    with translation.override("ru"):
        assert [str(errors.too_many_bot_games(n).detail)[:40] for n in (1, 2, 5, 21)] == [
            "У вас 1 незавершённая игра, где играет т",
            "У вас 2 незавершённые игры, где играет т",
            "У вас 5 незавершённых игр, где играет то",
            "У вас 21 незавершённая игра, где играет ",
        ]


def test_every_board_description_is_marked_for_translation():
    written = {text for b in BOARD_IDS for text in board_descriptions(load_board(b))}
    assert written == set(DESCRIPTIONS)


def test_the_boards_are_described_in_the_callers_language(anonymous):
    listed = anonymous.get("/api/v1/boards", HTTP_ACCEPT_LANGUAGE="vi").json()
    by_id = {b["id"]: b for b in listed}
    assert by_id["europe"]["name"] == "Europe"
    assert by_id["europe"]["description"].startswith("Ticket to Ride châu Âu: 2-5 người chơi")
    option = by_id["usa-bigcities"]["options"][0]
    assert (option["name"], option["default"]) == ("bonus", "none")
    assert option["description"].startswith("Thưởng cuối ván.")
    board = anonymous.get("/api/v1/boards/switzerland", HTTP_ACCEPT_LANGUAGE="ru")
    assert board.json()["description"].startswith("Швейцария: 2–3 игрока, 40 вагонов")
    assert "Accept-Language" in board["Vary"]
    english = anonymous.get("/api/v1/boards/switzerland").json()["description"]
    assert english == load_board("switzerland").description
