"""Seeks through the API: make, list, read, cancel; what a seek body may hold; one waiting
seek per pace; expiry; a retried POST with its Idempotency-Key."""

from __future__ import annotations

from datetime import timedelta

import time_machine
from django.utils import timezone

from matchmaking.models import Seek, SeekStatus
from matchmaking.pairing import seeks_pair

from .conftest import SEEK, seek


def test_a_seek_is_made_waiting_and_answered_whole(people):
    [(alice, client)] = people("alice")
    body = seek(client, rating_window=150, ai_fill_after=30)
    assert set(body) == {
        "id", "board", "players_min", "players_max", "turn_time_limit", "rated",
        "rating_window", "ai_fill_after", "status", "game", "created_at", "expires_at",
    }  # fmt: skip
    assert body["status"] == "waiting" and body["game"] is None
    assert (body["rating_window"], body["ai_fill_after"]) == (150, 30)
    stored = Seek.objects.get(pk=body["id"])
    assert stored.user == alice and stored.rating == 1500.0
    assert stored.expires_at - stored.created_at == timedelta(minutes=10)


def test_my_seeks_waiting_first_and_nobody_elses(people):
    [(_, alice), (_, bob)] = people("alice", "bob")
    first = seek(alice, turn_time_limit=180)
    assert alice.delete(f"/api/v1/seeks/{first['id']}").json()["status"] == "cancelled"
    second = seek(alice, turn_time_limit=300)
    listed = alice.get("/api/v1/seeks").json()
    assert [s["id"] for s in listed["results"]] == [second["id"], first["id"]]
    assert bob.get("/api/v1/seeks").json()["count"] == 0

    assert alice.get(f"/api/v1/seeks/{second['id']}").json() == second
    other = bob.get(f"/api/v1/seeks/{second['id']}")
    missing = bob.get("/api/v1/seeks/999999")
    assert other.status_code == missing.status_code == 404
    assert other.json()["code"] == missing.json()["code"] == "SEEK_NOT_FOUND"
    assert bob.delete(f"/api/v1/seeks/{second['id']}").status_code == 404


def test_a_matched_seek_cannot_be_cancelled(people):
    [(_, alice), (_, bob)] = people("alice", "bob")
    mine, theirs = seek(alice), seek(bob)
    seeks_pair()
    refused = alice.delete(f"/api/v1/seeks/{mine['id']}")
    assert refused.status_code == 409 and refused.json()["code"] == "SEEK_MATCHED"
    assert bob.get(f"/api/v1/seeks/{theirs['id']}").json()["status"] == "matched"


def _refusal(client, **fields):
    answer = client.post("/api/v1/seeks", {**SEEK, **fields}, format="json")
    assert answer.status_code == 400, answer.content
    return {row["field"]: row["code"] for row in answer.json()["errors"]}


def test_bad_seeks_are_refused_by_field(people):
    [(_, client)] = people("alice")
    assert "board" in _refusal(client, board="atlantis")
    assert "players_max" in _refusal(client, players_min=4, players_max=3)
    assert "players_max" in _refusal(client, board="switzerland", players_min=2, players_max=4)
    assert "players_min" in _refusal(client, players_min=1)
    assert "turn_time_limit" in _refusal(client, turn_time_limit=61)
    assert _refusal(client, colour="blue") == {"colour": "UNKNOWN_FIELD"}
    assert _refusal(client, rated=1) == {"rated": "WRONG_TYPE"}
    assert Seek.objects.count() == 0


def test_one_waiting_seek_per_pace(people):
    [(_, client)] = people("alice")
    first = seek(client)
    again = client.post("/api/v1/seeks", {**SEEK, "board": "usa"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "SEEK_EXISTS"
    seek(client, turn_time_limit=300)  # another pace
    client.delete(f"/api/v1/seeks/{first['id']}")
    seek(client)  # the pace is free again


def test_a_seek_expires_after_its_minutes(people):
    [(_, client)] = people("alice")
    made = seek(client)
    later = timezone.now() + timedelta(minutes=10, seconds=1)
    with time_machine.travel(later, tick=False):
        assert client.get(f"/api/v1/seeks/{made['id']}").json()["status"] == "expired"
        seeks_pair()
        assert Seek.objects.get(pk=made["id"]).status == SeekStatus.EXPIRED
        assert seek(client)["status"] == "waiting"  # the pace is free again


def test_a_retried_post_with_its_key_makes_one_seek(people):
    [(_, client)] = people("alice")
    headers = {"HTTP_IDEMPOTENCY_KEY": "seek-once-1"}
    first = client.post("/api/v1/seeks", SEEK, format="json", **headers)
    second = client.post("/api/v1/seeks", SEEK, format="json", **headers)
    assert first.status_code == second.status_code == 201
    assert first.content == second.content
    assert second.headers.get("Idempotent-Replayed") == "true"
    assert Seek.objects.count() == 1
