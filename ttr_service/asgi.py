"""ASGI entry point: ``ttr_service.asgi:application``."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ttr_service.settings")

# Set up first: the handler and the body limit import the error format, which needs the
# apps loaded.
django.setup(set_prefix=False)

from django.conf import settings  # noqa: E402

from ttr_service.http.limits import AsgiBodySizeLimit  # noqa: E402
from ttr_service.serving import ServiceApplication  # noqa: E402

# Django's handlers on WEB_THREADS long-lived threads, each keeping its database
# connection (ttr_service/serving.py; docs/decisions/0202).
django_application = ServiceApplication(settings.WEB_THREADS)

# Django's handler reads a whole body before its middleware runs: refuse one over the
# limit first (see ttr_service/http/limits.py).
application = AsgiBodySizeLimit(django_application)
