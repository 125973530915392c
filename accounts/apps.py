from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        # Registers the token security scheme with drf-spectacular, and the tasks the
        # commands queue by name.
        from accounts import openapi, tasks  # noqa: F401
