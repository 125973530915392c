from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        # Imported here, not at the top: it needs the settings, read once the apps load.
        from . import push_checks

        # A bad credentials file stops startup, naming its variable.
        push_checks.check_push_credentials()
