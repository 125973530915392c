"""The Celery application; ``celery -A ttr_service worker`` finds it here."""

import os
import sys

from celery import Celery

from ttr_service.observability import tasks

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ttr_service.settings")

# A worker's main process names its metrics' folder before anything imports
# prometheus-client (ttr_service/observability/tasks.py).
tasks.worker_group_start(sys.argv)
app = Celery("ttr_service")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Every beat, `celery beat` or a worker's `--beat`, sends only while it holds the lease in
# the database, so two beats started by mistake do not double the schedule.
app.conf.beat_scheduler = "ops.beat_lock:LeaderScheduler"
app.autodiscover_tasks()
# The request's id carried into the tasks it queues; the worker's logs as the web's
# (ttr_service/observability/tasks.py).
tasks.connect()
