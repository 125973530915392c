"""A refusal's words: English by default, and the template and values behind them for a
service that speaks other languages."""

from __future__ import annotations

import re

import pytest

from engine import BuildStation, ClaimRoute, EngineError, ErrorCode
from engine.texts import Text, as_text, gettext_noop, ngettext

from .factory import set_hand, started


def _shout(message: str) -> str:
    """A stand-in catalogue: every template in capitals, placeholders kept."""
    parts = re.split(r"(%\(\w+\)[a-z])", message)
    return "".join(p if p.startswith("%(") else p.upper() for p in parts)


def _shout_plural(singular: str, plural: str, count: int) -> str:
    return _shout(singular if count == 1 else plural)


def test_a_text_reads_in_english_with_its_values():
    text = gettext_noop("Seat %(seat)d has no stations left.", seat=2)
    assert str(text) == "Seat 2 has no stations left."
    assert text == Text("Seat %(seat)d has no stations left.", {"seat": 2})


@pytest.mark.parametrize(("count", "english"), [(1, "1 station"), (2, "2 stations")])
def test_a_count_chooses_the_english_form(count, english):
    text = ngettext("%(n)d station", "%(n)d stations", count, n=count)
    assert str(text) == english


def test_a_text_inside_a_text_is_rendered_in_the_same_language():
    what = gettext_noop("route %(route)s", route="berlin-wien")
    text = gettext_noop("Locomotives cannot be played on %(what)s.", what=what)
    assert str(text) == "Locomotives cannot be played on route berlin-wien."
    assert (
        text.render(_shout, _shout_plural) == "LOCOMOTIVES CANNOT BE PLAYED ON ROUTE berlin-wien."
    )


def test_a_plain_string_is_its_own_template_percent_signs_and_all():
    assert str(as_text("100% sure")) == "100% sure"


def test_a_refusal_keeps_its_english_message_and_its_template():
    s = started()
    set_hand(s, 0, red=2)
    with pytest.raises(EngineError) as caught:
        s.apply(0, ClaimRoute("berlin-frankfurt-2", "red", 0))
    refusal = caught.value
    assert refusal.code == ErrorCode.INSUFFICIENT_CARDS
    assert refusal.message == (
        "Not enough cards for route berlin-frankfurt-2: it needs 3 red cards and 0 locomotive(s)."
    )
    assert refusal.message == str(refusal) == str(refusal.text)
    assert refusal.text.count == 3
    assert refusal.text.render(_shout, _shout_plural) == (
        "NOT ENOUGH CARDS FOR ROUTE berlin-frankfurt-2: IT NEEDS 3 red CARDS AND 0 LOCOMOTIVE(S)."
    )
    assert refusal.to_json() == {"code": "INSUFFICIENT_CARDS", "message": refusal.message}


def test_a_station_payment_names_the_station_by_its_number():
    s = started()
    set_hand(s, 0)
    with pytest.raises(EngineError) as caught:
        s.apply(0, BuildStation("Wien", "red", 0))
    assert caught.value.code == ErrorCode.INSUFFICIENT_CARDS
    assert caught.value.message.startswith("Not enough cards for station number 1: it needs 1 red")
