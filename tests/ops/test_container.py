"""The container files, checked without a container engine.

The Dockerfile, .dockerignore and compose.yaml cannot be built or started here (no docker
engine on these machines), so this checks what can be read from them: the image runs as a
user that is not root; the commands the image and compose start name programs, modules and
options that exist in this checkout; exactly one beat is started; and every environment
variable they use is in the configuration table of docs/operations.md, while every variable
of the service in that table reaches its containers.
"""

from __future__ import annotations

import importlib
import inspect
import re
import subprocess
import tomllib
from pathlib import Path

import click
import pytest

from tests.containers import (
    celery_subcommand,
    command_of,
    compose,
    compose_variables,
    dockerfile,
    dockerfile_env,
    documented,
    image_command,
    interpolated,
)
from tests.processes import BIN, ROOT

APP_SERVICES = ("migrate", "web", "worker", "beat")
# Variables of the table compose does not pass on from the shell, and why: it builds the
# two URLs itself, and the others have no use in a container.
NOT_PASSED_ON = {
    "DATABASE_URL": "built from POSTGRES_*",
    "REDIS_URL": "the redis service",
    "SQLITE_PATH": "the embedded default only",
    "VAR_DIR": "the image's own folder",
    "DJANGO_SETTINGS_MODULE": "the image's code sets it",
}


# ------------------------------------------------------------------------------- image
def test_the_image_runs_as_a_user_that_is_not_root() -> None:
    instructions = dockerfile()
    users = [(i, rest) for i, (keyword, rest) in enumerate(instructions) if keyword == "USER"]
    assert users, "the Dockerfile has no USER: the container would run as root"
    index, user = users[-1]
    name = user.split(":")[0]
    assert name not in ("root", "0"), user
    # Made in the image before it is used, and nothing after it runs as root again.
    made = [rest for keyword, rest in instructions[:index] if keyword == "RUN"]
    assert any(re.search(rf"useradd\b[^&]*\b{re.escape(name)}\b", run) for run in made), made
    assert all(keyword not in ("RUN", "COPY", "ADD") for keyword, _ in instructions[index:]), (
        "steps after USER would leave files the user may not own"
    )


def test_the_image_uses_the_python_the_project_requires() -> None:
    # Each stage: the one that compiles the catalogues (FROM ... AS catalogues), the image.
    bases = [rest for keyword, rest in dockerfile() if keyword == "FROM"]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["requires-python"] == ">=3.11,<3.12"
    assert bases[-1].split()[1:] == [], "the last stage is the image, unnamed"
    for base in bases:
        assert re.fullmatch(r"python:3\.11(\.\d+)?-slim(-\w+)?", base.split()[0]), base


def test_the_image_command_is_the_asgi_server_on_the_asgi_application() -> None:
    command = image_command()
    assert command[0] == "gunicorn"
    assert (BIN / "gunicorn").exists(), "gunicorn is not installed from pyproject.toml"
    app = command[1]
    assert app == "ttr_service.asgi:application"
    worker_class = command[command.index("--worker-class") + 1]
    module, _, name = worker_class.rpartition(".")
    from gunicorn.workers.base import Worker

    assert issubclass(getattr(importlib.import_module(module), name), Worker)
    # An ASGI application: a coroutine function of (scope, receive, send).
    asgi_module, _, attribute = app.partition(":")
    application = getattr(importlib.import_module(asgi_module), attribute)
    call = application if inspect.isfunction(application) else application.__call__
    assert inspect.iscoroutinefunction(call), application
    assert list(inspect.signature(call).parameters)[-3:] == ["scope", "receive", "send"]


def test_gunicorn_accepts_the_image_command_and_loads_its_application(tmp_path: Path) -> None:
    """gunicorn's own --check-config: it parses every option and imports the application,
    as the container would start it (DEBUG off, as the image sets it)."""
    command = image_command()
    env = {
        "PATH": f"{BIN}:/usr/bin:/bin",
        **dockerfile_env(),
        "SECRET_KEY": "container-test-only-" + "k" * 40,
        "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        "HOME": str(tmp_path),
    }
    result = subprocess.run(
        [str(BIN / command[0]), *command[1:], "--check-config"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_build_context_holds_the_packages_the_service_runs() -> None:
    lines = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert lines[0] == "*", "an allow-list: everything left out first"
    allowed = {line[1:].rstrip("/") for line in lines if line.startswith("!")}
    find = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    packages = {pattern.rstrip("*") for pattern in find["packages"]["find"]["include"]}
    assert allowed == packages | {"manage.py", "pyproject.toml"}
    for path in allowed:
        assert (ROOT / path).exists(), path


# ----------------------------------------------------------------------------- compose
def test_compose_runs_the_services_from_the_image() -> None:
    services = compose()["services"]
    assert set(services) == {"postgres", "redis", *APP_SERVICES}
    for name in APP_SERVICES:
        assert services[name]["build"] == "."
        assert services[name]["environment"] == services["web"]["environment"], name
    assert services["migrate"]["command"] == ["python", "manage.py", "migrate", "--noinput"]
    assert (ROOT / "manage.py").exists()
    # Nothing of the service starts before the migrations ran.
    for name in ("web", "worker", "beat"):
        condition = services[name]["depends_on"]["migrate"]["condition"]
        assert condition == "service_completed_successfully", name


def test_compose_starts_exactly_one_beat_and_no_worker_with_one() -> None:
    services = compose()["services"]
    beats = [name for name in services if celery_subcommand(command_of(name)) == "beat"]
    assert beats == ["beat"]
    assert services["beat"]["deploy"]["replicas"] == 1
    worker = command_of("worker")
    assert celery_subcommand(worker) == "worker"
    assert not {"-B", "--beat"} & set(worker), worker
    assert celery_subcommand(command_of("web")) is None


@pytest.mark.parametrize("service", ["worker", "beat"])
def test_the_celery_commands_parse_and_name_the_project_app(service: str) -> None:
    """Celery's own command line parses the command with every option; its --app is the
    project's Celery app, with the lease-holding scheduler for the beat."""
    from celery.app.utils import find_app
    from celery.bin.base import CLIContext
    from celery.bin.celery import celery

    import ttr_service.celery

    command = command_of(service)
    assert (BIN / "celery").exists()
    # The group's options (--app), then the subcommand's, as `celery` parses them before it
    # runs anything.
    parser = celery.make_parser(celery.make_context("celery", ["--help"], resilient_parsing=True))
    options, rest, _ = parser.parse_args(command[1:])
    app = find_app(options["app"])
    assert app is ttr_service.celery.app
    name, *arguments = rest
    assert name == service
    subcommand = celery.get_command(click.Context(celery), name)
    assert subcommand is not None
    parent = click.Context(celery, obj=CLIContext(app=app, no_color=True, workdir=None))
    subcommand.make_context(name, arguments, parent=parent, resilient_parsing=False)
    assert app.conf.beat_scheduler == "ops.beat_lock:LeaderScheduler"


def test_every_variable_the_image_and_compose_use_is_documented() -> None:
    every, _ = documented()
    used = compose_variables() | set(dockerfile_env())
    missing = sorted(used - every)
    assert not missing, f"add these to the table of docs/operations.md: {missing}"


def test_every_variable_of_the_service_reaches_its_containers() -> None:
    every, tools = documented()
    passed = set(compose()["services"]["web"]["environment"])
    wanted = every - tools - set(NOT_PASSED_ON)
    missing = sorted(wanted - passed)
    assert not missing, f"pass these on in compose.yaml's x-service-environment: {missing}"
    # The two URLs point at compose's own servers.
    environment = compose()["services"]["web"]["environment"]
    assert interpolated(environment["DATABASE_URL"]).startswith("postgres://")
    assert "@postgres:5432/" in environment["DATABASE_URL"]
    assert environment["REDIS_URL"] == "redis://redis:6379/0"


def test_the_documented_tables_name_the_new_variables() -> None:
    """The reader of the table finds the variables in the rows it expects (the reader above
    would pass on an empty table)."""
    every, tools = documented()
    assert {"DATABASE_URL", "BEAT_LEASE_SECONDS", "WEB_REPLICAS", "POSTGRES_PASSWORD"} <= every
    assert {"TEST_DATABASE_URL", "WEB_REPLICAS", "POSTGRES_PASSWORD"} <= tools
    assert "DEBUG" not in tools
