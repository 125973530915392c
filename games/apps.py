from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # Registers the tasks the commands queue by name (``queue``), in web processes
        # too; a worker finds them on its own. Imported once the models exist.
        from . import tasks  # noqa: F401
