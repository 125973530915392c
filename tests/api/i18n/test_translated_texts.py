# Greek and Cyrillic letters that look like Latin ones are meant here.
# ruff: noqa: RUF001
"""What a person reads comes in their language: a refusal's title, detail and field
errors; a notification's e-mail and push; the accounts' e-mails. In Greek, Vietnamese and
Russian, with the words the catalogues give (a missing translation would be English)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from rest_framework.test import APIClient

from accounts.languages import set_preference
from notifications import outbox
from notifications.models import Channel, Delivery, DeliveryStatus, Device, Kind
from notifications.push_message import PushMessage
from notifications.services import notification_send

LANGUAGES = ("el", "vi", "ru")

# POST /auth/login with {"username": 3}: the status phrase, the detail, and the rows of a
# missing field (DRF's words) and of a value of the wrong type (the service's).
REFUSAL = {
    "el": (
        "Εσφαλμένο αίτημα",
        "Το αίτημα έχει μη έγκυρα πεδία: password, username",
        "Αυτό το πεδίο είναι υποχρεωτικό.",
        "Αναμενόταν συμβολοσειρά, δόθηκε αριθμός.",
    ),
    "vi": (
        "Yêu cầu không hợp lệ",
        "Yêu cầu có các trường không hợp lệ: password, username",
        "Trường này là bắt buộc.",
        "Cần chuỗi, nhận được số.",
    ),
    "ru": (
        "Неверный запрос",
        "В запросе есть недопустимые поля: password, username",
        "Это поле обязательно.",
        "Ожидалось: строка; получено: число.",
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refusal_is_in_the_asked_language(api_client: APIClient, language: str) -> None:
    response = api_client.post(
        "/api/v1/auth/login", {"username": 3}, format="json", HTTP_ACCEPT_LANGUAGE=language
    )

    assert response.status_code == 400
    body = response.json()
    title, detail, required, wrong_type = REFUSAL[language]
    assert (body["code"], body["title"], body["detail"]) == ("VALIDATION_ERROR", title, detail)
    assert body["errors"] == [
        {"field": "password", "code": "REQUIRED", "detail": required},
        {"field": "username", "code": "WRONG_TYPE", "detail": wrong_type},
    ]


# DELETE /auth/tokens/<id> of no token of the caller's: a refusal the service words.
NO_TOKEN = {
    "el": ("Δεν βρέθηκε", "Δεν έχετε token με αυτό το id."),
    "vi": ("Không tìm thấy", "Bạn không có token nào với id này."),
    "ru": ("Не найдено", "У вас нет токена с таким id."),
}


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_service_refusal_is_in_the_accounts_language(
    make_user: Any, auth_client: Any, language: str
) -> None:
    alice = make_user("alice")
    set_preference(alice, language)

    response = auth_client(alice).delete("/api/v1/auth/tokens/999999", HTTP_ACCEPT_LANGUAGE="en")

    assert response.status_code == 404
    assert (response.json()["title"], response.json()["detail"]) == NO_TOKEN[language]


@pytest.mark.django_db
def test_throttling_is_explained_in_the_asked_language(
    api_client: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rest_framework.throttling import SimpleRateThrottle

    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "login", "1/min")
    login = {"username": "nobody", "password": "wrong-password"}
    api_client.post("/api/v1/auth/login", login, format="json")

    response = api_client.post(
        "/api/v1/auth/login", login, format="json", HTTP_ACCEPT_LANGUAGE="vi"
    )

    assert response.status_code == 429
    assert response.json()["title"] == "Quá nhiều yêu cầu"
    assert response.json()["detail"].startswith("Yêu cầu đã bị giới hạn tần suất. Hãy thử lại sau ")


# A notification of an invitation to game 12 from bob: its e-mail subject and the second
# line of its body.
INVITATION = {
    "el": ("Έχετε πρόσκληση σε παιχνίδι (παιχνίδι 12)", "Παίκτης: bob."),
    "vi": ("Bạn được mời vào một ván chơi (ván 12)", "Người chơi: bob."),
    "ru": ("Вас пригласили в партию (партия 12)", "Игрок: bob."),
}


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_notification_is_mailed_and_pushed_in_the_recipients_language(
    player: Any, recorded_pushes: list[PushMessage], language: str
) -> None:
    alice = player("alice")
    set_preference(alice, language)
    Device.objects.create(user=alice, platform="fcm", token="fcm-1")
    notification_send(alice, Kind.INVITATION, game_id=12, data={"username": "bob"})

    for channel in (Channel.EMAIL, Channel.PUSH):
        row = Delivery.objects.get(channel=channel)
        assert outbox.deliver(row.pk) == DeliveryStatus.DELIVERED

    subject, player_line = INVITATION[language]
    [message] = mail.outbox
    assert message.subject == subject
    assert message.body.splitlines() == [subject + ".", player_line]
    [push] = recorded_pushes
    assert (push.title, push.body) == (subject, message.body)
    assert push.data["type"] == "invitation"  # machine words stay as they are


@pytest.mark.django_db
def test_a_notification_of_a_player_without_a_choice_is_in_english(player: Any) -> None:
    notification_send(player("alice"), Kind.INVITATION, game_id=3)

    assert outbox.deliver(Delivery.objects.get(channel=Channel.EMAIL).pk) == "delivered"

    assert mail.outbox[0].subject == "You are invited to a game (game 3)"


# The verification e-mail's subject and the line that says how long its code works.
VERIFICATION = {
    "el": ("είναι ο κωδικός σας για το Ticket to Ride", "Ο κωδικός ισχύει μία φορά, για 24 ώρες."),
    "vi": ("là mã Ticket to Ride của bạn", "Mã chỉ dùng được một lần, trong vòng 24 giờ."),
    "ru": (
        "— ваш код для Ticket to Ride",
        "Код можно использовать один раз в течение 24 часов.",
    ),
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_verification_email_is_in_the_language_of_the_request_that_asked(
    api_client: APIClient, eager_tasks: None, language: str
) -> None:
    response = api_client.post(
        "/api/v1/auth/register",
        {"username": "alice", "password": "a-long-pass-phrase", "email": "alice@example.org"},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 201, response.content

    [message] = mail.outbox
    subject, lifetime = VERIFICATION[language]
    assert message.subject.endswith(subject)
    assert lifetime in message.body


@pytest.mark.django_db(transaction=True)
def test_the_accounts_choice_beats_the_language_of_the_request(
    make_user: Any, auth_client: Any, eager_tasks: None
) -> None:
    alice = make_user("alice")
    set_preference(alice, "ru")

    response = auth_client(alice).put(
        "/api/v1/auth/email",
        {"email": "alice@example.org"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="el",
    )

    assert response.status_code == 200, response.content
    [message] = mail.outbox
    assert message.body.startswith("Здравствуйте, alice!")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("language", "first_line"),
    [("el", "Γεια σας alice,"), ("vi", "Xin chào alice,"), ("ru", "Здравствуйте, alice!")],
)
def test_the_password_reset_email_is_in_the_asked_language(
    api_client: APIClient, make_user: Any, eager_tasks: None, language: str, first_line: str
) -> None:
    make_user("alice", email="alice@example.org")

    response = api_client.post(
        "/api/v1/auth/password/reset",
        {"email": "alice@example.org"},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )

    assert response.status_code == 202, response.content
    [message] = mail.outbox
    assert message.body.splitlines()[0] == first_line


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "detail"),
    [
        (
            "el",
            "Αυτός ο κωδικός πρόσβασης είναι πολύ σύντομος. "
            "Πρέπει να περιέχει τουλάχιστον 8 χαρακτήρες.",
        ),
        ("vi", "Mật khẩu này quá ngắn. Mật khẩu phải có ít nhất 8 ký tự."),
        ("ru", "Пароль слишком короткий. Он должен содержать не менее 8 символов."),
    ],
)
def test_djangos_password_rules_are_in_the_asked_language(
    api_client: APIClient, language: str, detail: str
) -> None:
    response = api_client.post(
        "/api/v1/auth/register",
        {"username": "alice", "password": "x7#kq"},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )

    assert response.status_code == 400
    rows = {row["code"]: row["detail"] for row in response.json()["errors"]}
    assert rows["PASSWORD_TOO_SHORT"] == detail
