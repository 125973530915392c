"""Quick messages: a few set phrases a player sends with one tap, each by its code, and
shown to each reader in the reader's language."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

QUICK_MESSAGES: dict[str, Promise] = {
    "hello": _("Hello!"),
    "good_luck": _("Good luck!"),
    "your_turn": _("Your turn."),
    "thinking": _("Let me think…"),
    "back_soon": _("Back soon."),
    "nice_move": _("Nice move!"),
    "oops": _("Oops!"),
    "sorry": _("Sorry!"),
    "thanks": _("Thanks!"),
    "well_played": _("Well played!"),
    "bye": _("Goodbye!"),
}

QUICK_CODES = tuple(QUICK_MESSAGES)
