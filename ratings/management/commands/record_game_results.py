"""Record every finished game the ratings have not counted yet (a backfill or catch-up)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from ratings.services import game_results_record_missing


class Command(BaseCommand):
    help = "Record statistics and ratings of finished games not recorded yet."

    def handle(self, *args: Any, **options: Any) -> None:
        count = game_results_record_missing()
        self.stdout.write(f"Recorded {count} game(s).")
