"""The web client's one page, and its catalogues of words. Everything else it shows comes
from the public API."""

from __future__ import annotations

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
# Every module the entry point imports, directly or not: the page asks for them all at
# once (modulepreload) rather than level by level as each import is read.
_STATIC = Path(__file__).resolve().parent / "static" / "web"
MODULES = sorted(
    f"web/{p.relative_to(_STATIC).as_posix()}" for p in _STATIC.rglob("*.js") if p.name != "app.js"
)


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
