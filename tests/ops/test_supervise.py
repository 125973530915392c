"""scripts/supervise.py with stand-in programs: small Python processes that write their pid
to a file, sleep, exit or ignore signals as each case needs. Every wait is bounded."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.processes import wait_for

SUPERVISE = Path(__file__).resolve().parents[2] / "scripts" / "supervise.py"
FAST = ["--backoff-start", "0.2", "--backoff-cap", "0.8", "--stop-timeout", "3"]


def program(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def records_pid(path: Path, then: str = "time.sleep(60)") -> list[str]:
    """A program that appends its pid to ``path``, then runs ``then``."""
    return program(
        "import os, signal, sys, time\n"
        f"with open({str(path)!r}, 'a') as f: f.write(f'{{os.getpid()}}\\n')\n"
        f"{then}\n"
    )


def pids(path: Path) -> list[int]:
    return [int(line) for line in path.read_text().split()] if path.exists() else []


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is dead; only its parent has not collected it yet.
    with contextlib.suppress(FileNotFoundError):
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    return False


class Run:
    def __init__(self, tmp_path: Path, args: list[str]) -> None:
        self.log = tmp_path / "supervise.log"
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, str(SUPERVISE), *args],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def text(self) -> str:
        return self.log.read_text()

    def wait(self, timeout: float) -> int:
        return self.process.wait(timeout=timeout)

    def signal(self, sig: int) -> None:
        self.process.send_signal(sig)


@pytest.fixture
def supervise(tmp_path: Path) -> Iterator[list[Run]]:
    runs: list[Run] = []
    yield runs
    for run in runs:
        if run.process.poll() is None:
            os.killpg(run.process.pid, signal.SIGKILL)
            run.process.wait(10)
        print(run.text())


def start(runs: list[Run], tmp_path: Path, *args: str | list[str]) -> Run:
    flat: list[str] = []
    for arg in args:
        flat.extend(arg if isinstance(arg, list) else [arg])
    run = Run(tmp_path, flat)
    runs.append(run)
    return run


def test_a_program_that_keeps_exiting_is_restarted_with_doubling_waits(supervise, tmp_path):
    flaky = tmp_path / "flaky.pids"
    run = start(
        supervise,
        tmp_path,
        *FAST,
        "--restart=flaky",
        records_pid(flaky, "sys.exit(3)"),
        "--essential=web",
        program("import time; time.sleep(60)"),
    )
    wait_for(lambda: len(pids(flaky)) >= 5, 15, "five starts of the flaky program")
    run.signal(signal.SIGTERM)
    assert run.wait(10) == 0

    waits = re.findall(
        r"flaky \(pid \d+\) exited \(exit status 3\) after [\d.]+ s; "
        r"restarting in ([\d.]+) s",
        run.text(),
    )
    assert waits[:4] == ["0.2", "0.4", "0.8", "0.8"]


def test_the_wait_starts_over_once_a_program_has_run_a_while(supervise, tmp_path):
    steady = tmp_path / "steady.pids"
    run = start(
        supervise,
        tmp_path,
        *FAST,
        "--backoff-reset",
        "0.3",
        "--restart=steady",
        records_pid(steady, "time.sleep(0.5); sys.exit(1)"),
        "--essential=web",
        program("import time; time.sleep(60)"),
    )
    wait_for(lambda: len(pids(steady)) >= 4, 15, "four starts of the program")
    run.signal(signal.SIGTERM)
    assert run.wait(10) == 0

    waits = re.findall(r"steady .* restarting in ([\d.]+) s", run.text())
    assert len(waits) >= 3
    assert set(waits) == {"0.2"}


def test_a_killed_program_is_restarted_and_what_it_left_in_its_group_is_killed(supervise, tmp_path):
    # The worker stand-in starts a child of its own, as Celery's embedded beat is.
    worker, child = tmp_path / "worker.pids", tmp_path / "child.pids"
    spawn_child = f"import subprocess\nsubprocess.Popen({records_pid(child)!r})\ntime.sleep(60)"
    run = start(
        supervise,
        tmp_path,
        *FAST,
        "--restart=worker",
        records_pid(worker, spawn_child),
        "--essential=web",
        program("import time; time.sleep(60)"),
    )
    wait_for(lambda: len(pids(child)) == 1, 10, "the worker's child")
    (first,) = pids(worker)

    os.kill(first, signal.SIGKILL)

    wait_for(lambda: len(pids(worker)) == 2, 10, "the restarted worker")
    assert f"worker (pid {first}) exited (killed by SIGKILL)" in run.text()
    assert "restarting in 0.2 s" in run.text()
    wait_for(lambda: not alive(pids(child)[0]), 5, "the old worker's child to be killed")
    run.signal(signal.SIGINT)
    assert run.wait(10) == 0


@pytest.mark.parametrize(
    ("web_ends", "status"),
    [("sys.exit(7)", 7), ("sys.exit(0)", 1), ("os.kill(os.getpid(), signal.SIGKILL)", 137)],
)
def test_when_the_essential_program_exits_everything_stops_with_a_failure(
    supervise, tmp_path, web_ends, status
):
    worker, web = tmp_path / "worker.pids", tmp_path / "web.pids"
    run = start(
        supervise,
        tmp_path,
        *FAST,
        "--restart=worker",
        records_pid(worker),
        "--essential=web",
        records_pid(web, f"time.sleep(1)\n{web_ends}"),
    )

    assert run.wait(15) == status
    assert "web exited" in run.text()
    assert "stopping everything" in run.text()
    (worker_pid,) = pids(worker)
    assert not alive(worker_pid)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_signal_stops_every_program_and_exits_0(supervise, tmp_path, sig):
    worker, web = tmp_path / "worker.pids", tmp_path / "web.pids"
    run = start(
        supervise,
        tmp_path,
        *FAST,
        "--restart=worker",
        records_pid(worker),
        "--essential=web",
        records_pid(web),
    )
    wait_for(lambda: pids(worker) and pids(web), 10, "both programs")

    run.signal(sig)

    assert run.wait(10) == 0
    assert not alive(pids(worker)[0])
    assert not alive(pids(web)[0])
    assert f"{signal.Signals(sig).name} received; stopping everything" in run.text()


def test_a_program_that_ignores_sigterm_is_killed_after_the_stop_timeout(supervise, tmp_path):
    stubborn = tmp_path / "stubborn.pids"
    run = start(
        supervise,
        tmp_path,
        "--stop-timeout",
        "1",
        "--restart=stubborn",
        records_pid(stubborn, "signal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep(60)"),
        "--essential=web",
        program("import time; time.sleep(60)"),
    )
    wait_for(lambda: pids(stubborn), 10, "the program")
    began = time.monotonic()

    run.signal(signal.SIGTERM)

    assert run.wait(10) == 0
    assert 1 <= time.monotonic() - began < 5
    assert "stubborn did not stop; killing it" in run.text()
    assert not alive(pids(stubborn)[0])


def test_a_second_signal_kills_at_once(supervise, tmp_path):
    stubborn = tmp_path / "stubborn.pids"
    run = start(
        supervise,
        tmp_path,
        "--stop-timeout",
        "30",
        "--essential=stubborn",
        records_pid(stubborn, "signal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep(60)"),
    )
    wait_for(lambda: pids(stubborn), 10, "the program")
    run.signal(signal.SIGTERM)
    wait_for(lambda: "stopping stubborn" in run.text(), 5, "the stop to begin")

    run.signal(signal.SIGINT)

    assert run.wait(5) == 0
    assert not alive(pids(stubborn)[0])


def test_programs_get_sigterm_when_the_supervisor_is_killed(supervise, tmp_path):
    worker = tmp_path / "worker.pids"
    run = start(
        supervise,
        tmp_path,
        "--restart=worker",
        records_pid(worker),
        "--essential=web",
        program("import time; time.sleep(60)"),
    )
    wait_for(lambda: pids(worker), 10, "the program")

    run.process.kill()  # the supervisor only; its programs have process groups of their own
    run.wait(5)

    wait_for(lambda: not alive(pids(worker)[0]), 5, "the orphaned program to stop")


def test_a_program_that_cannot_be_started_stops_everything(supervise, tmp_path):
    run = start(
        supervise,
        tmp_path,
        "--restart=worker",
        program("import time; time.sleep(60)"),
        "--essential=web",
        str(tmp_path / "no-such-program"),
    )

    assert run.wait(15) == 127
    assert "cannot start web" in run.text()
    (started,) = re.findall(r"started worker \(pid (\d+)\)", run.text())
    assert not alive(int(started))


@pytest.mark.parametrize(
    "args",
    [[], ["--restart=worker"], ["--essential="], ["--backoff-start", "soon", "--essential=w", "x"]],
)
def test_a_command_line_without_programs_is_refused(args):
    result = subprocess.run(
        [sys.executable, str(SUPERVISE), *args], capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 2
    assert "usage: supervise.py" in result.stderr
