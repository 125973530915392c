"""Train card colours: one index per colour, locomotives last."""

from __future__ import annotations

COLORS: tuple[str, ...] = (
    "purple",
    "blue",
    "orange",
    "white",
    "green",
    "yellow",
    "black",
    "red",
)
LOCOMOTIVE = len(COLORS)  # index 8 in a hand
CARD_NAMES: tuple[str, ...] = (*COLORS, "locomotive")
N_CARD_KINDS = len(CARD_NAMES)
GRAY = "gray"

# Other spellings accepted on input; output always uses the canonical name.
_ALIASES = {
    "pink": "purple",
    "violet": "purple",
    "grey": "gray",
    "loco": "locomotive",
    "wild": "locomotive",
}

CARD_INDEX: dict[str, int] = {name: i for i, name in enumerate(CARD_NAMES)}


def canonical_color(name: str) -> str:
    """Return the canonical spelling of a colour name (``pink`` -> ``purple``)."""
    lowered = name.strip().lower()
    return _ALIASES.get(lowered, lowered)


def card_index(name: str) -> int | None:
    """Index of a card colour in a hand, or None if the name is not a card colour."""
    return CARD_INDEX.get(canonical_color(name))
