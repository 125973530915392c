from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("notifications", "0003_friend_kinds"),
    ]

    operations = [
        migrations.AlterField(
            model_name="notification",
            name="kind",
            field=models.CharField(
                choices=[
                    ("your_turn", "It is your turn"),
                    ("deadline_approaching", "Your turn's deadline is near"),
                    ("timed_out", "Your turn timed out"),
                    ("seat_taken_over", "The AI took over your seat"),
                    ("invitation", "You are invited to a game"),
                    ("game_started", "A game of yours started"),
                    ("game_over", "A game of yours is over"),
                    ("friend_request", "A player asks to be your friend"),
                    ("friend_accepted", "A player accepted your friend request"),
                    ("export_ready", "Your data export is ready to download"),
                ],
                max_length=32,
            ),
        ),
    ]
