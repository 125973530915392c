"""WSGI entry point: ``ttr_service.wsgi:application``."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ttr_service.settings")

application = get_wsgi_application()
