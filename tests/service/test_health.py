"""The health check in-process: the rules it applies to the heartbeats it finds.

No worker runs here, so a fresh test database holds no heartbeat and the truthful answer
is 503 with ``workers: "missing"``. Tests that need a healthy answer write the heartbeat
rows with the same functions a worker uses; tests/faults/test_supervisor.py checks the
answer against real workers and a real beat.
"""

import tomllib
from datetime import timedelta
from pathlib import Path
from unittest import mock

import pytest
from django.db import OperationalError
from django.db.backends.utils import CursorWrapper
from django.test import Client
from django.utils import timezone

from ops import heartbeats, probes
from ops.models import TaskRun, WorkerHeartbeat
from tests.processes import RedisServer, free_port, running

pytestmark = pytest.mark.django_db

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def project_version() -> str:
    with PYPROJECT.open("rb") as fh:
        return str(tomllib.load(fh)["project"]["version"])


def fresh_worker_and_sweep(hostname: str = "celery@ttr-1", pid: int = 4242) -> None:
    heartbeats.beat(hostname, pid)
    heartbeats.task_run_record(heartbeats.SWEEP_TASK, hostname)


def worker_seen(seconds_ago: float, hostname: str = "celery@old", pid: int = 17) -> None:
    at = timezone.now() - timedelta(seconds=seconds_ago)
    WorkerHeartbeat.objects.create(hostname=hostname, pid=pid, started_at=at, seen_at=at)


def sweep_ran(seconds_ago: float) -> None:
    at = timezone.now() - timedelta(seconds=seconds_ago)
    TaskRun.objects.create(task=heartbeats.SWEEP_TASK, finished_at=at, hostname="celery@old")


@pytest.fixture(autouse=True)
def _default_limits(settings) -> None:
    """The defaults, whatever the environment of the test run says."""
    settings.WORKER_HEARTBEAT_SECONDS = 10
    settings.HEALTH_WORKER_MAX_AGE_SECONDS = 60
    settings.HEALTH_BEAT_MAX_AGE_SECONDS = 120
    settings.HEALTH_REQUIRE_WORKERS = True


def test_with_no_worker_ever_it_answers_503_workers_missing(client: Client) -> None:
    response = client.get("/api/v1/health")

    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "status": "error",
        "database": "ok",
        "broker": "ok",
        "workers": "missing",
        "beat": "missing",
        "worker_heartbeats": [],
        "beat_age_seconds": None,
        "worker_max_age_seconds": 60,
        "beat_max_age_seconds": 120,
        "workers_required": True,
        "version": project_version(),
    }


def test_it_reports_ok_with_a_fresh_worker_and_a_recent_sweep(client: Client) -> None:
    fresh_worker_and_sweep()

    response = client.get("/api/v1/health")

    assert response.status_code == 200
    body = response.json()
    (seen,) = body.pop("worker_heartbeats")
    assert seen["hostname"] == "celery@ttr-1"
    assert seen["pid"] == 4242
    assert 0 <= seen["age_seconds"] < 5
    assert 0 <= body.pop("beat_age_seconds") < 5
    assert body == {
        "status": "ok",
        "database": "ok",
        "broker": "ok",
        "workers": "ok",
        "beat": "ok",
        "worker_max_age_seconds": 60,
        "beat_max_age_seconds": 120,
        "workers_required": True,
        "version": project_version(),
    }


def test_it_reports_the_version_from_pyproject(client: Client) -> None:
    assert project_version() == "0.1.0"
    assert client.get("/api/v1/health").json()["version"] == "0.1.0"


def test_workers_seen_only_longer_ago_than_the_limit_are_stale(client: Client) -> None:
    heartbeats.task_run_record(heartbeats.SWEEP_TASK, "celery@ttr-1")
    worker_seen(61)

    response = client.get("/api/v1/health")

    assert response.status_code == 503
    body = response.json()
    assert (body["status"], body["workers"], body["beat"]) == ("error", "stale", "ok")
    assert body["worker_heartbeats"][0]["hostname"] == "celery@old"
    assert 60 < body["worker_heartbeats"][0]["age_seconds"] < 70


def test_one_fresh_worker_is_enough_and_is_listed_first(client: Client) -> None:
    worker_seen(300)
    fresh_worker_and_sweep()

    response = client.get("/api/v1/health")

    assert response.status_code == 200
    assert response.json()["workers"] == "ok"
    names = [w["hostname"] for w in response.json()["worker_heartbeats"]]
    assert names == ["celery@ttr-1", "celery@old"]


def test_a_sweep_older_than_the_limit_makes_the_beat_stale(client: Client) -> None:
    heartbeats.beat("celery@ttr-1", 4242)
    sweep_ran(121)

    response = client.get("/api/v1/health")

    assert response.status_code == 503
    body = response.json()
    assert (body["workers"], body["beat"]) == ("ok", "stale")
    assert 120 < body["beat_age_seconds"] < 130


def test_the_limits_come_from_the_settings(client: Client, settings) -> None:
    settings.HEALTH_WORKER_MAX_AGE_SECONDS = 400
    settings.HEALTH_BEAT_MAX_AGE_SECONDS = 400
    worker_seen(300)
    sweep_ran(300)

    body = client.get("/api/v1/health").json()

    assert (body["status"], body["workers"], body["beat"]) == ("ok", "ok", "ok")
    assert (body["worker_max_age_seconds"], body["beat_max_age_seconds"]) == (400, 400)


def test_without_workers_required_the_database_and_broker_decide(client: Client, settings):
    settings.HEALTH_REQUIRE_WORKERS = False

    response = client.get("/api/v1/health")

    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["workers"], body["beat"]) == ("ok", "missing", "missing")
    assert body["workers_required"] is False


def test_it_answers_503_when_the_database_fails(client: Client) -> None:
    fresh_worker_and_sweep()
    with mock.patch.object(CursorWrapper, "execute", side_effect=OperationalError("gone")):
        response = client.get("/api/v1/health")

    assert response.status_code == 503
    assert response.json() == {
        "status": "error",
        "database": "error",
        "broker": "ok",
        "workers": "unknown",
        "beat": "unknown",
        "worker_heartbeats": [],
        "beat_age_seconds": None,
        "worker_max_age_seconds": 60,
        "beat_max_age_seconds": 120,
        "workers_required": True,
        "version": project_version(),
    }


def test_a_database_without_the_heartbeat_tables_counts_as_failing(client: Client) -> None:
    fresh_worker_and_sweep()
    with mock.patch.object(heartbeats, "workers", side_effect=OperationalError("no table")):
        body = client.get("/api/v1/health").json()

    assert (body["status"], body["database"], body["workers"]) == ("error", "error", "unknown")


def test_a_redis_broker_that_refuses_connections_answers_503(client: Client, settings) -> None:
    fresh_worker_and_sweep()
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{free_port()}/0"

    response = client.get("/api/v1/health")

    assert response.status_code == 503
    assert (response.json()["broker"], response.json()["workers"]) == ("error", "ok")


def test_a_redis_broker_that_answers_ping_is_ok(client: Client, settings, tmp_path) -> None:
    fresh_worker_and_sweep()
    with running(RedisServer(tmp_path)) as server:
        settings.CELERY_BROKER_URL = server.url
        response = client.get("/api/v1/health")

    assert response.status_code == 200
    assert response.json()["broker"] == "ok"


def test_a_filesystem_broker_needs_its_folders(client: Client, settings, tmp_path) -> None:
    fresh_worker_and_sweep()
    folders = {
        key: tmp_path / key
        for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder")
    }
    for folder in folders.values():
        folder.mkdir()
    settings.CELERY_BROKER_URL = "filesystem://"
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {k: str(v) for k, v in folders.items()}
    assert client.get("/api/v1/health").json()["broker"] == "ok"

    folders["control_folder"].rmdir()
    response = client.get("/api/v1/health")

    assert response.status_code == 503
    assert response.json()["broker"] == "error"


def test_another_transport_is_asked_for_a_connection(settings) -> None:
    settings.CELERY_BROKER_URL = "memory://"
    assert probes.broker_answers()


def test_it_is_never_cached(client: Client) -> None:
    assert client.get("/api/v1/health")["Cache-Control"] == "no-store"
    fresh_worker_and_sweep()
    assert client.get("/api/v1/health")["Cache-Control"] == "no-store"


def test_it_needs_no_credentials_and_refuses_writes(client: Client) -> None:
    response = client.post("/api/v1/health", data={}, content_type="application/json")

    assert response.status_code == 405


def test_it_has_no_trailing_slash_variant(client: Client) -> None:
    assert client.get("/api/v1/health/").status_code == 404
