"""The Celery application; ``celery -A ttr_service worker`` finds it here."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ttr_service.settings")

app = Celery("ttr_service")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Every beat, `celery beat` or a worker's `--beat`, sends only while it holds the lease in
# the database, so two beats started by mistake do not double the schedule.
app.conf.beat_scheduler = "ops.beat_lock:LeaderScheduler"
app.autodiscover_tasks()
