"""Run once after the database was restored from a backup, before the service starts."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.commands.epoch import epoch_renew, restore_settle


class Command(BaseCommand):
    help = (
        "After a restore from a backup: give the database a new restore epoch, so that no "
        "ETag or stream id handed out before the restore matches again, then settle the "
        "overdue games and queue every AI turn that is due."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--json", action="store_true", help="print one JSON object instead of text"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        epoch = epoch_renew()
        queued = restore_settle()
        if options["json"]:
            self.stdout.write(json.dumps({"epoch": epoch, **queued}))
            return
        self.stdout.write(
            f"Restore epoch {epoch}. Deadlines settled: {queued['settled']}; "
            f"games whose AI turns were queued: {queued['ai_requeued']}."
        )
