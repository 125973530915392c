"""The web client's one page, and its catalogues of words. Everything else it shows comes
from the public API."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.cache import cache_control
from django.views.decorators.http import etag, require_GET
from django.views.i18n import JSONCatalog

LOCALE = Path(__file__).resolve().parent / "locale"
CATALOGUE = JSONCatalog.as_view(domain="djangojs", packages=["web"])
_STATIC = Path(__file__).resolve().parent / "static" / "web"
# A static import (`import … from "./x.js"`, `import "./x.js"`), not a dynamic `import()`.
_IMPORT = re.compile(
    r"""^\s*import\s(?:[^;"']*?\sfrom\s*)?["'](\.{1,2}/[^"']+)["']""", re.MULTILINE
)


def _imported(entry: str) -> list[str]:
    """Every module `entry` imports statically, directly or not, as "web/<path>": what the
    first screen needs. A module loaded with `import()` (when first shown) is left out."""
    found: set[str] = set()
    todo = [entry]
    while todo:
        module = todo.pop()
        for target in _IMPORT.findall((_STATIC / module).read_text(encoding="utf-8")):
            path = posixpath.normpath(posixpath.join(posixpath.dirname(module), target))
            if path not in found:
                found.add(path)
                todo.append(path)
    return sorted(f"web/{path}" for path in found - {entry})


# The page asks for them all at once (modulepreload) rather than level by level as each
# import is read.
MODULES = _imported("app.js")


@require_GET
def shell(request: HttpRequest) -> HttpResponse:
    return render(request, "web/index.html", {"modules": MODULES})


def _compiled(lang: str) -> str | None:
    """The compiled catalogue's size and time, which change when it is built again."""
    mo = LOCALE / lang / "LC_MESSAGES" / "djangojs.mo"
    try:
        stat = mo.stat()
    except OSError:
        return None
    return f"{lang}-{stat.st_size}-{stat.st_mtime_ns}"


@require_GET
@cache_control(public=True, max_age=300)
@etag(lambda request, lang: _compiled(lang))
def catalogue(request: HttpRequest, lang: str) -> HttpResponseBase:
    """The client's words in one language, as JSON: {"catalog": {msgid: text or [forms]},
    "formats": ..., "plural": ...} (Django's JSONCatalog of web/locale/<lang>/djangojs)."""
    if lang not in dict(settings.LANGUAGES):
        raise Http404(lang)
    with translation.override(lang):
        return CATALOGUE(request)
