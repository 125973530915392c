"""Two real beats, started by mistake beside each other, on the test PostgreSQL database and
a private Redis server: only one sends the periodic tasks at any time, and another takes
over when it stops (at once after a clean stop, after the lease after a kill).

Each beat runs compose.yaml's beat command with a schedule file of its own. Nothing
consumes the queue, so Redis's list holds every message sent, in order, each with the
``origin`` header Celery gives it (``gen<pid>@host``): the sender. Limits: a sweep every
second, a lease of 3 s looked at every second; each wait is the limit it checks plus a
margin for a busy two-core machine.
"""

from __future__ import annotations

import itertools
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from tests.containers import command_of, local_command, with_option
from tests.processes import Process, RedisServer, running, service_env, wait_for
from tests.workers.conftest import database_url

pytestmark = pytest.mark.postgres

LEASE = 3
SWEEP_TASK = "games.tasks.sweep_deadlines"
# A beat's start on a busy machine (imports, Django, the broker connection).
START = 45


class Beat(Process):
    """compose.yaml's beat command, with a schedule file in the test's folder."""

    counter = itertools.count(1)

    def __init__(self, env: dict[str, str], folder: Path) -> None:
        number = next(self.counter)
        super().__init__(f"beat-{number}", folder / f"beat-{number}.log")
        self.env = env
        self.schedule = folder / f"beat-{number}.schedule"

    def start(self) -> None:
        command = with_option(local_command(command_of("beat")), "--schedule", str(self.schedule))
        self.spawn(command, self.env)

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def log_text(self) -> str:
        return self.log.read_text() if self.log.exists() else ""

    def leads(self) -> bool:
        return "Beat lease taken by" in self.log_text()

    def stands_by(self) -> bool:
        return "this beat stands by" in self.log_text()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[RedisServer]:
    with running(RedisServer(tmp_path)) as server:
        yield server


@pytest.fixture
def beat_env(transactional_db, broker: RedisServer) -> dict[str, str]:
    return {
        **service_env(database_url(), broker.url),
        "BEAT_LEASE_SECONDS": str(LEASE),
        "DEADLINE_SWEEP_SECONDS": "1",
        "NOTIFICATIONS_SWEEP_SECONDS": "1",
    }


def sent(broker: RedisServer) -> list[tuple[str, str]]:
    """(task, origin pid) of every message in the default queue, oldest first."""
    client = redis.Redis.from_url(broker.url)
    # kombu's Redis transport pushes on the left.
    messages = [json.loads(m) for m in reversed(client.lrange("celery", 0, -1))]
    return [
        (m["headers"]["task"], re.match(r"gen(\d+)@", m["headers"]["origin"]).group(1))  # type: ignore[union-attr]
        for m in messages
    ]


def senders(messages: list[tuple[str, str]]) -> list[str]:
    """The origins of the messages, each run of one sender once, in order."""
    return [pid for pid, _ in itertools.groupby(origin for _, origin in messages)]


def sweeps(messages: list[tuple[str, str]], pid: int) -> int:
    return sum(1 for task, origin in messages if task == SWEEP_TASK and origin == str(pid))


def test_two_beats_send_one_schedule_and_hand_over_when_the_sender_stops(
    beat_env: dict[str, str], broker: RedisServer, tmp_path: Path
) -> None:
    first, second = Beat(beat_env, tmp_path), Beat(beat_env, tmp_path)
    third = Beat(beat_env, tmp_path)
    try:
        first.start()
        second.start()
        wait_for(lambda: first.leads() or second.leads(), START, "a beat to take the lease")
        wait_for(lambda: first.stands_by() or second.stands_by(), START, "the other to stand by")
        leader, standby = (first, second) if first.leads() else (second, first)
        assert not standby.leads()

        # Both run: one sweep a second, all from the leader.
        window_start = time.monotonic()
        before = sweeps(sent(broker), leader.pid)
        time.sleep(8)
        during = sweeps(sent(broker), leader.pid) - before
        elapsed = time.monotonic() - window_start
        assert sweeps(sent(broker), standby.pid) == 0
        assert elapsed - 3 <= during <= elapsed + 1, (during, elapsed)

        # A clean stop gives the lease up: the other takes it at its next look (1 s).
        leader.stop()
        wait_for(standby.leads, LEASE / 3 + 10, "the standing-by beat to take over")
        count = sweeps(sent(broker), standby.pid)
        wait_for(lambda: sweeps(sent(broker), standby.pid) > count, 10, "its first sweeps")

        # A third beat started meanwhile stands by; killing the sender hands the lease to
        # it once the lease ran out.
        third.start()
        wait_for(third.stands_by, START, "the third beat to stand by")
        standby.kill()
        killed_at = time.monotonic()
        wait_for(third.leads, LEASE + LEASE / 3 + 10, "the third beat to take the expired lease")
        took = time.monotonic() - killed_at
        count = sweeps(sent(broker), third.pid)
        wait_for(lambda: sweeps(sent(broker), third.pid) > count, 10, "its first sweeps")
        print(f"The third beat took over {took:.1f} s after the kill (lease {LEASE} s)")

        messages = sent(broker)
        # One sender at a time, never two interleaved: first the leader, then the beat
        # that stood by, then the third.
        assert senders(messages) == [str(leader.pid), str(standby.pid), str(third.pid)]
    finally:
        for beat in (first, second, third):
            beat.stop()
            print(beat.name, beat.log_tail(1500))
