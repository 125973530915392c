"""What happened, as a list of events per action, each with a public and a private part.

The public part may be shown to everyone; the private part only to the acting seat (for
example the colour of a card drawn blind, or the tickets offered). ``event_view`` is the one
place that decides what a given viewer receives.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    type: str
    seat: int | None
    public: dict[str, Any] = field(default_factory=dict)
    private: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "seat": self.seat,
            "public": self.public,
            "private": self.private,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        return cls(data["type"], data["seat"], dict(data["public"]), data["private"])


def event_view(event: Event, viewer: int | None) -> dict[str, Any]:
    """The event as ``viewer`` (a seat, or None for a spectator) may see it."""
    out: dict[str, Any] = {"type": event.type, "seat": event.seat, **event.public}
    if event.private is not None and viewer is not None and viewer == event.seat:
        out.update(event.private)
    return out


# Actions whose content is private to the acting seat, and what others see of them.
_PRIVATE_ACTION_FIELDS = {"keep_tickets": "tickets"}


def action_view(action: dict[str, Any], actor: int | None, viewer: int | None) -> dict[str, Any]:
    """An action's JSON as ``viewer`` may see it (which tickets were kept is private)."""
    field_name = _PRIVATE_ACTION_FIELDS.get(action.get("type", ""))
    if field_name is None or (viewer is not None and viewer == actor):
        return action
    out = {k: v for k, v in action.items() if k != field_name}
    out["count"] = len(action.get(field_name, []))
    return out
