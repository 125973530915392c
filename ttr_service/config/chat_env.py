"""Chat settings: how often a player may post at one table, and how often a player who is
away hears of new messages. Read from the environment; a bad value stops startup with
``ImproperlyConfigured`` naming its variable."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.core.exceptions import ImproperlyConfigured

from ttr_service.config import env
from ttr_service.config.account_env import Rate

# ``5/10s``, ``30/10min``, ``100/hour``: a count, then a period of an optional number of units.
_RATE = re.compile(r"([1-9][0-9]*)/([1-9][0-9]*)?(s|sec|second|m|min|minute|h|hour|d|day)")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@dataclass(frozen=True)
class Chat:
    post_rates: tuple[Rate, ...]
    """Messages one user may post in one game's rooms."""
    notice_minutes: int
    """At most one notice of new messages per game and recipient within this many minutes."""


def _rates(name: str, default: str) -> tuple[Rate, ...]:
    value = env.get_str(name) or default
    rates = []
    for item in value.split(","):
        match = _RATE.fullmatch(item.strip())
        if match is None:
            raise ImproperlyConfigured(
                f"Environment variable {name}: expected rates like 5/10s,30/10min "
                f"(<count>/[<number>]<s|min|hour|day>); got {item!r}"
            )
        units = int(match[2] or 1)
        rates.append(Rate(int(match[1]), units * _UNIT_SECONDS[match[3][0]]))
    return tuple(rates)


def chat_settings() -> Chat:
    return Chat(
        post_rates=_rates("CHAT_POST_RATES", "5/10s,30/10min"),
        notice_minutes=env.get_int("CHAT_NOTICE_MINUTES", 5, minimum=1),
    )
