"""Messages for people, kept translatable without the engine knowing any language but English.

A refusal's words are a ``Text``: a template with named placeholders (``%(seat)d``), the
template's plural if a count chooses between forms, and the values. ``str(text)`` is the
English the engine's own users read (the command line, tests); a service that speaks other
languages renders the same text through its catalogue::

    text.render(gettext, ngettext)

The two markers below are the names the message extraction (``xgettext``, as Django's
``makemessages`` runs it) recognises, so every template lands in the engine's catalogue.
City names, route and ticket ids and card colours are values: never translated.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


def _english(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


def _same(message: str) -> str:
    return message


@dataclass(frozen=True, slots=True)
class Text:
    """A message template, its plural (if ``count`` chooses a form) and its values."""

    template: str
    values: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None
    count: int = 1

    def render(
        self,
        gettext: Callable[[str], str] = _same,
        ngettext: Callable[[str, str, int], str] = _english,
    ) -> str:
        """The message in the language of ``gettext``/``ngettext`` (English by default); a
        value that is a ``Text`` itself (a route or station named in a payment) is rendered
        in the same language."""
        values = {
            k: v.render(gettext, ngettext) if isinstance(v, Text) else v
            for k, v in self.values.items()
        }
        if self.plural is None:
            chosen = gettext(self.template)
        else:
            chosen = ngettext(self.template, self.plural, self.count)
        return chosen % values

    def __str__(self) -> str:
        return self.render()

    def __hash__(self) -> int:
        # Like the frozen classes that hold one (``PositionProblem``): hashable by value.
        return hash((self.template, tuple(self.values.items()), self.plural, self.count))


def gettext_noop(message: str, /, **values: Any) -> Text:
    """``message`` marked for translation, with the values of its placeholders."""
    return Text(message, values)


def ngettext(singular: str, plural: str, count: int, /, **values: Any) -> Text:
    """A message whose form ``count`` chooses (its placeholders among ``values``); the form
    is chosen when the text is rendered, in the reader's language."""
    return Text(singular, values, plural, count)


def as_text(message: str | Text) -> Text:
    """``message`` as a ``Text``: a plain string is a template with no placeholders."""
    return message if isinstance(message, Text) else Text(message.replace("%", "%%"))
