"""Usernames are unique ignoring case, in the database and not only in the register view.

The index is on django.contrib.auth's own table, so it is raw SQL; the expression index works
on SQLite and PostgreSQL alike. Registration accepts only ASCII names, for which both
databases' LOWER() agree.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunSQL(
            sql="CREATE UNIQUE INDEX accounts_username_lower_uniq ON auth_user (LOWER(username))",
            reverse_sql="DROP INDEX accounts_username_lower_uniq",
        ),
    ]
