"""Every response the games API writes is what its serializer's own ``to_representation``
would write: a whole game is played through the API while each ``Writer`` is checked
against DRF, call by call (ttr_service/http/writers.py, decision 0307)."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import pytest

from engine import BOARD_IDS
from ttr_service.http.writers import Writer

from .conftest import act

pytestmark = pytest.mark.django_db


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Writers that also ask DRF, and fail on any difference; the shapes written, counted."""
    written: dict[str, int] = {}
    plain = Writer.__call__

    def both(self: Writer, value: Mapping[str, Any]) -> dict[str, Any]:
        mine = plain(self, value)
        drf = self.serializer.to_representation(value)
        assert json.dumps(mine) == json.dumps(drf), type(self.serializer).__name__
        name = type(self.serializer).__name__
        written[name] = written.get(name, 0) + 1
        return mine

    monkeypatch.setattr(Writer, "__call__", both)
    monkeypatch.setattr(Writer, "many", lambda self, values: [both(self, v) for v in values])
    return written


def test_a_whole_game_is_written_as_its_serializers_write_it(
    two_player_game, creator, opponent, anonymous, checked
) -> None:
    game_id = two_player_game["id"]
    clients, rnd = {0: creator, 1: opponent}, random.Random(11)
    for _ in range(2000):
        view = creator.get(f"/api/v1/games/{game_id}").json()
        anonymous.get(f"/api/v1/games/{game_id}")
        if view["status"] == "finished":
            break
        seat = view["state"]["pending"]["seats"][0]
        legal = clients[seat].get(f"/api/v1/games/{game_id}/legal-actions").json()
        kind = rnd.choice(sorted({a["type"] for a in legal["actions"]}))
        action = rnd.choice([a for a in legal["actions"] if a["type"] == kind])
        assert act(clients[seat], game_id, action, legal["version"]).status_code == 200
    for path in ("", "/moves?limit=500", "/result", "/record"):
        assert creator.get(f"/api/v1/games/{game_id}{path}").status_code == 200
    assert creator.get("/api/v1/games").status_code == 200
    assert creator.get("/api/v1/boards").status_code == 200
    for board in BOARD_IDS:
        assert creator.get(f"/api/v1/boards/{board}").status_code == 200
    assert creator.get("/api/v1/vacations").status_code == 200
    assert set(checked) >= {
        "GameDetailSerializer",
        "GameSummarySerializer",
        "LegalActionsSerializer",
        "MoveListSerializer",
        "ScoreSheetSerializer",
        "GameRecordSerializer",
        "BoardSummarySerializer",
        "BoardSerializer",
        "VacationListSerializer",
    }
