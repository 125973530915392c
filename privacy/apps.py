from django.apps import AppConfig


class PrivacyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "privacy"
    verbose_name = "Account deletion and data export"

    def ready(self) -> None:
        # The tasks queued by name, and the sign-in that cancels a deletion in its grace.
        from privacy import deletion, tasks  # noqa: F401

        deletion.connect()
