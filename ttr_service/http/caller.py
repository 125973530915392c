"""The user a request is made by."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request


def caller(request: Request) -> User:
    """The signed-in user of a request to a view that lets only signed-in users through
    (``IsAuthenticated``, the default permission). An anonymous request cannot get this
    far; if a view lets one through by mistake, it is refused as DRF refuses it."""
    user = request.user
    if isinstance(user, AnonymousUser):
        raise NotAuthenticated()
    return user
