"""Everything under /api/ answers application/problem+json, with DEBUG on as with it off."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

PROBLEM = "application/problem+json"


@pytest.fixture(params=[True, False], ids=["debug", "production"])
def debug(request, settings):
    settings.DEBUG = request.param
    return request.param


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/games/abc",
        "/api/v1/games/abc/actions",
        "/api/v1/no-such-thing",
        "/api/v1/games/a\nb/rematch",
        "/api/v2/games",
        "/api\n/v2",
        "/api",
        "/api/",
    ],
)
def test_an_unknown_path_under_api_is_a_problem_not_a_page(debug, path):
    response = APIClient().get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == PROBLEM
    assert response.json()["code"] == "NOT_FOUND"
    # (The test client drops a line break from a URL, as Python's urlsplit does.)
    assert response.json()["instance"] == path.replace("\n", "")


@pytest.mark.parametrize(
    ("path", "instance"),
    [
        ("/api/v1/games/\U0001f682", "/api/v1/games/%F0%9F%9A%82"),
        ("/api/v1/games/a b", "/api/v1/games/a%20b"),
        ("/api/v1/games/100%", "/api/v1/games/100%25"),
        ("/api/v1/boards/europe/x?y", "/api/v1/boards/europe/x"),
    ],
)
def test_the_instance_is_a_uri_reference_percent_encoded(debug, path, instance):
    response = APIClient().get(path)
    assert response.status_code == 404
    assert response.json()["instance"] == instance


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_any_method_on_an_unknown_path_gets_the_same_404(debug, method):
    client = APIClient(enforce_csrf_checks=True)
    response = getattr(client, method)("/api/v1/auth/tokens/null,null")
    assert response.status_code == 404
    assert response["Content-Type"] == PROBLEM


def test_a_failure_under_api_is_a_problem_not_a_debug_page(debug, monkeypatch):
    from games.http import boards as games_http

    def broken(*args, **kwargs):
        raise RuntimeError("the view broke")

    monkeypatch.setattr(games_http, "board_summaries", broken)
    response = APIClient(raise_request_exception=False).get("/api/v1/boards")
    assert response.status_code == 500
    assert response["Content-Type"] == PROBLEM
    assert response.json()["code"] == "SERVER_ERROR"
    assert b"Traceback" not in response.content


def test_pages_outside_the_api_are_left_alone(debug):
    assert APIClient().get("/").status_code == 200
