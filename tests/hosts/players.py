"""The bed's clients: people who sign up, make games with AI seats and play them through
the web hosts' API, each in a thread, from the root namespace. No Django here.

A person polls its game view (``If-None-Match``) and, on its turn, waits ``Table.think``
seconds, then posts a move picked from ``legal-actions`` with an ``Idempotency-Key``,
retrying a request that got no answer, 502 or 503 (the same headers and body, so the
same key). The think time keeps the games going while the faults run; the last test sets
it to 0. Every answered move is kept with its web host and how long it took.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests import remote_play
from tests.remote_play import choose

PASSWORD = "a-long-Passphrase-42"
POLL_SECONDS = 0.4
GIVE_UP_SECONDS = 240


@dataclass
class Answered:
    web: int
    at: float  # time.monotonic() when it was sent
    seconds: float
    status: int
    code: str = ""  # a problem's code


@dataclass
class Person:
    name: str
    web: int
    client: httpx.Client
    token: str
    user_id: int
    game_id: int = 0
    seat: int = 0
    retries: int = 0
    moves: list[Answered] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@dataclass
class Table:
    people: list[Person]
    think: float
    stop: threading.Event = field(default_factory=threading.Event)
    threads: list[threading.Thread] = field(default_factory=list)

    @property
    def game_ids(self) -> list[int]:
        return sorted({p.game_id for p in self.people})

    def start(self) -> None:
        for person in self.people:
            thread = threading.Thread(
                target=play, args=(person, self, random.Random(person.user_id)), daemon=True
            )
            self.threads.append(thread)
            thread.start()

    def finish(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(30)

    def errors(self) -> list[str]:
        return [f"{p.name}: {e}" for p in self.people for e in p.errors]

    def moves_since(self, since: float, web: int | None = None) -> list[Answered]:
        return [
            m
            for p in self.people
            for m in p.moves
            if m.at >= since and (web is None or m.web == web)
        ]


def sign_up(base_url: str, web: int, name: str) -> Person:
    answer = httpx.post(
        f"{base_url}/api/v1/auth/register",
        json={"username": name, "password": PASSWORD},
        timeout=30,
    )
    assert answer.status_code == 201, answer.text
    body = answer.json()
    client = httpx.Client(
        base_url=f"{base_url}/api/v1",
        headers={"Authorization": f"Token {body['token']}"},
        timeout=60,
    )
    return Person(name, web, client, body["token"], int(body["user"]["id"]))


def answered(person: Person, method: str, url: str, **kwargs: Any) -> httpx.Response:
    """The request's answer, retried as a client would for up to ``GIVE_UP_SECONDS``."""
    return remote_play.answered(person, method, url, give_up=GIVE_UP_SECONDS, pause=0.3, **kwargs)


def problem_code(response: httpx.Response) -> str:
    try:
        return str(response.json().get("code", ""))
    except ValueError:
        return ""


def play(person: Person, table: Table, rng: random.Random) -> None:
    try:
        play_until_over(person, table, rng)
    except Exception as exc:  # reported by the test
        person.errors.append(f"{type(exc).__name__}: {exc}")


def play_until_over(person: Person, table: Table, rng: random.Random) -> None:
    game = f"/games/{person.game_id}"
    watch = remote_play.Watch(lambda headers: answered(person, "GET", game, headers=headers))
    while True:
        seen = watch.until_my_turn(table.stop, POLL_SECONDS)
        if seen != "turn":
            if seen not in ("finished", "stopped"):
                person.errors.append(seen)
            return
        response = answered(person, "GET", f"{game}/legal-actions")
        legal = response.json()
        if response.status_code != 200 or not legal["actions"]:
            time.sleep(POLL_SECONDS)
            continue
        time.sleep(table.think)
        sent = time.monotonic()
        response = answered(
            person,
            "POST",
            f"{game}/actions",
            json={"version": legal["version"], "action": choose(legal["actions"], rng)},
            headers={"Idempotency-Key": f"hosts-{person.game_id}-{legal['version']}"},
        )
        took = time.monotonic() - sent
        code = "" if response.status_code == 200 else problem_code(response)
        person.moves.append(Answered(person.web, sent, took, response.status_code, code))
        if response.status_code == 200:
            watch.etag, watch.view = response.headers.get("ETag"), response.json()
        elif response.status_code not in (409, 412):
            person.errors.append(f"POST {response.status_code} {response.text[:200]}")
            return
