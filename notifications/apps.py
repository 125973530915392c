from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        # Imported here, not at the top: they use models, which exist only once the
        # apps are loaded. ``tasks`` registers the tasks ``services`` queues by name.
        from ttr_service.observability.metrics import scrape_also

        from . import friend_notices, game_notices, push_checks, tasks  # noqa: F401
        from .outbox_metrics import OutboxBacklog

        # A bad credentials file stops startup, naming its variable.
        push_checks.check_push_credentials()
        game_notices.connect()
        friend_notices.connect()
        scrape_also(OutboxBacklog())
