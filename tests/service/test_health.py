import tomllib
from pathlib import Path
from unittest import mock

import pytest
from django.db import OperationalError
from django.db.backends.utils import CursorWrapper
from django.test import Client

pytestmark = pytest.mark.django_db

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def project_version() -> str:
    with PYPROJECT.open("rb") as fh:
        return str(tomllib.load(fh)["project"]["version"])


def test_it_reports_ok_when_the_database_answers(client: Client) -> None:
    response = client.get("/api/v1/health")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "ok", "database": "ok", "version": project_version()}


def test_it_reports_the_version_from_pyproject(client: Client) -> None:
    assert project_version() == "0.1.0"
    assert client.get("/api/v1/health").json()["version"] == "0.1.0"


def test_it_answers_503_when_the_database_fails(client: Client) -> None:
    with mock.patch.object(CursorWrapper, "execute", side_effect=OperationalError("gone")):
        response = client.get("/api/v1/health")

    assert response.status_code == 503
    assert response.json() == {
        "status": "error",
        "database": "error",
        "version": project_version(),
    }


def test_it_is_never_cached(client: Client) -> None:
    assert client.get("/api/v1/health")["Cache-Control"] == "no-store"


def test_it_needs_no_credentials_and_refuses_writes(client: Client) -> None:
    response = client.post("/api/v1/health", data={}, content_type="application/json")

    assert response.status_code == 405


def test_it_has_no_trailing_slash_variant(client: Client) -> None:
    assert client.get("/api/v1/health/").status_code == 404
