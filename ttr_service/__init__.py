# Importing the Celery app here makes it the current app as soon as Django loads, so
# shared tasks bind to it.
from ttr_service.celery import app as celery_app

__all__ = ("celery_app",)
