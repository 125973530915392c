from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # Registers the tasks the commands queue by name (``games.events``), in web
        # processes too; imported once the models exist.
        from games.worker import tasks  # noqa: F401
