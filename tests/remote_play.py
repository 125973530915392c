"""What the multi-process suites (tests/scale, tests/hosts) share about people playing
from outside: a request retried as a client would, a view polled until the person's turn,
the quick player's choice, and how many "your turn" notices a seat was owed."""

from __future__ import annotations

import itertools
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx


class Caller(Protocol):
    client: httpx.Client
    retries: int


def answered(
    person: Caller, method: str, url: str, *, give_up: float, pause: float, **kwargs: Any
) -> httpx.Response:
    """The request's answer, retried (with the same headers and body, so the same
    Idempotency-Key) while the connection is refused or cut or the server says 502 or 503,
    as a client would, for up to ``give_up`` seconds, ``pause`` seconds apart."""
    end = time.monotonic() + give_up
    while True:
        try:
            response = person.client.request(method, url, **kwargs)
        except httpx.TransportError:
            if time.monotonic() > end:
                raise
            person.retries += 1
            time.sleep(pause)
            continue
        if response.status_code in (502, 503) and time.monotonic() < end:
            person.retries += 1
            time.sleep(pause)
            continue
        return response


def choose(actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A quick player: claim a route when it can, else draw cards; never more tickets."""
    for kinds in (
        ("keep_tickets",),
        ("pay_tunnel",),
        ("claim_route",),
        ("draw_face_up", "draw_blind"),
        ("decline_tunnel",),
    ):
        found = [a for a in actions if a["type"] in kinds]
        if found:
            return rng.choice(found)
    return rng.choice(actions)


def turns_given(moves: list[tuple[int | None, dict[str, Any] | None]], seat: int) -> int:
    """The turns ``seat`` was given, from the move log's (seat, action) in order: the first
    ticket choice, which every seat makes at once from the start, then each move of another
    seat followed by one of this seat (a seat that makes the last first choice and then
    plays first is not told again)."""
    given = 1
    first_choice_made = False
    for (before, _), (now, action) in itertools.pairwise([(None, None), *moves]):
        if now != seat:
            continue
        if not first_choice_made and action and action.get("type") == "keep_tickets":
            first_choice_made = True
            continue
        if before != seat:
            given += 1
    return given


@dataclass
class Watch:
    """A person's view of one game, polled with If-None-Match through ``get`` (a GET of
    the game's path with the given headers)."""

    get: Callable[[dict[str, str]], httpx.Response]
    etag: str | None = None
    view: dict[str, Any] = field(default_factory=dict)

    def until_my_turn(self, stop: threading.Event, poll_seconds: float) -> str:
        """``"turn"``, ``"finished"``, ``"stopped"``, or what went wrong."""
        while not stop.is_set():
            response = self.get({"If-None-Match": self.etag} if self.etag else {})
            if response.status_code == 200:
                self.etag, self.view = response.headers.get("ETag"), response.json()
            elif response.status_code != 304:
                return f"GET {response.status_code} {response.text[:200]}"
            if self.view.get("status") == "finished":
                return "finished"
            if self.view.get("your_turn"):
                return "turn"
            time.sleep(poll_seconds)
        return "stopped"
