"""Run the service's processes and keep them running (scripts/serve starts it).

    python scripts/supervise.py [options] \\
        --restart=worker CMD ARG... \\
        --essential=web CMD ARG...

A ``--restart`` program is started again whenever it exits, after a wait that starts at
``--backoff-start`` seconds and doubles with each exit in a row, up to ``--backoff-cap``;
once it has run ``--backoff-reset`` seconds the wait starts over. Each exit is logged on
stderr with its status and the wait. When an ``--essential`` program exits, for any reason,
every other program is stopped and the supervisor exits non-zero (the program's own status,
or 1). SIGINT, SIGTERM or SIGHUP stops every program and exits 0; a second signal while
they stop kills them at once.

Each program runs in a process group of its own: a terminal's Ctrl-C reaches only the
supervisor, which stops the programs in order, and whatever a program leaves behind when
it dies (the Celery worker's embedded beat) is killed with it. Stopping a program sends
SIGTERM to its group and SIGKILL after ``--stop-timeout`` seconds. On Linux each program
also gets SIGTERM if the supervisor itself dies.

Standard library only: no Django, so it can be read and tested on its own.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from types import FrameType

POLL_SECONDS = 0.1
MARKERS = ("--restart=", "--essential=")
PR_SET_PDEATHSIG = 1


def log(message: str) -> None:
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    print(f"[{stamp}] supervise: {message}", file=sys.stderr, flush=True)


def describe(status: int) -> str:
    """Popen's return code in words: 'exit status 1' or 'killed by SIGKILL'."""
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        return f"killed by {name}"
    return f"exit status {status}"


def _die_with_parent() -> None:
    # Runs in the child between fork and exec: SIGTERM when the supervisor dies, so a
    # supervisor killed with SIGKILL leaves no program behind.
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


@dataclass
class Program:
    name: str
    argv: list[str]
    essential: bool
    process: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    wait: float = 0.0  # the next backoff
    restart_at: float | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(self.argv, process_group=0, preexec_fn=_die_with_parent)
        self.started = time.monotonic()
        self.restart_at = None
        log(f"started {self.name} (pid {self.process.pid}): {' '.join(self.argv)}")

    def exited(self) -> int | None:
        """The status of a program that has exited, after killing what it left in its
        group; None while it runs."""
        if self.process is None:
            return None
        if self.process.returncode is not None:
            return self.process.returncode
        pid = self.process.pid
        # WNOWAIT leaves the exited process unreaped, so its pid (the group's id) cannot
        # be reused before the group is killed.
        if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
            return None
        self.signal_group(signal.SIGKILL)
        return self.process.wait()

    def signal_group(self, sig: int) -> None:
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, sig)

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None


class Supervisor:
    def __init__(self, programs: list[Program], options: argparse.Namespace) -> None:
        self.programs = programs
        self.options = options
        self.signals: list[int] = []

    def on_signal(self, signum: int, frame: FrameType | None) -> None:
        self.signals.append(signum)

    def run(self) -> int:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, self.on_signal)
        for program in self.programs:
            program.wait = self.options.backoff_start
            try:
                program.start()
            except OSError as exc:  # not found, not executable: no use retrying
                log(f"cannot start {program.name}: {exc}; stopping everything")
                self.stop_all()
                return 127
        try:
            return self.watch()
        finally:
            self.stop_all()

    def watch(self) -> int:
        """Restart what may be restarted until a signal comes or an essential program
        exits; the supervisor's exit status."""
        while not self.signals:
            now = time.monotonic()
            for program in self.programs:
                if program.restart_at is not None:
                    if now >= program.restart_at:
                        self.restart(program, now)
                    continue
                status = program.exited()
                if status is None:
                    continue
                if program.essential:
                    log(f"{program.name} exited ({describe(status)}); stopping everything")
                    return status if status > 0 else (128 - status if status < 0 else 1)
                self.schedule_restart(program, status, now)
            time.sleep(POLL_SECONDS)
        log(f"{signal.Signals(self.signals[0]).name} received; stopping everything")
        return 0

    def restart(self, program: Program, now: float) -> None:
        try:
            program.start()
        except OSError as exc:
            log(f"cannot start {program.name}: {exc}")
            program.started = now
            self.schedule_restart(program, 127, now)

    def schedule_restart(self, program: Program, status: int, now: float) -> None:
        ran = now - program.started
        if ran >= self.options.backoff_reset:
            program.wait = self.options.backoff_start
        wait = program.wait
        program.wait = min(wait * 2, self.options.backoff_cap)
        program.restart_at = now + wait
        log(
            f"{program.name} (pid {program.pid}) exited ({describe(status)}) after {ran:.1f} s; "
            f"restarting in {wait:g} s"
        )

    def stop_all(self) -> None:
        """SIGTERM to every running program's group; SIGKILL to the groups of those that
        have not exited within the stop timeout, or at once on a further signal."""
        handled = len(self.signals)
        running = [p for p in self.programs if p.running()]
        for program in running:
            log(f"stopping {program.name} (pid {program.pid})")
            program.signal_group(signal.SIGTERM)
        deadline = time.monotonic() + self.options.stop_timeout
        while running and time.monotonic() < deadline and len(self.signals) == handled:
            running = [p for p in running if p.exited() is None]
            if running:
                time.sleep(POLL_SECONDS)
        for program in running:
            if program.exited() is None:
                log(f"{program.name} did not stop; killing it")
                program.signal_group(signal.SIGKILL)
                if program.process is not None:
                    program.process.wait()


def parse(argv: Sequence[str]) -> tuple[argparse.Namespace, list[Program]]:
    parser = argparse.ArgumentParser(
        prog="supervise.py", description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--backoff-start", type=float, default=1.0, metavar="SECONDS")
    parser.add_argument("--backoff-cap", type=float, default=30.0, metavar="SECONDS")
    parser.add_argument("--backoff-reset", type=float, default=60.0, metavar="SECONDS")
    parser.add_argument("--stop-timeout", type=float, default=10.0, metavar="SECONDS")
    starts = [i for i, arg in enumerate(argv) if arg.startswith(MARKERS)]
    head = list(argv[: starts[0]] if starts else argv)
    options = parser.parse_args(head)
    programs = []
    for start, end in zip(starts, [*starts[1:], len(argv)], strict=False):
        marker, _, name = argv[start].partition("=")
        command = list(argv[start + 1 : end])
        if not name or not command:
            parser.error(f"{argv[start]!r} needs a name and a command after it")
        programs.append(Program(name, command, essential=marker == "--essential"))
    if not programs:
        parser.error("no program given: --restart=NAME CMD... or --essential=NAME CMD...")
    return options, programs


def main(argv: Sequence[str] | None = None) -> int:
    options, programs = parse(sys.argv[1:] if argv is None else argv)
    return Supervisor(programs, options).run()


if __name__ == "__main__":
    sys.exit(main())
