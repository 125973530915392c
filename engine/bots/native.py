"""The bots' hot modules compiled with mypyc, used in place of their sources when built.

``scripts/build_native.py`` (run by ``make install``) compiles ``MODULES`` into
``build/native/engine/bots/`` and writes the digest of their sources there last. When
``engine.bots`` is imported, it imports this module first, which puts that folder first
on the package's ``__path__``, so
``import engine.bots.planner`` loads the compiled module, only if:

- ``TTR_PURE_PYTHON`` is not set to 1 (the switch to run the sources alone);
- the folder's digest equals the digest of the sources on disk now: a module edited after
  the build runs from its source until the next build, never as a stale compiled copy.

The compiled modules are the same code, so bots make the same moves either way (a test
plays games both ways and compares every action); they are only faster. Where no C
compiler is present the build is skipped and everything runs from the sources.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import sysconfig
from collections.abc import MutableSequence
from pathlib import Path

# Modules of this package that are compiled: the planner's paths and costs, the seat's
# knowledge, the tactics and trails the planning bots call every turn, and the sampling
# of hidden cards. Bot classes stay interpreted: tests and the look-ahead subclass and
# patch them.
MODULES = ("knowledge", "planner", "sampling", "tactics", "trails", "view")
# The mypyc group: its shared runtime is the module ``engine.bots.<GROUP>__mypyc``.
GROUP = "engine.bots._compiled"
PURE_ENV = "TTR_PURE_PYTHON"
DIGEST_FILE = "SOURCES.sha256"

PACKAGE_DIR = Path(__file__).resolve().parent
ROOT = PACKAGE_DIR.parents[1]
BUILD_DIR = ROOT / "build" / "native"
NATIVE_DIR = BUILD_DIR / "engine" / "bots"


def c_compiler() -> str | None:
    """The C compiler a build would use (``CC``, else Python's own, else ``cc``), or None."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(os.environ.get("CC", cc)) or shutil.which("cc")


def sources() -> list[Path]:
    return [PACKAGE_DIR / f"{name}.py" for name in MODULES]


def sources_digest(paths: list[Path] | None = None) -> str:
    """SHA-256 over the compiled modules' names and sources, in ``MODULES`` order."""
    h = hashlib.sha256()
    for path in sources() if paths is None else paths:
        h.update(path.name.encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def usable(native_dir: Path = NATIVE_DIR, paths: list[Path] | None = None) -> bool:
    """Whether ``native_dir`` holds a finished build of the sources as they are now."""
    if os.environ.get(PURE_ENV) == "1":
        return False
    stamp = native_dir / DIGEST_FILE
    try:
        built = stamp.read_text().strip()
    except OSError:
        return False
    return built == sources_digest(paths)


def enable(package_path: MutableSequence[str]) -> bool:
    """Put the compiled modules first on ``package_path`` (a package's ``__path__``) when
    they are usable; whether they are."""
    if not usable():
        return False
    folder = str(NATIVE_DIR)
    if folder not in package_path:
        package_path.insert(0, folder)
    return True


# Imported first by ``engine.bots``, whose ``__path__`` this extends.
ENABLED = enable(sys.modules[__package__].__path__)
