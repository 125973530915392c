"""The Celery application; ``celery -A ttr_service worker`` finds it here."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ttr_service.settings")

app = Celery("ttr_service")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
