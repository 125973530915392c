"""GET /metrics after real requests, moves and AI decisions: every family is there, and the
counts grow by what was done. AI turns run in the request's process (eager, as in the other
tests here); the metrics of a process group summed over its processes are checked in
tests/ops/test_metrics_processes.py."""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families
from rest_framework.test import APIClient

from games.models import Move
from notifications.models import Delivery, DeliveryStatus
from ops.models import BeatLease

from .conftest import create_game, keep_all_initial

pytestmark = pytest.mark.django_db(transaction=True)

GAME_ROUTE = "/api/v1/games/<int:game_id>"
FAMILIES = {
    "ttr_http_request_duration_seconds",
    "ttr_moves",
    "ttr_ai_decision_seconds",
    "ttr_celery_queue_depth",
    "ttr_event_streams_open",
    "ttr_notification_outbox_backlog",
    "ttr_beat_lease_holder",
}

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(**headers: str) -> tuple[set[str], Samples]:
    response = APIClient().get("/metrics", **headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain; version=")
    families = list(text_string_to_metric_families(response.content.decode()))
    samples = {(s.name, frozenset(s.labels.items())): s.value for f in families for s in f.samples}
    return {f.name for f in families}, samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_a_scrape_counts_requests_moves_and_ai_decisions(creator, opponent):
    BeatLease.objects.create(
        name="beat",
        holder="beat-host:41:abcd",
        acquired_at=timezone.now(),
        expires_at=timezone.now() + timedelta(seconds=30),
    )
    _, before = scrape()
    ai_before = Move.objects.filter(cause="ai").count()

    # A game against the AI: the AI keeps its tickets as the game starts.
    game = create_game(creator, seats=[{"type": "creator"}, {"type": "ai", "level": "random"}])
    # Two people's first tickets.
    people = create_game(creator, first_seat=0)
    assert opponent.post(f"/api/v1/games/{people['id']}/join", {}, format="json").status_code == 200
    keep_all_initial(people["id"], creator, opponent)
    for _ in range(3):
        assert creator.get(f"/api/v1/games/{game['id']}").status_code == 200
    assert creator.get("/api/v1/games/999999").status_code == 404

    names, after = scrape()
    assert names >= FAMILIES
    reads = ("ttr_http_request_duration_seconds_count", {"method": "GET", "route": GAME_ROUTE})
    # Three reads of the AI game, four by keep_all_initial (the view and the version, for
    # each player); the unknown game's 404 apart.
    assert (
        value(after, reads[0], **reads[1], status="200")
        - value(before, reads[0], **reads[1], status="200")
        == 7
    )
    assert (
        value(after, reads[0], **reads[1], status="404")
        - value(before, reads[0], **reads[1], status="404")
        == 1
    )
    moves = "ttr_moves_total"
    assert value(after, moves, kind="person") - value(before, moves, kind="person") == 2
    ai_moves = Move.objects.filter(cause="ai").count() - ai_before
    assert ai_moves >= 1
    assert value(after, moves, kind="ai") - value(before, moves, kind="ai") == ai_moves
    decisions = "ttr_ai_decision_seconds_count"
    made = value(after, decisions, level="random") - value(before, decisions, level="random")
    assert made == ai_moves  # one decision a move: nobody else moved meanwhile
    assert value(after, "ttr_ai_decision_seconds_sum", level="random") > value(
        before, "ttr_ai_decision_seconds_sum", level="random"
    )
    assert value(after, "ttr_celery_queue_depth", queue="celery") >= 0
    assert value(after, "ttr_event_streams_open") == 0
    assert value(after, "ttr_beat_lease_holder", holder="beat-host:41:abcd") == 1
    waiting = Counter(
        Delivery.objects.filter(
            status__in=[DeliveryStatus.PENDING, DeliveryStatus.SENDING]
        ).values_list("channel", "status")
    )
    for channel in ("webhook", "email", "push"):
        for status in ("pending", "sending"):
            shown = value(after, "ttr_notification_outbox_backlog", channel=channel, status=status)
            assert shown == waiting[(channel, status)]


def test_an_expired_lease_shows_its_holder_at_zero(db):
    BeatLease.objects.create(
        name="beat",
        holder="gone:7:beef",
        acquired_at=timezone.now() - timedelta(minutes=2),
        expires_at=timezone.now() - timedelta(minutes=1),
    )
    _, samples = scrape()
    assert ("ttr_beat_lease_holder", frozenset({("holder", "gone:7:beef")})) in samples
    assert value(samples, "ttr_beat_lease_holder", holder="gone:7:beef") == 0


def test_the_request_id_is_echoed_or_made(creator):
    sent = creator.get("/api/v1/boards", HTTP_X_REQUEST_ID="client-id-42")
    assert sent["X-Request-ID"] == "client-id-42"
    made = creator.get("/api/v1/boards", HTTP_X_REQUEST_ID="not sane\u00e9" * 3)
    fresh = creator.get("/api/v1/boards")
    assert len(made["X-Request-ID"]) == 32 and made["X-Request-ID"] != fresh["X-Request-ID"]


def test_metrics_are_refused_to_public_and_forwarded_requests(db):
    client = APIClient()
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="8.8.8.8").status_code == 403
    forwarded = client.get("/metrics", HTTP_X_FORWARDED_FOR="8.8.8.8")
    assert forwarded.status_code == 403
    assert client.post("/metrics").status_code == 405


def test_with_a_token_only_its_bearer_reads_the_metrics(db, settings):
    settings.METRICS = dataclasses.replace(settings.METRICS, token="s3cret-token")
    client = APIClient()
    assert client.get("/metrics").status_code == 403
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 403
    good = client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-token", REMOTE_ADDR="8.8.8.8")
    assert good.status_code == 200
    assert b"ttr_moves_total" in good.content


def test_a_scrape_answers_without_the_queue_depth_while_redis_is_unreachable(db, settings):
    """Limit: 5 s (Prometheus gives a scrape 10 s). Unbounded, kombu's connection retries
    to an address that drops its packets took 6 s; bounded, 2 s."""
    from celery import current_app

    unreachable = "redis://10.255.255.1:6379/0"  # a private address nothing answers on
    conf = current_app.conf
    before = conf.broker_read_url, conf.broker_transport
    conf.broker_read_url, conf.broker_transport = unreachable, None
    try:
        started = time.monotonic()
        names, _ = scrape()
        took = time.monotonic() - started
    finally:
        conf.broker_read_url, conf.broker_transport = before
    assert "ttr_celery_queue_depth" not in names
    assert "ttr_http_request_duration_seconds" in names
    assert took < 5, took
