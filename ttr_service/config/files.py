"""The service's own files and its name for itself: where it keeps its files, its version,
and the secret key of a development checkout."""

from __future__ import annotations

import contextlib
import os
import tempfile
import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.core.management.utils import get_random_secret_key


def service_version(base_dir: Path) -> str:
    """In a checkout pyproject.toml is the one place the version is written; an installed
    wheel has no pyproject.toml beside it, so the package metadata says it."""
    pyproject = base_dir / "pyproject.toml"
    if pyproject.is_file():
        with pyproject.open("rb") as fh:
            return str(tomllib.load(fh)["project"]["version"])
    try:
        return version("ttr-service")
    except PackageNotFoundError:
        raise ImproperlyConfigured(
            "Cannot tell the service version: no pyproject.toml and ttr-service is not installed"
        ) from None


def checkout_secret_key(var_dir: Path) -> str:
    """The secret key kept in ``var/secret_key``, created on first use.

    Several processes may start at once (test workers, web and worker), so the key is
    written to a temporary file and published with ``os.link``, which refuses to replace a
    key another process published first.
    """
    path = var_dir / "secret_key"
    if not path.exists():
        fd, tmp = tempfile.mkstemp(dir=var_dir, prefix=".secret_key.")
        try:
            with os.fdopen(fd, "w") as fh:
                fh.write(get_random_secret_key())
            with contextlib.suppress(FileExistsError):
                os.link(tmp, path)
        finally:
            os.unlink(tmp)
    key = path.read_text().strip()
    if not key:
        raise ImproperlyConfigured(f"{path} is empty; delete it to have a new key generated")
    return key
