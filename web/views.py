"""The web client's one page. Everything else it shows comes from the public API."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET


@require_GET
def shell(request: HttpRequest) -> HttpResponse:
    return render(request, "web/index.html")
