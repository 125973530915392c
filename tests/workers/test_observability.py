"""The request id and the metrics across real processes: gunicorn with two uvicorn workers
(with the image's configuration, so its workers form one metrics group) and a Celery
worker serving its metrics on a port of its own, both logging JSON lines."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from games.commands import lobby
from games.models import Game, Move
from tests.faults.helpers import client_for, user
from tests.processes import WebServer, Worker, free_port, running, wait_for

pytestmark = pytest.mark.postgres

GUNICORN_CONFIG = ("--config", "python:ttr_service.gunicorn_conf", "--graceful-timeout", "5")
REQUEST_ID = "trace-7f3a-0001"


def json_lines(log: Path) -> list[dict]:
    text = log.read_text() if log.exists() else ""
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def samples(url: str) -> dict[tuple[str, frozenset], float]:
    answer = httpx.get(url, timeout=10)
    assert answer.status_code == 200, answer.text
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(answer.text)
        for s in family.samples
    }


def _ai_kept_its_tickets(game_id: int) -> bool:
    return Move.objects.filter(game_id=game_id, seat=1).exists()


def test_a_request_id_reaches_the_task_it_queued_and_metrics_sum_the_group(worker_env, tmp_path):
    worker_port = free_port()
    env = {
        **worker_env,
        "LOG_FORMAT": "json",
        "METRICS_DIR": str(tmp_path / "metrics"),
        "METRICS_WORKER_PORT": str(worker_port),
    }
    web = WebServer(env, tmp_path, workers=2, worker_class="uvicorn", options=GUNICORN_CONFIG)
    with running(Worker(env, tmp_path / "worker.log")) as worker, running(web):
        host = user("host")
        game = lobby.game_create(
            host,
            board="europe",
            seats=[lobby.SeatSpec("creator"), lobby.SeatSpec("ai", level="random")],
            first_seat=1,
        )
        wait_for(lambda: _ai_kept_its_tickets(game.pk), 60, "the AI's first tickets")
        client = client_for(web, host)
        view = client.get(f"/games/{game.pk}").json()
        offered = [t["id"] for t in view["state"]["you"]["offered_tickets"]]
        answer = client.post(
            f"/games/{game.pk}/actions",
            json={
                "version": view["version"],
                "action": {"type": "keep_tickets", "tickets": offered},
            },
            headers={"X-Request-ID": REQUEST_ID},
        )
        assert answer.status_code == 200, answer.text
        assert answer.headers["X-Request-ID"] == REQUEST_ID

        # The AI's first turn, queued by that move, runs on the worker under its id.
        def task_line() -> dict | None:
            return next(
                (
                    line
                    for line in json_lines(worker.log)
                    if line.get("request_id") == REQUEST_ID
                    and line.get("task_name") == "games.tasks.play_ai_turns"
                ),
                None,
            )

        wait_for(lambda: task_line() is not None, 60, "the queued task's log line")
        assert task_line()["game_id"] == game.pk and task_line()["task_id"]
        (request_line,) = [
            line
            for line in json_lines(web.log)
            if line.get("request_id") == REQUEST_ID and line["logger"] == "ttr_service.requests"
        ]
        assert request_line["route"] == "/api/v1/games/<int:game_id>/actions"
        assert (request_line["status"], request_line["game_id"]) == (200, game.pk)
        assert {"time", "level", "message"} <= request_line.keys()

        # Requests spread over both web workers; any one scrape sums them.
        for _ in range(12):
            assert client.get("/boards").status_code == 200
        web_metrics = samples(f"{web.url}/metrics")
        boards = ("method", "GET"), ("route", "/api/v1/boards"), ("status", "200")
        assert web_metrics[("ttr_http_request_duration_seconds_count", frozenset(boards))] == 12
        assert web_metrics[("ttr_moves_total", frozenset({("kind", "person")}))] == 1
        streams = [k for k in web_metrics if k[0] == "ttr_event_streams_open"]
        assert len(streams) == 2  # one sample per web worker process

        # The worker's own port: its AI moves and decisions.
        worker_url = f"http://127.0.0.1:{worker_port}/metrics"
        ai_moved = ("ttr_moves_total", frozenset({("kind", "ai")}))

        def ai_turn_counted() -> bool:
            if Game.objects.get(pk=game.pk).state["current"] != 0:
                return False
            ai_moves = Move.objects.filter(game_id=game.pk, cause="ai").count()
            return samples(worker_url).get(ai_moved) == ai_moves

        wait_for(ai_turn_counted, 60, "the AI's turn, counted")
        ai_moves = Move.objects.filter(game_id=game.pk, cause="ai").count()
        worker_metrics = samples(worker_url)
        decided = ("ttr_ai_decision_seconds_count", frozenset({("level", "random")}))
        assert worker_metrics[decided] >= ai_moves >= 2
