"""Compile the bots' hot modules with mypyc into build/native (``engine.bots.native``).

    .venv/bin/python scripts/build_native.py [--force]

Does nothing when the build there already matches the sources. Without a C compiler, or
when the compile fails, it says so and exits 0: the bots then run from their sources,
with the same moves, more slowly. ``make install`` runs it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.bots import native  # noqa: E402


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import Distribution

    work = native.BUILD_DIR.parent / "native-work"
    shutil.rmtree(native.BUILD_DIR, ignore_errors=True)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    os.chdir(ROOT)
    paths = [str(p.relative_to(ROOT)) for p in native.sources()]
    extensions = mypycify(paths, opt_level="3", group_name=native.GROUP, target_dir=str(work / "c"))
    dist = Distribution({"name": "ttr-native", "ext_modules": extensions})
    command = dist.get_command_obj("build_ext")
    command.build_lib = str(native.BUILD_DIR)  # type: ignore[attr-defined]
    command.build_temp = str(work / "obj")  # type: ignore[attr-defined]
    dist.run_command("build_ext")
    # Last: the stamp that makes the build usable.
    (native.NATIVE_DIR / native.DIGEST_FILE).write_text(native.sources_digest() + "\n")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--force", action="store_true", help="rebuild even if up to date")
    args = p.parse_args()
    os.environ.pop(native.PURE_ENV, None)
    if not args.force and native.usable():
        print(f"compiled bot modules up to date in {native.NATIVE_DIR.relative_to(ROOT)}")
        return 0
    if native.c_compiler() is None:
        print("no C compiler found: the bots run from their Python sources")
        return 0
    try:
        build()
    except Exception as exc:  # any failure leaves the sources in use
        shutil.rmtree(native.BUILD_DIR, ignore_errors=True)
        print(f"compiling the bot modules failed ({exc}); the bots run from their sources")
        return 0
    names = ", ".join(native.MODULES)
    print(f"compiled {names} into {native.NATIVE_DIR.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
