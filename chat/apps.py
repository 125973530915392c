from django.apps import AppConfig


class ChatConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "chat"
    verbose_name = "Chat at the table"

    def ready(self) -> None:
        from . import feeds  # the chat's events on the live streams

        feeds.register()
