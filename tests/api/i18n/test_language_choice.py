# Greek and Cyrillic letters that look like Latin ones are meant here.
# ruff: noqa: RUF001
"""How a request's language is chosen: the account's stored preference (PATCH /auth/me),
else Accept-Language, else English; and Content-Language (with Vary: Accept-Language) on
every answer: successes, problems, unknown paths and streams."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.languages import set_preference
from accounts.models import LanguagePreference

pytestmark = pytest.mark.django_db

ME = "/api/v1/auth/me"


def said(response: Any) -> str:
    """The answer's language, after checking that caches are told it depends on the header."""
    assert "Accept-Language" in response["Vary"]
    return str(response["Content-Language"])


def test_an_account_follows_accept_language_until_it_chooses(
    make_user: Any, auth_client: Any
) -> None:
    client = auth_client(make_user("alice"))

    response = client.get(ME, HTTP_ACCEPT_LANGUAGE="el")

    assert response.json()["language"] is None
    assert said(response) == "el"


def test_a_chosen_language_is_stored_shown_and_beats_accept_language(
    make_user: Any, auth_client: Any
) -> None:
    alice = make_user("alice")
    client = auth_client(alice)

    changed = client.patch(ME, {"language": "ru"}, format="json", HTTP_ACCEPT_LANGUAGE="el")

    assert changed.status_code == 200, changed.content
    assert changed.json()["language"] == "ru"
    assert said(changed) == "ru"  # the answer to the change is already in the new language
    assert LanguagePreference.objects.get(user=alice).language == "ru"
    again = client.get(ME, HTTP_ACCEPT_LANGUAGE="el")
    assert (again.json()["language"], said(again)) == ("ru", "ru")


def test_null_goes_back_to_accept_language(make_user: Any, auth_client: Any) -> None:
    alice = make_user("alice")
    set_preference(alice, "vi")
    client = auth_client(alice)

    response = client.patch(ME, {"language": None}, format="json", HTTP_ACCEPT_LANGUAGE="el")

    assert response.status_code == 200
    assert (response.json()["language"], said(response)) == (None, "el")
    assert not LanguagePreference.objects.filter(user=alice).exists()
    assert said(client.get(ME, HTTP_ACCEPT_LANGUAGE="ru")) == "ru"


def test_a_patch_without_the_field_keeps_the_language(make_user: Any, auth_client: Any) -> None:
    alice = make_user("alice")
    set_preference(alice, "el")

    response = auth_client(alice).patch(ME, {}, format="json")

    assert (response.status_code, response.json()["language"]) == (200, "el")


def test_a_language_the_service_does_not_speak_is_refused_in_the_callers_language(
    make_user: Any, auth_client: Any
) -> None:
    alice = make_user("alice")
    set_preference(alice, "el")

    response = auth_client(alice).patch(ME, {"language": "fr"}, format="json")

    assert response.status_code == 400
    assert said(response) == "el"
    [row] = response.json()["errors"]
    assert row == {
        "field": "language",
        "code": "INVALID_CHOICE",
        "detail": 'Το "fr" δεν είναι έγκυρη επιλογή.',
    }
    assert LanguagePreference.objects.get(user=alice).language == "el"


def test_the_preference_is_read_with_the_token_in_one_query(
    make_user: Any, auth_client: Any, django_assert_num_queries: Any
) -> None:
    alice = make_user("alice")
    set_preference(alice, "vi")
    client = auth_client(alice)
    client.get("/api/v1/auth/tokens")  # the token's last use is recorded once a minute

    with django_assert_num_queries(2):  # the token (with the language), then the tokens
        response = client.get("/api/v1/auth/tokens", HTTP_ACCEPT_LANGUAGE="ru")

    assert said(response) == "vi"


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("ru-RU,ru;q=0.9", "ru"),
        ("el-GR", "el"),
        ("vi-VN,vi;q=0.9,en;q=0.5", "vi"),
        ("fr-FR,de;q=0.9,ru;q=0.1", "ru"),  # the first one the service speaks
        ("fr-FR,de;q=0.9", "en"),  # none it speaks: English
        ("zh", "en"),
        ("*", "en"),
        ("", "en"),
    ],
)
def test_accept_language_picks_the_first_language_the_service_speaks(
    api_client: APIClient, header: str, language: str
) -> None:
    response = api_client.get(ME, HTTP_ACCEPT_LANGUAGE=header)

    assert response.status_code == 401
    assert said(response) == language


def test_an_unknown_path_answers_in_the_asked_language(api_client: APIClient) -> None:
    response = api_client.get("/api/v1/no/such/thing", HTTP_ACCEPT_LANGUAGE="vi")

    assert response.status_code == 404
    assert said(response) == "vi"
    assert (response.json()["title"], response.json()["detail"]) == (
        "Không tìm thấy",
        "Không có tài nguyên này.",
    )


def test_a_success_without_a_token_says_its_language(api_client: APIClient) -> None:
    response = api_client.get("/api/v1/boards", HTTP_ACCEPT_LANGUAGE="ru")

    assert response.status_code == 200
    assert said(response) == "ru"


def test_a_stream_opens_in_the_accounts_language(make_user: Any, auth_client: Any) -> None:
    alice = make_user("alice")
    set_preference(alice, "el")
    client = auth_client(alice)
    ticket = client.post("/api/v1/stream-tickets").json()["ticket"]

    response = APIClient().get("/api/v1/stream", {"ticket": ticket}, HTTP_ACCEPT_LANGUAGE="ru")
    try:
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/event-stream")
        assert said(response) == "el"
    finally:
        response.close()


def test_a_refused_stream_answers_in_the_asked_language(api_client: APIClient) -> None:
    response = api_client.get(
        "/api/v1/stream", {"ticket": "sst_nonsense"}, HTTP_ACCEPT_LANGUAGE="ru"
    )

    assert response.status_code == 401
    assert said(response) == "ru"
    assert response.json()["detail"] == (
        "Это не билет потока этого сервиса, или его токен отозван; запросите новый."
    )


def test_a_replayed_answer_keeps_the_language_it_was_given_in(
    make_user: Any, auth_client: Any
) -> None:
    client = auth_client(make_user("alice"))
    key = {"HTTP_IDEMPOTENCY_KEY": "lang-1"}

    first = client.delete("/api/v1/auth/tokens/999999", HTTP_ACCEPT_LANGUAGE="el", **key)
    replay = client.delete("/api/v1/auth/tokens/999999", HTTP_ACCEPT_LANGUAGE="ru", **key)

    assert first.status_code == replay.status_code == 404
    assert replay["Idempotent-Replayed"] == "true"
    assert replay.content == first.content
    assert replay["Content-Language"] == "el"
    assert first.json()["detail"] == "Δεν έχετε token με αυτό το id."


@pytest.mark.parametrize(
    ("header", "language", "title"),
    [("ru-RU,ru;q=0.9", "ru", "Слишком большой запрос"), ("fr", "en", "Request Entity Too Large")],
)
def test_a_body_refused_before_django_answers_in_the_asked_language(
    header: str, language: str, title: str
) -> None:
    from tests.service.test_asgi_body_limit import call, oversize
    from ttr_service.asgi import application

    chunks = oversize()
    headers = [
        (b"content-length", str(sum(map(len, chunks))).encode()),
        (b"accept-language", header.encode()),
    ]

    client = call(application, "/api/v1/boards/europe/score", chunks, headers)

    assert client.status() == 413
    assert client.header(b"content-language") == language.encode()
    assert client.header(b"vary") == b"Accept-Language"
    assert client.json()["title"] == title


def test_under_djangos_asgi_handler_a_stream_speaks_the_accounts_language(
    make_user: Any, auth_client: Any
) -> None:
    # The service serves streams with Django's ASGI handler (ttr_service/serving.py): the
    # authentication runs in a thread, and the language it activates there must reach the
    # middleware's answer on the event loop.
    from asgiref.sync import async_to_sync
    from django.test import AsyncClient

    alice = make_user("alice")
    set_preference(alice, "el")
    ticket = auth_client(alice).post("/api/v1/stream-tickets").json()["ticket"]

    async def opened() -> Any:
        response = await AsyncClient().get(
            "/api/v1/stream", {"ticket": ticket}, headers={"Accept-Language": "ru"}
        )
        response.close()
        return response

    response = async_to_sync(opened)()

    assert response.status_code == 200
    assert said(response) == "el"
