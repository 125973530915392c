from django.conf import settings

from ttr_service import celery_app


def test_the_celery_app_reads_its_configuration_from_django_settings() -> None:
    assert celery_app.conf.broker_url == settings.CELERY_BROKER_URL
    assert celery_app.conf.task_acks_late is True
    assert celery_app.conf.task_reject_on_worker_lost is True
    assert celery_app.conf.worker_prefetch_multiplier == 1
