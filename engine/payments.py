"""Paying for a route or a station: checking one payment and listing the distinct ones.

A payment is ``(color, locomotives)``: ``locomotives`` locomotives plus the rest of the cost
in ``color``; ``color`` is None exactly when every card is a locomotive.
"""

from __future__ import annotations

from collections.abc import Iterator

from .colors import CARD_INDEX, COLORS, LOCOMOTIVE
from .errors import ErrorCode, IllegalActionError, MalformedActionError
from .texts import Text, gettext_noop, ngettext


def check_payment(
    hand: list[int],
    cost: int,
    color: str | None,
    locomotives: int,
    *,
    required_color: str | None,
    min_locomotives: int,
    locomotives_allowed: bool,
    what: Text,
) -> int:
    """Raise if the payment is not allowed; return the card index paid with (LOCOMOTIVE if none)."""
    if isinstance(locomotives, bool) or not isinstance(locomotives, int):
        raise MalformedActionError(
            ErrorCode.BAD_ACTION, gettext_noop("'locomotives' must be a whole number.")
        )
    if not 0 <= locomotives <= cost:
        raise IllegalActionError(
            ErrorCode.WRONG_CARD_COUNT,
            ngettext(
                "%(what)s costs %(cost)d card; %(locomotives)d locomotives is not a possible "
                "part of it.",
                "%(what)s costs %(cost)d cards; %(locomotives)d locomotives is not a possible "
                "part of it.",
                cost,
                what=what,
                cost=cost,
                locomotives=locomotives,
            ),
        )
    if color is None:
        if locomotives != cost:
            raise IllegalActionError(
                ErrorCode.WRONG_CARD_COUNT,
                ngettext(
                    "%(what)s costs %(cost)d cards: name the colour of the %(other)d that is "
                    "not a locomotive.",
                    "%(what)s costs %(cost)d cards: name the colour of the %(other)d that are "
                    "not locomotives.",
                    cost - locomotives,
                    what=what,
                    cost=cost,
                    other=cost - locomotives,
                ),
            )
        index = LOCOMOTIVE
    else:
        if color not in COLORS:
            raise MalformedActionError(
                ErrorCode.UNKNOWN_COLOR,
                gettext_noop(
                    "Unknown card colour %(color)r; use one of %(colors)s or null.",
                    color=color,
                    colors=", ".join(COLORS),
                ),
            )
        if locomotives == cost:
            raise MalformedActionError(
                ErrorCode.BAD_ACTION,
                gettext_noop("When every card paid is a locomotive, give the colour as null."),
            )
        if required_color is not None and color != required_color:
            raise IllegalActionError(
                ErrorCode.WRONG_COLOR,
                gettext_noop(
                    "%(what)s must be paid with %(color)s cards.", what=what, color=required_color
                ),
            )
        index = CARD_INDEX[color]
    if locomotives < min_locomotives:
        raise IllegalActionError(
            ErrorCode.FERRY_NEEDS_LOCOMOTIVES,
            ngettext(
                "%(what)s is a ferry: pay at least %(minimum)d locomotive.",
                "%(what)s is a ferry: pay at least %(minimum)d locomotives.",
                min_locomotives,
                what=what,
                minimum=min_locomotives,
            ),
        )
    if locomotives and not locomotives_allowed:
        raise IllegalActionError(
            ErrorCode.LOCOMOTIVE_NOT_ALLOWED,
            gettext_noop("Locomotives cannot be played on %(what)s.", what=what),
        )
    needed = cost - locomotives
    if hand[LOCOMOTIVE] < locomotives or (needed and hand[index] < needed):
        raise IllegalActionError(
            ErrorCode.INSUFFICIENT_CARDS,
            ngettext(
                "Not enough cards for %(what)s: it needs %(needed)d %(color)s card and "
                "%(locomotives)d locomotive(s).",
                "Not enough cards for %(what)s: it needs %(needed)d %(color)s cards and "
                "%(locomotives)d locomotive(s).",
                needed,
                what=what,
                needed=needed,
                color=color or "locomotive",
                locomotives=locomotives,
            ),
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
