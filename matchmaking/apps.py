from django.apps import AppConfig


class MatchmakingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matchmaking"
    verbose_name = "Quick match and rematch"

    def ready(self) -> None:
        # Imported here, not at the top: the tasks use models, which exist only once the
        # apps are loaded; importing registers them with Celery.
        from . import tasks  # noqa: F401
