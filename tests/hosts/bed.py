"""The hosts bed: a data host (a private PostgreSQL cluster and a private redis-server),
two web hosts, two worker hosts and two beat hosts, each a network namespace
(``tests/hosts/network.py``) running the image's own commands (``tests/containers.py``),
from this checkout's venv, with ``ip netns exec``. No Django and no pytest.

web2 reaches PostgreSQL through the bed's proxy on the data host (``proxy.py``), which
forwards as it is until a test turns its fault on; everything else connects directly.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psycopg

from tests.containers import command_of, dockerfile_env, image_command, local_command, with_option
from tests.processes import ROOT, Process, service_env, wait_for

from .metrics import WORKER_PORT
from .network import Host, Network

HOST_NAMES = ["data", "web1", "web2", "worker1", "worker2", "beat1", "beat2"]
PG_PORT = 5432
PROXY_PORT = 6432
REDIS_PORT = 6379
WEB_PORT = 8000
START_LIMIT = 40


def postgres_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise AssertionError(f"no {name} under /usr/lib/postgresql/*/bin")
    return found[-1]


def as_postgres(args: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: its commands run as the ``postgres`` user."""
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


class HostProcess(Process):
    """A process started inside ``host`` (its own process group, killed whole). While
    ``wanted`` (from ``start`` to ``stop``), the bed's supervisor starts it again when it
    exits, as compose's ``restart: unless-stopped`` does."""

    def __init__(self, name: str, host: Host, args: list[str], env: dict[str, str], log: Path):
        super().__init__(name, log)
        self.host = host
        self.args = args
        self.env = env
        self.wanted = False

    def start(self) -> None:
        self.wanted = True
        self.spawn(self.host.command(self.args), self.env)

    def stop(self) -> None:
        self.wanted = False
        super().stop()

    def exited(self) -> int | None:
        """Its exit status, if it exited while wanted."""
        if not self.wanted or self.process is None:
            return None
        return self.process.poll()

    def signal(self, number: int) -> None:
        assert self.process is not None
        os.kill(self.process.pid, number)


class Postgres:
    """A cluster made with initdb in the bed's folder, listening on the data host's
    ``lan`` address; fsync off (the bed tests the network, not the disk)."""

    def __init__(self, host: Host, folder: Path) -> None:
        self.host = host
        self.folder = folder / "pg"
        self.log = folder / "postgres.log"
        self.url = f"postgres://postgres@{host.lan}:{PG_PORT}/ttr"

    def ctl(self, *args: str) -> None:
        command = self.host.command(as_postgres([postgres_bin("pg_ctl"), "-D", str(self.folder)]))
        subprocess.run([*command, *args], check=True, capture_output=True, timeout=60)

    def create(self) -> None:
        self.folder.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
            shutil.chown(self.log.parent, "postgres")
        subprocess.run(
            as_postgres([postgres_bin("initdb"), "-D", str(self.folder), "-A", "trust", "-U",
                         "postgres", "--no-sync"]),
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip
        with (self.folder / "pg_hba.conf").open("a") as hba:
            hba.write("host all all 10.77.0.0/16 trust\n")
        with (self.folder / "postgresql.conf").open("a") as conf:
            conf.write(
                f"listen_addresses = '{self.host.lan}'\nport = {PG_PORT}\n"
                f"unix_socket_directories = '{self.folder}'\nmax_connections = 200\n"
                "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
            )
        self.start()
        with psycopg.connect(self.url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as db:
            db.execute("CREATE DATABASE ttr")

    def start(self) -> None:
        self.ctl("-l", str(self.log), "-w", "-t", "60", "start")

    def stop(self) -> None:
        self.ctl("-m", "fast", "-w", "stop")


@dataclass
class Restart:
    name: str
    status: int
    at: float  # time.monotonic()


@dataclass
class Bed:
    network: Network
    postgres: Postgres
    redis: HostProcess
    proxy: HostProcess
    webs: list[HostProcess] = field(default_factory=list)
    workers: list[HostProcess] = field(default_factory=list)
    beats: list[HostProcess] = field(default_factory=list)
    # The services the supervisor started again, and why.
    restarts: list[Restart] = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)

    def supervise(self) -> None:
        """Start a service process again 1 s after it exits, until the bed stops."""

        def watch() -> None:
            while not self.stopping.wait(0.5):
                for process in self.services():
                    status = process.exited()
                    if status is not None and not self.stopping.wait(1):
                        self.restarts.append(Restart(process.name, status, time.monotonic()))
                        process.start()

        threading.Thread(target=watch, daemon=True).start()

    @property
    def data(self) -> Host:
        return self.network.hosts["data"]

    @property
    def redis_url(self) -> str:
        return f"redis://{self.data.side}:{REDIS_PORT}/0"

    def web_url(self, index: int) -> str:
        return f"http://{self.webs[index].host.lan}:{WEB_PORT}"

    def services(self) -> list[HostProcess]:
        return [*self.webs, *self.workers, *self.beats]

    def start_redis(self) -> None:
        self.redis.start()
        wait_for(lambda: answers(self.data.side, REDIS_PORT), 20, "the data host's Redis")

    def stop(self) -> None:
        self.stopping.set()
        for process in [*self.services(), self.proxy, self.redis]:
            with contextlib.suppress(Exception):
                process.stop()
        with contextlib.suppress(Exception):
            self.postgres.ctl("-m", "immediate", "stop")


def answers(host: str, port: int) -> bool:
    import socket

    with contextlib.suppress(OSError), socket.create_connection((host, port), 0.5):
        return True
    return False


def web_answers(url: str) -> bool:
    try:
        return httpx.get(f"{url}/api/v1/boards", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def service_environment(bed: Bed, database_url: str) -> dict[str, str]:
    """The image's environment, then the bed's: the data host's servers, fast sweeps and
    leases, no limits on the test's clients, and the metrics on."""
    env = {
        **service_env(database_url, bed.redis_url),
        **dockerfile_env(),
        "DJANGO_SETTINGS_MODULE": "ttr_service.settings",
        "SECRET_KEY": "hosts-test-only-" + "h" * 40,
        "SECURE_SSL_REDIRECT": "false",
        "ALLOWED_HOSTS": ",".join(h.lan for h in bed.network.hosts.values()),
        "THROTTLE_USER_RATE": "100000/min",
        "THROTTLE_ANON_RATE": "100000/min",
        "THROTTLE_LOGIN_RATE": "100000/min",
        "CELERY_VISIBILITY_TIMEOUT": "10",
        "AI_STUCK_SECONDS": "5",
        "BEAT_LEASE_SECONDS": "3",
        "NOTIFICATIONS_SWEEP_SECONDS": "1",
        "NOTIFICATIONS_LEASE_SECONDS": "10",
        "HEALTH_REQUIRE_WORKERS": "false",
        "WEB_CONCURRENCY": "2",
        # Each worker serves its metrics (tests/hosts/metrics.py); no token, so the web
        # hosts' /metrics answer the test's private address.
        "METRICS_WORKER_PORT": str(WORKER_PORT),
    }
    for name in ("PORT", "METRICS_TOKEN", "STREAM_HEARTBEAT_SECONDS", "STREAM_POLL_MS"):
        env.pop(name, None)
    return env


def make_bed(network: Network, logs: Path) -> Bed:
    """The bed's processes (none started yet); their logs go to ``logs``, which outlives
    the bed (PostgreSQL's stays with its cluster)."""
    folder = network.folder
    data = network.hosts["data"]
    postgres = Postgres(data, folder)
    redis = HostProcess(
        "redis", data,
        ["redis-server", "--bind", data.side, "--port", str(REDIS_PORT), "--save", "",
         "--appendonly", "no", "--protected-mode", "no", "--dir", str(folder)],
        dict(os.environ), logs / "redis.log",
    )  # fmt: skip
    proxy = HostProcess(
        "proxy", data,
        [sys.executable, "-m", "tests.hosts.proxy", f"{data.lan}:{PROXY_PORT}",
         f"{data.lan}:{PG_PORT}", "--delay", "0.3", "--drop", "0.05"],
        {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}, logs / "proxy.log",
    )  # fmt: skip
    bed = Bed(network, postgres, redis, proxy)
    direct = service_environment(bed, postgres.url)
    proxied = service_environment(bed, postgres.url.replace(f":{PG_PORT}/", f":{PROXY_PORT}/"))
    hosts = network.hosts
    for index, env in ((1, direct), (2, proxied)):
        host = hosts[f"web{index}"]
        command = [*local_command(image_command()), "--bind", f"{host.lan}:{WEB_PORT}"]
        bed.webs.append(HostProcess(f"web{index}", host, command, env, logs / f"web{index}.log"))
    for index in (1, 2):
        command = with_option(
            local_command(command_of("worker")), "--hostname", f"worker{index}@%h"
        )
        name = f"worker{index}"
        bed.workers.append(HostProcess(name, hosts[name], command, direct, logs / f"{name}.log"))
        name = f"beat{index}"
        command = with_option(local_command(command_of("beat")), "--schedule", str(folder / name))
        bed.beats.append(HostProcess(name, hosts[name], command, direct, logs / f"{name}.log"))
    return bed


def start_bed(bed: Bed) -> None:
    """The data host's servers, the migrations (as compose's ``migrate`` runs them, from
    web1), the proxy, then the workers, the first beat and the web servers. The second beat
    starts once the first holds the lease (``start_second_beat``)."""
    bed.postgres.create()
    bed.start_redis()
    env = service_environment(bed, bed.postgres.url)
    migrate = bed.webs[0].host.command(
        [str(Path(sys.executable)), "manage.py", "migrate", "--noinput"]
    )
    done = subprocess.run(migrate, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    bed.proxy.start()
    wait_for(lambda: answers(bed.data.lan, PROXY_PORT), 20, "the proxy")
    for process in [*bed.workers, bed.beats[0], *bed.webs]:
        process.start()
    for index in range(len(bed.webs)):
        wait_for(lambda i=index: web_answers(bed.web_url(i)), START_LIMIT, f"web{index + 1}")
    bed.supervise()


def lease_holder(database_url: str) -> str | None:
    with contextlib.suppress(psycopg.Error), psycopg.connect(database_url, connect_timeout=3) as db:
        row = db.execute(
            "SELECT holder FROM ops_beatlease WHERE name = 'beat' AND expires_at > now()"
        ).fetchone()
        return None if row is None else str(row[0])
    return None


def holds_lease(database_url: str, beat: HostProcess) -> bool:
    holder = lease_holder(database_url)
    return beat.process is not None and holder is not None and f":{beat.process.pid}:" in holder
