"""The outermost middleware: the request's id, its log line and its latency, and
``GET /metrics``.

Every request gets an id: the client's ``X-Request-ID`` when it is sane, else a new one. It
is in the context of every log line written while the request runs, in the headers of
every task it queues (``tasks``), and in the answer's ``X-Request-ID``. When the request
ends, one log line (``logger ttr_service.requests``) tells its method, route pattern,
status and duration, and ``ttr_http_request_duration_seconds`` counts it.

``/metrics`` is answered here, before Django checks the Host header (a scraper names a
process by its address) and before any other middleware: with the token of
``METRICS_TOKEN`` when one is set, else from a loopback or private address that no proxy
forwarded (``access``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase

from ttr_service.http.problems import api_not_found
from ttr_service.observability import access, context, metrics

logger = logging.getLogger("ttr_service.requests")

METRICS_PATH = "/metrics"
# A request that matched no route (answered 404 by the catch-all or Django).
UNMATCHED = "unmatched"
# Any other method is counted as OTHER: a label's values stay few whatever clients send.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
OTHER = "other"


def route_of(request: HttpRequest) -> str:
    """The route pattern the request matched (``/api/v1/games/<int:game_id>``), never its
    path: the label's values stay few."""
    match = request.resolver_match
    if match is None or match.func is api_not_found:
        return UNMATCHED
    return "/" + str(match.route)


def metrics_answer(request: HttpRequest) -> HttpResponse:
    if request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD"})
    if not access.allowed(
        settings.METRICS.token,
        request.headers.get("Authorization"),
        request.META.get("REMOTE_ADDR"),
        forwarded=access.forwarded(request.headers),
    ):
        return HttpResponse(status=403, content=b"Forbidden\n", content_type="text/plain")
    body, content_type = metrics.exposition()
    return HttpResponse(body, content_type=content_type, headers={"Cache-Control": "no-store"})


class RequestContextMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        started = time.perf_counter()
        rid = context.request_id_from(request.headers.get("X-Request-ID"))
        rid_token = context.request_id.set(rid)
        game_token = context.game_id.set(None)
        try:
            if request.path == METRICS_PATH:
                response: HttpResponseBase = metrics_answer(request)
            else:
                response = self.get_response(request)
            response["X-Request-ID"] = rid
            self.finished(request, response, time.perf_counter() - started)
        finally:
            context.game_id.reset(game_token)
            context.request_id.reset(rid_token)
        return response

    def process_view(
        self,
        request: HttpRequest,
        view: Callable[..., HttpResponseBase],
        args: tuple[object, ...],
        kwargs: dict[str, object],
    ) -> None:
        game = kwargs.get("game_id")
        if isinstance(game, int):
            context.game_id.set(game)

    @staticmethod
    def finished(request: HttpRequest, response: HttpResponseBase, seconds: float) -> None:
        method = request.method if request.method in METHODS else OTHER
        route = METRICS_PATH if request.path == METRICS_PATH else route_of(request)
        status = response.status_code
        metrics.REQUEST_SECONDS.labels(method, route, str(status)).observe(seconds)
        logger.info(
            "%s %s %d %.1f ms",
            method,
            route,
            status,
            seconds * 1000,
            extra={
                "fields": {
                    "method": method,
                    "route": route,
                    "status": status,
                    "duration_ms": round(seconds * 1000, 2),
                }
            },
        )
