# Greek and Cyrillic letters that look like Latin ones are meant here.
# ruff: noqa: RUF001
"""Russian counts take three forms (1 and 21: one; 2 to 4 and 22: few; 5 to 20: many),
chosen by the catalogue's Plural-Forms, on the service's real messages."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import translation

from accounts.lockout import lockout_detail
from accounts.mail import verification_message

LOCKED = (
    "Слишком много неудачных попыток входа: учётная запись заблокирована для этого адреса на "
    "{} после последней неудачной попытки."
)


@pytest.mark.parametrize(
    ("minutes", "words"),
    [(1, "1 минуту"), (2, "2 минуты"), (5, "5 минут"), (11, "11 минут"), (21, "21 минуту")],
)
def test_the_lockout_counts_its_minutes_in_russian(settings: Any, minutes: int, words: str) -> None:
    settings.AXES_COOLOFF_TIME = timedelta(minutes=minutes)

    with translation.override("ru"):
        assert lockout_detail() == LOCKED.format(words)


@pytest.mark.parametrize(
    ("hours", "words"), [(1, "1 часа"), (2, "2 часов"), (5, "5 часов"), (21, "21 часа")]
)
def test_the_verification_code_counts_its_hours_in_russian(hours: int, words: str) -> None:
    with translation.override("ru"):
        message = verification_message(username="alice", code="123456", hours=hours)

    assert f"Код можно использовать один раз в течение {words}." in message.body


@pytest.mark.parametrize(
    ("language", "one", "many"),
    [
        ("el", "για 1 λεπτό μετά", "για 5 λεπτά μετά"),
        ("vi", "trong 1 phút kể từ", "trong 5 phút kể từ"),
        ("en", "for 1 minute after", "for 5 minutes after"),
    ],
)
def test_the_other_languages_count_by_their_own_rules(
    settings: Any, language: str, one: str, many: str
) -> None:
    said = {}
    for minutes in (1, 5):
        settings.AXES_COOLOFF_TIME = timedelta(minutes=minutes)
        with translation.override(language):
            said[minutes] = lockout_detail()

    assert one in said[1] and many in said[5]
