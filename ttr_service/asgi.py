"""ASGI entry point: ``ttr_service.asgi:application``."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ttr_service.settings")

application = get_asgi_application()
