import secrets

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def first_epoch(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    apps.get_model("games", "Epoch").objects.create(pk=1, value=secrets.token_hex(4))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_game_rated"),
    ]

    operations = [
        migrations.CreateModel(
            name="Epoch",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("value", models.CharField(max_length=16)),
                ("set_at", models.DateTimeField(auto_now=True)),
            ],
        ),
        migrations.RunPython(first_epoch, migrations.RunPython.noop),
    ]
