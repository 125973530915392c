"""Production settings: the deployment checks and HTTPS behind a proxy, in fresh interpreters."""

from __future__ import annotations

import json

from tests.service.test_settings import STRONG_KEY, run, run_python

PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": STRONG_KEY,
    "ALLOWED_HOSTS": "ttr.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://ttr.example.org",
    "TRUST_X_FORWARDED_PROTO": "true",
    # No worker runs here: the probe answers for the web process (a load balancer's setting).
    "HEALTH_REQUIRE_WORKERS": "false",
}

REQUESTS = """
import json
import django
django.setup()
from django.test import Client
client = Client(HTTP_HOST="ttr.example.org")
out = {}
plain = client.get("/api/v1/boards")
out["plain"] = [plain.status_code, plain.get("Location")]
health = client.get("/api/v1/health")
out["health"] = health.status_code
proxied = client.get("/api/v1/boards", HTTP_X_FORWARDED_PROTO="https")
out["proxied"] = [proxied.status_code, proxied.get("Strict-Transport-Security")]
print(json.dumps(out))
"""


def test_production_settings_pass_the_deployment_checks_with_nothing_silenced() -> None:
    result = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        **PRODUCTION,
        SECURE_HSTS_PRELOAD="true",
    )

    assert result.returncode == 0, result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_without_preload_the_only_warning_is_the_preload_one() -> None:
    # Preload stays off by default (leaving the browsers' list is slow); Django says so.
    result = run(["manage.py", "check", "--deploy"], **PRODUCTION)

    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    assert "security.W021" in report
    assert "System check identified 1 issue (0 silenced)." in report


def test_plain_http_is_redirected_and_https_behind_the_proxy_gets_hsts() -> None:
    result = run_python(REQUESTS, **PRODUCTION)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])

    assert seen["plain"] == [301, "https://ttr.example.org/api/v1/boards"]
    # Load balancers probe over plain HTTP: answered, not redirected (200, or 503 where
    # this checkout's SQLite file has no tables yet).
    assert seen["health"] in (200, 503)
    assert seen["proxied"] == [200, "max-age=31536000; includeSubDomains"]


def test_the_forwarded_header_is_ignored_unless_the_proxy_is_trusted() -> None:
    untrusted = {k: v for k, v in PRODUCTION.items() if k != "TRUST_X_FORWARDED_PROTO"}
    result = run_python(REQUESTS, **untrusted)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])

    assert seen["proxied"][0] == 301
