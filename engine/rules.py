"""Rule options of a board. Rules differ between boards only through these values."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

TIEBREAKS = ("completed_tickets", "stations_built", "express", "longest_path")


@dataclass(frozen=True, slots=True)
class RuleSet:
    min_players: int = 2
    max_players: int = 5
    trains_per_player: int = 45
    stations_per_player: int = 3
    station_costs: tuple[int, ...] = (1, 2, 3)
    unbuilt_station_points: int = 4
    initial_hand: int = 4
    cards_per_color: int = 12
    locomotives: int = 14
    face_up: int = 5
    # A face-up display with this many locomotives or more is replaced (0 = never).
    face_up_locomotive_limit: int = 3
    # Europe/USA: a face-up locomotive is a whole draw and cannot be the second card.
    face_up_locomotive_ends_draw: bool = True
    # Switzerland: locomotives may only be played on tunnels.
    locomotives_only_on_tunnels: bool = False
    # Cards turned from the deck when a tunnel is claimed.
    tunnel_cards: int = 3
    initial_long_tickets: int = 1
    initial_regular_tickets: int = 3
    initial_keep_min: int = 2
    unkept_initial_tickets: str = "removed"  # or "bottom"
    draw_tickets: int = 3
    draw_keep_min: int = 1
    unkept_drawn_tickets: str = "bottom"  # or "removed"
    longest_path_bonus: int = 10
    globetrotter_bonus: int = 0
    # With fewer players than this, only one track of a double route may be used.
    double_routes_min_players: int = 4
    end_trigger_trains: int = 2
    tiebreaks: tuple[str, ...] = ("completed_tickets", "stations_built", "express")
    route_points: dict[int, int] = field(
        default_factory=lambda: {1: 1, 2: 2, 3: 4, 4: 7, 6: 15, 8: 21}
    )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RuleSet:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown rule options: {sorted(unknown)}")
        values: dict[str, Any] = dict(data)
        if "station_costs" in values:
            values["station_costs"] = tuple(values["station_costs"])
        if "tiebreaks" in values:
            values["tiebreaks"] = tuple(values["tiebreaks"])
            bad = [t for t in values["tiebreaks"] if t not in TIEBREAKS]
            if bad:
                raise ValueError(f"unknown tiebreaks: {bad}")
        if "route_points" in values:
            values["route_points"] = {int(k): int(v) for k, v in values["route_points"].items()}
        for key in ("unkept_initial_tickets", "unkept_drawn_tickets"):
            if values.get(key, "removed") not in ("removed", "bottom"):
                raise ValueError(f"{key} must be 'removed' or 'bottom'")
        return cls(**values)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                value = list(value)
            elif isinstance(value, dict):
                value = {str(k): v for k, v in value.items()}
            out[f.name] = value
        return out

    def doubles_usable(self, n_players: int) -> bool:
        """Whether both tracks of a double route can be claimed at this player count."""
        return n_players >= self.double_routes_min_players
