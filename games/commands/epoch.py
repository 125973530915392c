"""After a restore from a backup: a new restore epoch, and the work that is due queued.

Run by ``manage.py restored`` (docs/operations.md, "Backup and restore").
"""

from __future__ import annotations

from datetime import timedelta

from games.commands.deadlines import deadlines_sweep
from games.domain.versions import new_epoch
from games.models import Epoch
from games.queries.games import epoch_forget


def epoch_renew() -> str:
    """Give the database a new restore epoch, so that no ETag or stream id handed out
    before the restore matches again, and return it."""
    value = new_epoch()
    Epoch.objects.update_or_create(pk=1, defaults={"value": value})
    epoch_forget()
    return value


def restore_settle() -> dict[str, int]:
    """Settle the overdue games and queue every AI turn that is due now, rather than once
    the sweep finds it stuck: the tasks queued before the backup are not in the broker."""
    return deadlines_sweep(stuck_after=timedelta(0))
