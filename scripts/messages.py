"""The translation catalogues: refresh them from the code, or compile them.

    python scripts/messages.py            # makemessages in every folder with a locale/
    python scripts/messages.py --compile  # compilemessages for every catalogue

Refreshing runs Django's ``makemessages`` for Greek, Vietnamese and Russian inside each
top-level folder of the repository that holds a ``locale/`` directory (the apps,
``ttr_service``, ``engine``; ``web`` also for its JavaScript, domain ``djangojs``), with
``--no-obsolete --no-location``: a string no longer in the code leaves its catalogue, and
a new one arrives with an empty translation, which tests/i18n/ then refuses until it is
filled. Compiling writes the ``.mo`` files next to each ``.po`` (they are not committed);
``make install`` and the container image do it. Both need GNU gettext (``msgfmt``).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("el", "vi", "ru")
# Folders never searched: the virtual environment, build output, dependencies.
SKIPPED = {".venv", "build", "node_modules", "var", ".git"}
# Folders whose JavaScript holds marked strings too.
JAVASCRIPT = {"web"}


def localised_folders(root: Path = ROOT) -> list[Path]:
    """The top-level folders that keep catalogues (a ``locale/`` directory)."""
    return sorted(
        folder
        for folder in root.iterdir()
        if folder.is_dir() and folder.name not in SKIPPED and (folder / "locale").is_dir()
    )


# manage.py, run from inside a folder: Celery's Django fix-up puts the working directory
# first on sys.path, where ttr_service/http would then hide the standard library's http.
# Importing that first, from the repository's root, keeps it.
_PRELUDE = (
    "import os, sys; sys.path[0] = os.path.dirname(sys.argv[1]); import http, runpy; "
    "sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')"
)


def _manage(folder: Path, *args: str) -> None:
    command = [sys.executable, "-c", _PRELUDE, str(ROOT / "manage.py"), *args]
    subprocess.run(command, cwd=folder, check=True)


def refresh(folder: Path) -> None:
    languages = [arg for code in LANGUAGES for arg in ("-l", code)]
    common = [*languages, "--no-obsolete", "--no-location"]
    _manage(folder, "makemessages", *common)
    if folder.name in JAVASCRIPT:
        _manage(folder, "makemessages", "-d", "djangojs", *common)


def compile_all() -> None:
    ignored = [arg for name in sorted(SKIPPED) for arg in ("--ignore", name)]
    _manage(ROOT, "compilemessages", *ignored)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compile", action="store_true", help="compile every catalogue")
    options = parser.parse_args()
    if options.compile:
        compile_all()
        return
    for folder in localised_folders():
        print(f"{folder.name}/", flush=True)
        refresh(folder)


if __name__ == "__main__":
    main()
