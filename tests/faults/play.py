"""A player's side of a game over HTTP, for the fault tests."""

from __future__ import annotations

from typing import Any

import httpx

from games.models import Game


def view(client: httpx.Client, game_id: int) -> dict[str, Any]:
    response = client.get(f"/games/{game_id}")
    assert response.status_code == 200, response.text
    return response.json()


def my_turn(client: httpx.Client, game_id: int) -> bool:
    return bool(view(client, game_id)["your_turn"])


def act(
    client: httpx.Client, game_id: int, action: dict[str, Any], key: str | None = None
) -> httpx.Response:
    """Post ``action`` on the current version (with an Idempotency-Key when given)."""
    version = view(client, game_id)["version"]
    headers = {"Idempotency-Key": key} if key else {}
    return client.post(
        f"/games/{game_id}/actions",
        json={"version": version, "action": action},
        headers=headers,
    )


def keep_offered_tickets(client: httpx.Client, game_id: int) -> None:
    offered = [t["id"] for t in view(client, game_id)["state"]["you"]["offered_tickets"]]
    response = act(client, game_id, {"type": "keep_tickets", "tickets": offered})
    assert response.status_code == 200, response.text


def pending_seats(game_id: int) -> set[int]:
    game = Game.objects.prefetch_related("seats").get(pk=game_id)
    return {s.index for s in game.seats.all() if s.pending}


def create_game(client: httpx.Client, seats: list[dict[str, Any]], **extra: Any) -> int:
    response = client.post("/games", json={"board": "europe", "seats": seats, **extra})
    assert response.status_code == 201, response.text
    return int(response.json()["id"])
