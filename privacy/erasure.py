"""Erasing an account: every app's ``account_erase(user)``, in the order of ``ERASERS``.

Each app says what it keeps and what it erases of a user, in a module of its own; an app
added later appends its eraser here (by dotted path, so an app of any layer may). Each
eraser is safe to run again, so an erasure cut short (a worker lost) is simply run again
by the sweep. Matchmaking's goes first (no seek of the account is paired after it), then
the games' (leaving a running game may still read the account as it was); the accounts'
comes next to last, taking the account's name and every way to sign in; last, the games
that show the name go up a version, so no view kept of the old name is served again.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import User
from django.utils.module_loading import import_string

ERASERS: tuple[str, ...] = (
    # First, so that no pairing seats the account while the rest is erased.
    "matchmaking.erasure.account_erase",
    "games.commands.erasure.account_erase",
    "notifications.erasure.account_erase",
    "chat.erasure.account_erase",
    "idempotency.erasure.account_erase",
    "privacy.exports.account_erase",
    "accounts.erasure.account_erase",
    # After the accounts': a game the erasure ended may be recorded meanwhile, and its
    # recording drops the statistics of an account already erased (ratings.services).
    "ratings.erasure.account_erase",
    # Once renamed: every game that names the account shows its new name from a new version.
    "games.commands.erasure.account_games_renew",
)


def erasers() -> list[Callable[[User], None]]:
    return [import_string(path) for path in ERASERS]


def account_erase(user: User) -> None:
    """Run every app's eraser on ``user``."""
    for erase in erasers():
        erase(user)
