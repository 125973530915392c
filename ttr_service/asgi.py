"""ASGI entry point: ``ttr_service.asgi:application``."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ttr_service.settings")

# Set up first: the body limit below imports the error format, which needs the apps loaded.
django_application = get_asgi_application()

from ttr_service.limits import AsgiBodySizeLimit  # noqa: E402

# Django's handler reads a whole body before its middleware runs: refuse one over the
# limit first (see ttr_service/limits.py).
application = AsgiBodySizeLimit(django_application)
