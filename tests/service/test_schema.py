from pathlib import Path

import pytest
import yaml
from django.core.management import call_command
from django.test import Client

COMMITTED_SCHEMA = Path(__file__).resolve().parents[2] / "openapi" / "schema.yaml"


def test_the_schema_endpoint_serves_an_openapi_3_document(client: Client) -> None:
    response = client.get("/api/v1/schema", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    assert response.status_code == 200
    document = response.json()
    assert document["openapi"].startswith("3.")
    assert "/api/v1/health" in document["paths"]


def test_the_schema_endpoint_serves_yaml_by_default(client: Client) -> None:
    response = client.get("/api/v1/schema")

    assert response.status_code == 200
    assert yaml.safe_load(response.content)["openapi"].startswith("3.")


@pytest.mark.parametrize("page", ["/api/v1/docs", "/api/v1/redoc"])
def test_the_docs_pages_load_their_scripts_from_this_server(client: Client, page: str) -> None:
    response = client.get(page)

    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/drf_spectacular_sidecar/" in html
    assert "cdn.jsdelivr.net" not in html
    assert 'url: "/api/v1/schema"' in html or 'spec-url="/api/v1/schema"' in html


def test_the_committed_schema_matches_the_code(tmp_path: Path) -> None:
    fresh = tmp_path / "schema.yaml"
    call_command(
        "spectacular",
        "--api-version=v1",
        "--validate",
        "--fail-on-warn",
        f"--file={fresh}",
    )

    assert fresh.read_text() == COMMITTED_SCHEMA.read_text(), (
        "openapi/schema.yaml is out of date: run `make schema` and commit the result"
    )
