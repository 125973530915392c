"""Hosts on one machine: Linux network namespaces joined by two bridges.

Every host is a network namespace with two links, each a veth pair whose other end sits on
a bridge in the root namespace: ``lan`` on the database subnet, ``side`` on the Redis
subnet (two /24s of 10.77.0.0/16). PostgreSQL listens on the data host's ``lan`` address
and Redis on its ``side`` address, so a host can lose Redis and keep the database (its
``side`` link down), or lose everything (both down). The root namespace holds each bridge's
``.1`` address: the test process is the client.

Names carry the test process's pid (``ttrh-<pid>-web1``, bridges ``ttrh<pid>a``, root
veth ends ``th<pid>h<n><l|s>``), so a run never meets another's, and ``sweep_stale`` removes
what a crashed run left behind (its pid is gone). Needs root. No Django and no pytest.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

PREFIX = "ttrh"
TEMP_ROOT = Path(tempfile.gettempdir())


def ip(*args: str, netns: str | None = None, check: bool = True) -> str:
    command = ["ip", *(("netns", "exec", netns, "ip") if netns else ()), *args]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if check and done.returncode:
        raise RuntimeError(f"{' '.join(command)}: {done.stderr.strip()}")
    return done.stdout


def namespaces_work() -> tuple[bool, str]:
    """Whether this machine lets us make a network namespace (root, and a kernel that
    allows it), and why not."""
    name = f"{PREFIX}-{os.getpid()}-probe"
    try:
        ip("netns", "add", name)
    except (RuntimeError, OSError) as exc:
        return False, str(exc)
    ip("netns", "del", name, check=False)
    return True, ""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _kill_namespace(name: str) -> None:
    pids = ip("netns", "pids", name, check=False).split()
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, ValueError):
            os.kill(int(pid), signal.SIGKILL)
    ip("netns", "del", name, check=False)


def sweep_stale() -> list[str]:
    """Remove the namespaces, links and temporary folders of runs whose process is gone."""
    removed = []
    for line in ip("netns", "list").splitlines():
        found = re.match(rf"({PREFIX}-(\d+)-\S+)", line)
        if found and not _alive(int(found.group(2))):
            _kill_namespace(found.group(1))
            removed.append(found.group(1))
    for line in ip("-o", "link", "show").splitlines():
        found = re.match(rf"\d+: ((?:{PREFIX}|th)(\d+)[a-z][a-z0-9]*)[@:]", line)
        if found and not _alive(int(found.group(2))):
            ip("link", "del", found.group(1), check=False)
            removed.append(found.group(1))
    for folder in TEMP_ROOT.glob(f"{PREFIX}-*"):
        found = re.match(rf"{PREFIX}-(\d+)-", folder.name)
        if found and not _alive(int(found.group(1))):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(str(folder))
    return removed


def _free_subnets() -> tuple[int, int]:
    """Two neighbouring third octets of 10.77.x.0/24 that no address here uses."""
    used = set(re.findall(r"inet 10\.77\.(\d+)\.", ip("-4", "addr", "show")))
    for third in range(0, 254, 2):
        if str(third) not in used and str(third + 1) not in used:
            return third, third + 1
    raise RuntimeError("no free pair of 10.77.x.0/24 subnets")


@dataclass
class Host:
    """One namespace: its name in the test (``web1``), the namespace, its two addresses."""

    name: str
    netns: str
    lan: str
    side: str

    def command(self, args: list[str]) -> list[str]:
        """``args`` run inside this host."""
        return ["ip", "netns", "exec", self.netns, *args]

    def links(self, up: bool, *which: str) -> None:
        """Set links ``lan`` and/or ``side`` (both when none named) down or up, on the
        host's side, as a pulled cable would."""
        for link in which or ("lan", "side"):
            ip("link", "set", "dev", link, "up" if up else "down", netns=self.netns)

    def cut(self, *which: str) -> None:
        self.links(False, *which)

    def mend(self, *which: str) -> None:
        self.links(True, *which)


class Network:
    """The bridges and hosts of one run, made by ``create`` and removed by ``destroy``
    (also after a failure half-way)."""

    def __init__(self, names: list[str]) -> None:
        self.pid = os.getpid()
        self.names = names
        self.hosts: dict[str, Host] = {}
        self.bridges = [f"{PREFIX}{self.pid}a", f"{PREFIX}{self.pid}b"]
        self.lan_net, self.side_net = (f"10.77.{t}" for t in _free_subnets())
        self.client_lan = f"{self.lan_net}.1"
        self.folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}-{self.pid}-", dir=TEMP_ROOT))
        os.chmod(self.folder, 0o755)

    def create(self) -> Network:
        for bridge, net in zip(self.bridges, (self.lan_net, self.side_net), strict=True):
            ip("link", "add", bridge, "type", "bridge")
            ip("addr", "add", f"{net}.1/24", "dev", bridge)
            ip("link", "set", bridge, "up")
        for index, name in enumerate(self.names):
            host = Host(
                name, f"{PREFIX}-{self.pid}-{name}", f"{self.lan_net}.{10 + index}",
                f"{self.side_net}.{10 + index}",
            )  # fmt: skip
            ip("netns", "add", host.netns)
            ip("link", "set", "lo", "up", netns=host.netns)
            for link, bridge, address in (
                ("lan", self.bridges[0], host.lan),
                ("side", self.bridges[1], host.side),
            ):
                outside = f"th{self.pid}h{index}{link[0]}"
                ip("link", "add", outside, "type", "veth", "peer", "name", f"{outside}x")
                ip("link", "set", f"{outside}x", "netns", host.netns)
                ip("link", "set", "dev", f"{outside}x", "name", link, netns=host.netns)
                ip("addr", "add", f"{address}/24", "dev", link, netns=host.netns)
                ip("link", "set", "dev", link, "up", netns=host.netns)
                ip("link", "set", outside, "master", bridge)
                ip("link", "set", outside, "up")
            self.hosts[name] = host
        return self

    def destroy(self) -> None:
        """Kill whatever still runs in the hosts, then remove them, the bridges and the
        temporary folder."""
        for index, name in enumerate(self.names):
            _kill_namespace(f"{PREFIX}-{self.pid}-{name}")
            for link in "ls":
                ip("link", "del", f"th{self.pid}h{index}{link}", check=False)
        for bridge in self.bridges:
            ip("link", "del", bridge, check=False)
        shutil.rmtree(self.folder, ignore_errors=True)
