"""The service on seven hosts of one machine, and network faults across them.

``make test-hosts`` (root; network namespaces). The bed (``bed.py``, ``network.py``):

- ``data``: a private PostgreSQL cluster (initdb in a temporary folder) on its ``lan``
  address, a private redis-server on its ``side`` address, and the test's proxy
  (``proxy.py``) in front of PostgreSQL for web2;
- ``web1``, ``web2``: the image's command (gunicorn, 2 uvicorn workers each);
- ``worker1``, ``worker2``: compose's worker command (2 pool processes each);
- ``beat1``, then ``beat2`` for the beat's fault: compose's beat command;
- the client: this process, in the root namespace, talking to the web hosts' addresses,
  and the webhook receiver on the bridge's address.

Twenty games of one person (driven by this process, half on each web host) and two
medium AI seats are played through every fault below, in this order; each test states its
limit. The people think ``THINK`` seconds before each move while the faults run, so that
the games outlast them, then play without pause (the last test): every game must finish,
pass ``check_integrity``, and have scored, notified, rated and called its webhooks once.

Measured on 2026-12-05: see docs/testing.md ("Hosts").
"""

from __future__ import annotations

import json
import math
import re
import signal
import statistics
import time
from collections import Counter
from collections.abc import Iterator
from datetime import datetime

import httpx
import pytest

from tests.notifications.receiver import Receiver, running_receiver
from tests.processes import wait_for
from tests.streams.sse_client import StreamReader

from . import metrics, records
from .bed import HOST_NAMES, Bed, holds_lease, make_bed, service_environment, start_bed
from .network import Network, namespaces_work, sweep_stale
from .players import Table, sign_up

pytestmark = [pytest.mark.hosts]

GAMES = 20
THINK = 2.5
# Fault a: how long the worker host is cut off, and the limit for every game it may have
# held to move on once it is back.
WORKER_CUT_SECONDS = 8
WORKER_BACK_LIMIT = 45
# Fault b: the cut's length and the limit for /health to see it and its end.
REDIS_CUT_SECONDS = 12
HEALTH_LIMIT = 10
# The hub notices the silent cut within about 3 s (its ping, unanswered) and polls the
# database from then on; STREAM_HEARTBEAT_SECONDS is the default 15.
STREAM_LIMIT = 5
# Fault c: BEAT_LEASE_SECONDS is 3, so a takeover is due within 4 s; this is the limit.
TAKEOVER_LIMIT = 15
# Fault d: how long the link is slow and lossy, and the p95 of web2's moves (the bucket
# that holds it in ttr_http_request_duration_seconds) it must show.
SLOW_SECONDS = 20
SLOW_P95 = 1.0
# Fault e: how long the data host is down, and the limit for everything to recover.
DOWN_SECONDS = 5
RECOVER_LIMIT = 60
# The end: every game finished, then every result and delivery recorded.
# From 10 s before the data host stopped to RECOVER_LIMIT after it started again.
RESTART_WINDOW: list[float] = []
FINISH_LIMIT = 180
SETTLE_LIMIT = 60


@pytest.fixture(scope="module")
def bed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bed]:
    works, why = namespaces_work()
    if not works:
        pytest.fail(f"network namespaces are not available here: {why}")
    stale = sweep_stale()
    if stale:
        print("removed what an earlier run left:", stale)
    network = Network(HOST_NAMES)
    made: Bed | None = None
    started = time.monotonic()
    try:
        network.create()
        logs = tmp_path_factory.mktemp("hosts")
        made = make_bed(network, logs)
        start_bed(made)
        print(f"bed up in {time.monotonic() - started:.1f} s")
        yield made
    finally:
        if made is not None:
            made.stop()
            for process in [made.redis, made.proxy, *made.services()]:
                print(f"--- {process.name}\n{process.log_tail(1500)}")
            print(f"the logs: {logs}")
        network.destroy()


@pytest.fixture(scope="module")
def receiver(bed: Bed) -> Iterator[Receiver]:
    with running_receiver(bed.network.client_lan) as found:
        yield found


@pytest.fixture(scope="module")
def table(bed: Bed, receiver: Receiver) -> Iterator[Table]:
    people = []
    ai = {"type": "ai", "level": "medium"}
    for index in range(GAMES):
        web = index % 2
        person = sign_up(bed.web_url(web), web, f"host-player{index}")
        hook = person.client.post(
            "/webhooks",
            json={"url": receiver.url, "name": "bed", "events": ["game_started", "game_over"]},
        )
        assert hook.status_code == 201, hook.text
        made = person.client.post(
            "/games", json={"board": "europe", "seats": [{"type": "creator"}, ai, ai]}
        )
        assert made.status_code == 201, made.text
        person.game_id = int(made.json()["id"])
        people.append(person)
    found = Table(people, think=THINK)
    found.start()
    try:
        yield found
    finally:
        found.finish()


def progress(bed: Bed, table: Table) -> dict[int, tuple[str, int]]:
    return records.progress(bed.postgres.url, table.game_ids)


def active(bed: Bed, table: Table) -> dict[int, int]:
    """The moves of each game still going."""
    return {g: n for g, (status, n) in progress(bed, table).items() if status == "active"}


def moved_on(bed: Bed, since: dict[int, int]) -> bool:
    """Every game of ``since`` has more moves than then, or is finished."""
    now = records.progress(bed.postgres.url, list(since))
    return all(status == "finished" or n > since[g] for g, (status, n) in now.items())


def health(url: str) -> dict[str, object]:
    try:
        answer = httpx.get(f"{url}/api/v1/health", timeout=5)
        return {**answer.json(), "code": answer.status_code}
    except (httpx.HTTPError, ValueError):
        return {"code": None}


def no_errors(table: Table) -> None:
    assert table.errors() == []


# ------------------------------------------------------------------------------- faults
AI_TASK = re.compile(r"Task games\.tasks\.play_ai_turns\[([0-9a-f-]+)\] (\w+)")


def ai_tasks_running(log: str) -> set[str]:
    """The AI tasks a worker's log shows received and not yet ended."""
    received, ended = set(), set()
    for task, what in AI_TASK.findall(log):
        (received if what == "received" else ended).add(task)
    return received - ended


def test_a_worker_host_cut_off_mid_ai_sequence(bed: Bed, table: Table) -> None:
    """worker1's links go down while an AI task runs on it and one of its connections is
    inside a transaction, for WORKER_CUT_SECONDS. worker2 goes on with the other games
    meanwhile (the cut worker's reserved messages come back to the queue after the
    visibility timeout); once the links are up, every game moves on within
    WORKER_BACK_LIMIT. No move is lost or doubled: the last test's integrity check.

    The metrics show it: worker1's ``ttr_moves_total{kind="ai"}`` (read on its host, over
    its loopback) stays put while it is cut off and worker2's grows; web1's /metrics reads
    ``ttr_celery_queue_depth`` meanwhile (printed: worker2 may keep the queue short)."""
    worker = bed.workers[0]
    host = worker.host
    other = bed.workers[1].host
    wait_for(lambda: len(active(bed, table)) == GAMES, 30, "every game to start")
    wait_for(
        lambda: (
            bool(ai_tasks_running(worker.log.read_text()))
            and records.in_transaction(bed.postgres.url, host.lan)
        ),
        60,
        "worker1 inside an AI turn",
    )
    others_before = metrics.ai_moves(metrics.worker(other))
    host.cut()
    cut_at = time.monotonic()
    running = ai_tasks_running(worker.log.read_text())
    before = active(bed, table)
    time.sleep(1)  # a move committed just before the cut is counted
    cut_moves = metrics.ai_moves(metrics.worker(host))
    depths = []
    while time.monotonic() < cut_at + WORKER_CUT_SECONDS:
        scrape = metrics.web(bed.web_url(0))
        assert scrape.has("ttr_celery_queue_depth")
        depths.append(int(scrape.value("ttr_celery_queue_depth")))
        time.sleep(1)
    during = active(bed, table)
    moves_at_end = metrics.ai_moves(metrics.worker(host))
    others_during = metrics.ai_moves(metrics.worker(other))
    host.mend()
    print(
        f"worker1 cut for {time.monotonic() - cut_at:.1f} s with {len(before)} games going, "
        f"running {running}; its AI moves {cut_moves:.0f} -> {moves_at_end:.0f}, worker2's "
        f"{others_before:.0f} -> {others_during:.0f}; queue depth meanwhile {depths}"
    )
    # Other games went on without it, and the metrics say who made their moves.
    assert sum(during.values()) > sum(before.values())
    assert moves_at_end == cut_moves
    assert others_during > others_before
    back = time.monotonic()
    wait_for(lambda: moved_on(bed, before), WORKER_BACK_LIMIT, "every game to move on")
    print(
        f"every game moved on {time.monotonic() - back:.1f} s after the links came back; "
        f"worker1's AI moves then {metrics.ai_moves(metrics.worker(host)):.0f}"
    )
    no_errors(table)


def test_b_web_host_cut_off_from_redis(bed: Bed, table: Table) -> None:
    """web1's link to Redis goes down for REDIS_CUT_SECONDS, its database link stays up.
    Its /health answers 503 with ``broker: error`` within HEALTH_LIMIT; its people still
    make moves. A game's event stream on web1 goes on from the database, every move once
    and in order: the cut is silent (no reset reaches web1), and the hub's subscription
    notices it by a ping that gets no answer, then reads the database every
    STREAM_POLL_SECONDS: each move stored during the cut streams within STREAM_LIMIT of
    being stored. After the cut /health is 200 again within HEALTH_LIMIT. web1's /metrics
    answers during the cut and counts the 503 answers of /health."""
    web = bed.webs[0]
    health_503 = metrics.requests(metrics.web(bed.web_url(0)), metrics.HEALTH_ROUTE, "503")
    going = active(bed, table)
    person = next(p for p in table.people if p.web == 0 and p.game_id in going)
    url = f"{bed.web_url(0)}/api/v1/games/{person.game_id}/events"
    reader = StreamReader(url, headers={"Authorization": f"Token {person.token}"}).start()
    opened_wall = time.time()
    try:
        assert reader.status == 200
        web.host.cut("side")
        cut_at, cut_wall = time.monotonic(), time.time()
        wait_for(
            lambda: (lambda h: h["code"] == 503 and h["broker"] == "error")(health(bed.web_url(0))),
            HEALTH_LIMIT,
            "web1's health to report the broker",
        )
        seen = health(bed.web_url(0))
        noticed = time.monotonic() - cut_at
        assert seen["database"] == "ok"
        scraped_at = time.monotonic()
        scrape = metrics.web(bed.web_url(0))
        print(
            f"web1's /metrics during the cut answered in {time.monotonic() - scraped_at:.1f} s, "
            f"queue depth {'read' if scrape.has('ttr_celery_queue_depth') else 'left out'}"
        )
        assert metrics.requests(scrape, metrics.HEALTH_ROUTE, "503") > health_503
        time.sleep(max(REDIS_CUT_SECONDS - (time.monotonic() - cut_at), 0))
        made = [m for m in table.moves_since(cut_at, web=0) if m.status == 200]
        web.host.mend("side")
        mended, mended_wall = time.monotonic(), time.time()
        wait_for(lambda: health(bed.web_url(0))["code"] == 200, HEALTH_LIMIT, "web1's health again")
        stored = records.move_times(bed.postgres.url, person.game_id)
        # How long after it was stored each move made after the stream opened came.
        lags = [
            (e.at - stored[e.data["version"]], cut_wall < stored[e.data["version"]] < mended_wall)
            for e in reader.events
            if e.event == "move" and stored[e.data["version"]] > opened_wall
        ]
        cut_lags = [lag for lag, during in lags if during]
        other_lags = [lag for lag, during in lags if not during]
        print(
            f"web1 cut from Redis: health said so after {noticed:.1f} s and was 200 again "
            f"{time.monotonic() - mended:.1f} s after the cut; {len(made)} moves on web1; "
            f"{len(cut_lags)} moves stored during the cut streamed at most "
            f"{max(cut_lags, default=0):.1f} s after they were stored (the others at most "
            f"{max(other_lags, default=0):.1f} s)"
        )
        assert cut_lags and max(cut_lags) <= STREAM_LIMIT
        assert made
    finally:
        reader.stop()
    versions = [e.data["version"] for e in reader.events if e.event == "move"]
    assert versions == list(range(versions[0], versions[0] + len(versions))), versions
    no_errors(table)


BEAT_SEND = re.compile(r"^Scheduler: Sending due task (\S+)")


def sends(log: str) -> list[tuple[datetime, str]]:
    """The periodic tasks a beat's log (LOG_FORMAT=json, the image's default) shows sent."""
    found = []
    for line in log.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        match = (
            BEAT_SEND.match(str(record.get("message", ""))) if isinstance(record, dict) else None
        )
        if match:
            found.append((datetime.fromisoformat(record["time"]), match.group(1)))
    return found


def test_c_beat_host_cut_off(bed: Bed, table: Table) -> None:
    """A second beat starts on beat2 and stands by. beat1's host is cut off: beat2 holds
    the lease within TAKEOVER_LIMIT. Back on the network, beat1 stands by. No periodic task
    was sent by both: every send of beat1 comes before beat2's first. Both web hosts'
    ``ttr_beat_lease_holder`` name beat2 (its pid) as the holder after the handover."""
    first, second = bed.beats
    assert holds_lease(bed.postgres.url, first)
    second.start()
    wait_for(lambda: "stands by" in second.log_tail(), 30, "beat2 to stand by")
    first.host.cut()
    cut_at = time.monotonic()
    wait_for(lambda: holds_lease(bed.postgres.url, second), TAKEOVER_LIMIT, "beat2 to lead")
    took = time.monotonic() - cut_at
    wait_for(lambda: bool(sends(second.log.read_text())), 10, "beat2 to send")
    first.host.mend()
    time.sleep(5)
    print(f"beat2 took the lease {took:.1f} s after beat1's host was cut off")
    assert holds_lease(bed.postgres.url, second)
    assert second.process is not None
    for index in range(2):
        holders = metrics.web(bed.web_url(index)).matching("ttr_beat_lease_holder")
        print(f"web{index + 1}'s ttr_beat_lease_holder: {[(h.labels, h.value) for h in holders]}")
        leading = [h.labels["holder"] for h in holders if h.value == 1]
        assert len(leading) == 1 and f":{second.process.pid}:" in leading[0], leading
    by_first = sends(first.log.read_text())
    by_second = sends(second.log.read_text())
    assert by_first and by_second
    assert max(at for at, _ in by_first) < min(at for at, _ in by_second)
    no_errors(table)


def test_d_slow_lossy_link_between_web2_and_the_database(bed: Bed, table: Table) -> None:
    """For SLOW_SECONDS the proxy between web2 and PostgreSQL delays every chunk from web2
    by 300 ms (a round trip takes 300 ms longer) and drops 5 % of the connections (new
    ones at once, open ones each second). web2's moves still succeed (a request whose
    connection is cut answers 503 and the client sends it again with the same
    Idempotency-Key); the p95 is printed. web2's move histogram
    (``ttr_http_request_duration_seconds``, the moves' route) shows the slow requests: the
    bucket holding the p95 of the requests answered during the fault is above SLOW_P95."""
    print(f"{len(active(bed, table))} games going")
    route = {"route": metrics.MOVE_ROUTE, "method": "POST"}
    histogram_before = metrics.web(bed.web_url(1), timeout=30).buckets(metrics.REQUESTS, **route)
    bed.proxy.signal(signal.SIGUSR1)
    slow_at = time.monotonic()
    time.sleep(SLOW_SECONDS)
    histogram = metrics.web(bed.web_url(1), timeout=30).buckets(metrics.REQUESTS, **route)
    bed.proxy.signal(signal.SIGUSR2)
    time.sleep(3)  # the moves sent during the fault get their answers
    served_p95 = metrics.quantile(histogram, histogram_before, 0.95)
    during = [m for m in table.moves_since(slow_at, web=1) if m.at < slow_at + SLOW_SECONDS]
    before = [m.seconds for m in table.moves_since(0, web=1) if m.at < slow_at]
    seconds = sorted(m.seconds for m in during)
    p95 = statistics.quantiles(seconds, n=20)[-1] if len(seconds) > 1 else seconds[0]
    normal = statistics.quantiles(before, n=20)[-1] if len(before) > 1 else 0.0
    print(
        f"web2 moves during the fault: {len(during)}, "
        f"{Counter(f'{m.status} {m.code}'.strip() for m in during)}; "
        f"p95 {p95:.2f} s (before: {normal:.2f} s); "
        f"retries so far {sum(p.retries for p in table.people)}; web2's histogram: "
        f"{histogram[math.inf] - histogram_before.get(math.inf, 0):.0f} moves, p95 at most "
        f"{served_p95} s"
    )
    assert [m for m in during if m.status == 200]
    assert served_p95 > SLOW_P95
    no_errors(table)


def test_e_data_host_restarted(bed: Bed, table: Table) -> None:
    """PostgreSQL and Redis stop (fast shutdown, SIGTERM) and start again after
    DOWN_SECONDS. Within RECOVER_LIMIT: both web hosts' /health is 200, every game still
    going has moved on, and a beat holds the lease again. A worker that held unacknowledged
    messages when Redis went exits (kombu's reconnection fails on them); the bed's
    supervisor starts it again, as compose's restart policy would: the test prints which
    processes were started again. A webhook sent just before the database went, whose
    delivery could not be recorded, is sent again (the same ``webhook-id``): the last test
    allows that for the receptions of this window (``RESTART_WINDOW``) only.

    web1's /metrics answers meanwhile, without the outbox's backlog (its read fails and is
    left out), and counts 503 answers; the backlog shows again once the database is back."""
    before = active(bed, table)
    print(f"{len(before)} games going")
    assert before, "the games ended before the faults did"
    scrape = metrics.web(bed.web_url(0))
    assert scrape.has("ttr_notification_outbox_backlog")
    answered_503 = metrics.answered_503(scrape)
    down_at = time.monotonic()
    bed.postgres.stop()
    bed.redis.stop()
    seen = health(bed.web_url(0))
    down = metrics.web(bed.web_url(0))
    assert not down.has("ttr_notification_outbox_backlog")
    assert metrics.answered_503(down) > answered_503
    time.sleep(max(DOWN_SECONDS - (time.monotonic() - down_at), 0))
    bed.postgres.start()
    bed.start_redis()
    up = time.monotonic()
    RESTART_WINDOW[:] = [down_at - 10, up + RECOVER_LIMIT]
    print(f"data host down {up - down_at:.1f} s; web1's health meanwhile: {seen}")
    assert seen["code"] in (None, 503)
    for index in range(2):
        wait_for(lambda i=index: health(bed.web_url(i))["code"] == 200, RECOVER_LIMIT, "health")
    wait_for(lambda: moved_on(bed, before), RECOVER_LIMIT, "every game to move on")
    wait_for(
        lambda: any(holds_lease(bed.postgres.url, b) for b in bed.beats), RECOVER_LIMIT, "a beat"
    )
    print(f"recovered {time.monotonic() - up:.1f} s after the data host came back")
    back = metrics.web(bed.web_url(0))
    print(
        f"web1's 503 answers across the restart: {metrics.answered_503(back) - answered_503:.0f}; "
        f"outbox backlog {back.value('ttr_notification_outbox_backlog'):.0f}"
    )
    assert back.has("ttr_notification_outbox_backlog")
    print("started again:", [(r.name, r.status, round(r.at - up, 1)) for r in bed.restarts])
    no_errors(table)


# ---------------------------------------------------------------------------------- end
def test_every_game_finishes_and_everything_happened_once(
    bed: Bed, table: Table, receiver: Receiver
) -> None:
    table.think = 0
    started = time.monotonic()

    def all_finished() -> bool:
        no_errors(table)
        return not active(bed, table)

    wait_for(all_finished, FINISH_LIMIT, "every game to finish")
    print(f"every game finished {time.monotonic() - started:.0f} s after the faults")
    url = bed.postgres.url
    report = records.integrity(service_environment(bed, url), table.game_ids)
    assert report["exit"] == 0 and report["checked"] == GAMES, report["problems"]
    wait_for(
        lambda: records.rows(url, "SELECT count(*) FROM ratings_ratedgame")[0][0] == GAMES,
        SETTLE_LIMIT,
        "every result recorded",
    )
    user_ids = [p.user_id for p in table.people]
    wait_for(
        lambda: all(s == "delivered" for _, s, _ in records.deliveries(url, user_ids)),
        SETTLE_LIMIT,
        "every webhook delivered",
    )
    time.sleep(3)  # more sweeps of every kind: none may add anything
    seats = {p.user_id: (p.game_id, p.seat) for p in table.people}
    assert records.once_each(url, seats) == []
    sent = records.deliveries(url, user_ids)
    assert len(sent) == 2 * GAMES  # game_started and game_over, one each
    assert set(Counter(n for n, _, _ in sent).values()) == {1}
    received = Counter(r.headers["webhook-id"] for r in receiver.requests)
    assert set(received) == {m for _, _, m in sent}
    twice = [m for m, n in received.items() if n > 1]
    print(f"webhooks received more than once (the data host's restart): {twice}")
    start, end = RESTART_WINDOW or [0.0, 0.0]
    outside = [
        r.headers["webhook-id"]
        for r in receiver.requests
        if r.headers["webhook-id"] in twice and not start <= r.at <= end
    ]
    assert outside == [], "a webhook was sent twice, not around the data host's restart"
    moves = sum(n for _, n in progress(bed, table).values())
    print(f"{GAMES} games, {moves} moves; client retries {sum(p.retries for p in table.people)}")
