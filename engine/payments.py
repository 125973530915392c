"""Paying for a route or a station: checking one payment and listing the distinct ones.

A payment is ``(color, locomotives)``: ``locomotives`` locomotives plus the rest of the cost
in ``color``; ``color`` is None exactly when every card is a locomotive.
"""

from __future__ import annotations

from collections.abc import Iterator

from .colors import CARD_INDEX, COLORS, LOCOMOTIVE
from .errors import ErrorCode, IllegalActionError, MalformedActionError


def check_payment(
    hand: list[int],
    cost: int,
    color: str | None,
    locomotives: int,
    *,
    required_color: str | None,
    min_locomotives: int,
    locomotives_allowed: bool,
    what: str,
) -> int:
    """Raise if the payment is not allowed; return the card index paid with (LOCOMOTIVE if none)."""
    if isinstance(locomotives, bool) or not isinstance(locomotives, int):
        raise MalformedActionError(ErrorCode.BAD_ACTION, "'locomotives' must be a whole number.")
    if not 0 <= locomotives <= cost:
        raise IllegalActionError(
            ErrorCode.WRONG_CARD_COUNT,
            f"{what} costs {cost} cards; {locomotives} locomotives is not a possible part of it.",
        )
    if color is None:
        if locomotives != cost:
            raise IllegalActionError(
                ErrorCode.WRONG_CARD_COUNT,
                f"{what} costs {cost} cards: name the colour of the "
                f"{cost - locomotives} that are not locomotives.",
            )
        index = LOCOMOTIVE
    else:
        if color not in COLORS:
            raise MalformedActionError(
                ErrorCode.UNKNOWN_COLOR,
                f"Unknown card colour {color!r}; use one of {', '.join(COLORS)} or null.",
            )
        if locomotives == cost:
            raise MalformedActionError(
                ErrorCode.BAD_ACTION,
                "When every card paid is a locomotive, give the colour as null.",
            )
        if required_color is not None and color != required_color:
            raise IllegalActionError(
                ErrorCode.WRONG_COLOR, f"{what} must be paid with {required_color} cards."
            )
        index = CARD_INDEX[color]
    if locomotives < min_locomotives:
        raise IllegalActionError(
            ErrorCode.FERRY_NEEDS_LOCOMOTIVES,
            f"{what} is a ferry: pay at least {min_locomotives} locomotive(s).",
        )
    if locomotives and not locomotives_allowed:
        raise IllegalActionError(
            ErrorCode.LOCOMOTIVE_NOT_ALLOWED, f"Locomotives cannot be played on {what}."
        )
    needed = cost - locomotives
    if hand[LOCOMOTIVE] < locomotives or (needed and hand[index] < needed):
        raise IllegalActionError(
            ErrorCode.INSUFFICIENT_CARDS,
            f"Not enough cards for {what}: it needs {needed} {color or 'locomotive'} card(s) "
            f"and {locomotives} locomotive(s).",
        )
    return index


def payment_options(
    hand: list[int],
    cost: int,
    *,
    required_color: str | None,
    min_locomotives: int,
    locomotives_allowed: bool,
) -> Iterator[tuple[str | None, int]]:
    """Every distinct payment the hand can make, in a stable order."""
    locos = hand[LOCOMOTIVE] if locomotives_allowed else 0
    if min_locomotives > locos:
        return
    colors = (required_color,) if required_color is not None else COLORS
    for color in colors:
        have = hand[CARD_INDEX[color]]
        if not have:
            continue
        low = max(min_locomotives, cost - have)
        high = min(locos, cost - 1)
        for k in range(low, high + 1):
            yield color, k
    if locos >= cost:
        yield None, cost


def can_pay(
    hand: list[int],
    cost: int,
    *,
    required_color: str | None,
    min_locomotives: int,
    locomotives_allowed: bool,
) -> bool:
    locos = hand[LOCOMOTIVE] if locomotives_allowed else 0
    if min_locomotives > locos:
        return False
    if locos >= cost:
        return True
    if required_color is not None:
        return hand[CARD_INDEX[required_color]] + locos >= cost and (
            hand[CARD_INDEX[required_color]] > 0
        )
    return max(hand[:LOCOMOTIVE]) + locos >= cost
