"""Re-play every game (or some) from seed + move log and compare with the stored rows."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.queries.integrity import check_games


class Command(BaseCommand):
    help = (
        "Re-play games from their seed and move log with the engine and compare with the "
        "stored state, version and derived fields. Exits 1 when any game differs."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--game", type=int, action="append", dest="games", help="check only this game id"
        )
        parser.add_argument(
            "--json", action="store_true", help="print one JSON object instead of text"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        checked, problems = check_games(options["games"])
        bad = sorted({p.game for p in problems})
        if options["json"]:
            summary = {
                "checked": checked,
                "consistent": checked - len(bad),
                "inconsistent": bad,
                "problems": [p.to_json() for p in problems],
            }
            self.stdout.write(json.dumps(summary))
        else:
            for p in problems:
                self.stdout.write(f"game {p.game}: {p.code}: {p.detail}")
            codes = Counter(p.code for p in problems)
            by_code = ", ".join(f"{code} {n}" for code, n in sorted(codes.items()))
            self.stdout.write(
                f"Checked {checked} game(s): {checked - len(bad)} consistent, "
                f"{len(bad)} inconsistent" + (f" ({by_code})" if by_code else "") + "."
            )
        if bad:
            raise CommandError(f"{len(bad)} game(s) failed the integrity check.", returncode=1)
