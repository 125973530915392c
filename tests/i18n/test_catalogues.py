"""Every translation catalogue in the repository is complete and sound, and every string
the code marks for translation is in its folder's catalogues for Greek, Vietnamese and
Russian: a newly marked string fails here until `make messages` brings it in and someone
translates it.

What the code marks is read by ``makemessages`` itself, run over a copy of each top-level
folder for its Python and templates (domain ``django``) and its JavaScript (``djangojs``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path

import polib
import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("el", "vi", "ru")
# The plural forms each language has (Russian: one, few, many).
PLURALS = {"el": 2, "vi": 1, "ru": 3}
# Not the service's code: no catalogue is looked for in these.
NOT_CODE = {".venv", ".git", "build", "node_modules", "var", "tests", "scripts", "bench",
            "typings", "docs", "openapi"}  # fmt: skip

# %(name)s style placeholders (with their conversion), and DRF's {name} ones.
PERCENT = re.compile(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]|%%")
BRACES = re.compile(r"\{(\w*)\}")


def catalogues() -> list[Path]:
    return sorted(
        path
        for path in ROOT.glob("**/locale/*/LC_MESSAGES/*.po")
        if not NOT_CODE & set(path.relative_to(ROOT).parts[:1])
    )


def code_folders() -> list[Path]:
    return sorted(
        folder
        for folder in ROOT.iterdir()
        if folder.is_dir() and folder.name not in NOT_CODE and not folder.name.startswith(".")
    )


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_there_are_catalogues() -> None:
    # The service's own catalogues at least; a glob that found nothing would pass the rest.
    found = {_name(p) for p in catalogues()}
    for app in ("ttr_service", "accounts", "notifications", "idempotency", "privacy"):
        for language in LANGUAGES:
            assert f"{app}/locale/{language}/LC_MESSAGES/django.po" in found


def placeholders(text: str) -> tuple[list[str], list[str]]:
    return sorted(PERCENT.findall(text)), sorted(BRACES.findall(text))


def _problems(entry: polib.POEntry, nplurals: int) -> list[str]:
    said = f"{entry.msgctxt + ' | ' if entry.msgctxt else ''}{entry.msgid!r}"
    out = []
    if "fuzzy" in entry.flags:
        out.append(f"{said} is fuzzy")
    if entry.msgid_plural:
        forms = [entry.msgstr_plural.get(i, "") for i in range(nplurals)]
        if len(entry.msgstr_plural) != nplurals or not all(forms):
            out.append(f"{said} lacks some of its {nplurals} plural forms")
        sources = [entry.msgid, entry.msgid_plural]
        for i, form in enumerate(forms):
            if form and all(placeholders(form) != placeholders(s) for s in sources):
                out.append(f"{said}: form {i} changes the placeholders")
    else:
        if not entry.msgstr:
            out.append(f"{said} is not translated")
        elif placeholders(entry.msgstr) != placeholders(entry.msgid):
            out.append(f"{said} changes the placeholders: {entry.msgstr!r}")
    return out


@pytest.mark.parametrize("path", catalogues(), ids=_name)
def test_a_catalogue_is_complete_and_keeps_every_placeholder(path: Path) -> None:
    language = path.parent.parent.name
    catalogue = polib.pofile(str(path))
    header = catalogue.metadata.get("Plural-Forms", "")
    nplurals = PLURALS[language]
    assert f"nplurals={nplurals};" in header.replace(" ", ""), (
        f"{_name(path)}: Plural-Forms should have {nplurals} forms: {header!r}"
    )
    assert not catalogue.metadata_is_fuzzy or not catalogue, f"{_name(path)}: fuzzy header"
    problems = [p for entry in catalogue if not entry.obsolete for p in _problems(entry, nplurals)]
    assert problems == [], f"{_name(path)}:\n" + "\n".join(problems)


@pytest.mark.parametrize("path", catalogues(), ids=_name)
def test_msgfmt_accepts_a_catalogue(path: Path) -> None:
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "GNU gettext's msgfmt is missing (make install installs it)"
    checked = subprocess.run(
        [msgfmt, "--check", "--output-file=/dev/null", str(path)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize("path", catalogues(), ids=_name)
def test_a_catalogue_is_compiled(path: Path) -> None:
    compiled = path.with_suffix(".mo")
    assert compiled.exists() and compiled.stat().st_mtime >= path.stat().st_mtime, (
        f"{_name(compiled)} is missing or older than its catalogue: run `make install`"
    )


Key = tuple[str | None, str]


@cache
def marked(folder: Path, domain: str) -> frozenset[Key]:
    """The strings the code of ``folder`` marks for ``domain``: the project's own
    ``makemessages`` (with any app's override of it) run over a copy of the folder."""
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / folder.name
        skipped = shutil.ignore_patterns("locale", "__pycache__", "*.pyc", "node_modules")
        shutil.copytree(folder, copy, ignore=skipped)
        (copy / "locale").mkdir()
        here = Path.cwd()
        os.chdir(copy)  # makemessages reads the working directory
        try:
            call_command(
                "makemessages", locale=["el"], domain=domain, no_location=True, verbosity=0
            )
        finally:
            os.chdir(here)
        made = copy / "locale" / "el" / "LC_MESSAGES" / f"{domain}.po"
        if not made.exists():
            return frozenset()
        return frozenset((e.msgctxt, e.msgid) for e in polib.pofile(str(made)) if e.msgid)


@pytest.mark.parametrize("domain", ["django", "djangojs"])
@pytest.mark.parametrize("folder", code_folders(), ids=lambda f: f.name)
def test_every_marked_string_is_in_the_folders_catalogues(folder: Path, domain: str) -> None:
    wanted = marked(folder, domain)
    for language in LANGUAGES:
        path = folder / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
        if not wanted:
            continue
        assert path.exists(), (
            f"{folder.name} marks {len(wanted)} strings for translation but has no "
            f"{_name(path)}: run `make messages` and translate them"
        )
        kept = {(e.msgctxt, e.msgid) for e in polib.pofile(str(path)) if not e.obsolete}
        missing = sorted(wanted - kept, key=str)
        assert missing == [], (
            f"{_name(path)} lacks strings the code marks (run `make messages`, then "
            f"translate): {missing}"
        )


def test_the_marked_strings_are_found_the_way_makemessages_finds_them() -> None:
    # The reader above is no stand-in that finds nothing: accounts marks its e-mails.
    words = {msgid for _context, msgid in marked(ROOT / "accounts", "django")}
    assert "Reset your %(service)s password" in words
    assert ("HTTP status", "Conflict") in marked(ROOT / "ttr_service", "django")
