"""Readers of the container files (Dockerfile, compose.yaml) and of the configuration table
of docs/operations.md: the container tests check them, and the beat and scale tests start
the processes with the commands they name. No Django and no pytest here."""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

import yaml

from tests.processes import BIN, ROOT


def documented() -> tuple[set[str], set[str]]:
    """The variables in docs/operations.md's configuration table: all of them, and those
    of rows that belong to one tool only (their meaning starts "... only:")."""
    text = (ROOT / "docs" / "operations.md").read_text()
    table = text.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    every: set[str] = set()
    tools: set[str] = set()
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not line.startswith("| `"):
            continue
        names = set(re.findall(r"`([A-Z][A-Z0-9_]*)`", cells[0]))
        every |= names
        if re.match(r"^[^:]* only:", cells[-1]):
            tools |= names
    return every, tools


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, (KEYWORD, arguments), continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text()
    joined = re.sub(r"\\\n(\s*#[^\n]*\n)*", " ", text)
    instructions = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            instructions.append((keyword.upper(), rest.strip()))
    return instructions


def dockerfile_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for keyword, rest in dockerfile():
        if keyword == "ENV":
            for item in shlex.split(rest):
                name, _, value = item.partition("=")
                env[name] = value
    return env


def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def interpolated(value: str) -> str:
    """A compose string with each ${VAR:-default} replaced by its default, ${VAR:?...} and
    ${VAR} by a placeholder, and $$ by $ (as compose does with an empty shell)."""

    def one(match: re.Match[str]) -> str:
        _, operator, rest = match.group(1), match.group(2), match.group(3)
        return rest if operator in (":-", "-") else "set-in-the-shell"

    value = re.sub(r"(?<!\$)\$\{([A-Z0-9_]+)(?:(:?[-?])([^}]*))?\}", one, value)
    return value.replace("$$", "$")


def compose_variables() -> set[str]:
    """Every variable compose.yaml reads from the shell or sets in a container."""
    text = (ROOT / "compose.yaml").read_text()
    names = set(re.findall(r"(?<!\$)\$\{([A-Z0-9_]+)", text))
    for service in compose()["services"].values():
        environment = service.get("environment") or {}
        if isinstance(environment, list):
            environment = dict(item.partition("=")[::2] for item in environment)
        names |= set(environment)
    return names


def command_of(name: str) -> list[str]:
    """The command a compose service runs (the image's CMD when it gives none), with the
    defaults of its ${...} filled in."""
    service = compose()["services"][name]
    command = service.get("command") or image_command()
    assert isinstance(command, list), f"{name}: write the command as a list (exec form)"
    return [interpolated(str(part)) for part in command]


def image_command() -> list[str]:
    (cmd,) = [rest for keyword, rest in dockerfile() if keyword == "CMD"]
    command = json.loads(cmd)  # the exec form: no shell between Docker and the server
    assert isinstance(command, list)
    return [str(part) for part in command]


def celery_subcommand(command: list[str]) -> str | None:
    if not command or command[0] != "celery":
        return None
    return next((part for part in command[1:] if not part.startswith("-")), None)


def local_command(command: list[str]) -> list[str]:
    """A container's command as this checkout runs it: its program from the venv."""
    program = BIN / command[0]
    return [str(program) if program.exists() else command[0], *command[1:]]


def with_option(command: list[str], option: str, value: str) -> list[str]:
    """``command`` with ``--option=value`` replaced (or added): a path of the container
    swapped for one of the test's."""
    kept = [part for part in command if not part.startswith(f"{option}=")]
    return [*kept, f"{option}={value}"]
