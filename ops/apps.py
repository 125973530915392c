from django.apps import AppConfig


class OpsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ops"
    verbose_name = "Operations"

    def ready(self) -> None:
        from ttr_service.observability.metrics import scrape_also

        from . import receivers
        from .lease_metrics import BeatLeaseHolder

        receivers.connect()
        scrape_also(BeatLeaseHolder())
