"""The game table on a phone and on the desktop: the first screen's reads, the players
strip, claiming from a city or from the list, reduced motion and a turn played by keyboard."""

from __future__ import annotations

import re

import pytest

from .pages import PHONE, TIMEOUT_MS, game_against_ai, keep_all_offered, make_user, open_as

pytestmark = pytest.mark.django_db(transaction=True)

READS = re.compile(r"/api/v1/(games/\d+(?:/legal-actions)?|boards/\w+)$")


def my_turn(user, ais: int = 3) -> int:
    game_id = game_against_ai(user, ais=ais)
    keep_all_offered(user, game_id)
    return game_id


def test_opening_a_game_reads_its_view_board_and_options_once_each(browser, web_server):
    ada = make_user("ada")
    game_id = my_turn(ada)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    reads: list[str] = []
    context.on("request", lambda r: READS.search(r.url) and reads.append(READS.search(r.url)[1]))
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}", context=context)
    page.wait_for_selector("#prompt[data-kind=turn_action]", timeout=TIMEOUT_MS)
    page.wait_for_selector("#draw-blind:not([disabled])", timeout=TIMEOUT_MS)
    # open_as loads the page three times (the origin, the hash, a reload): the last load's
    # reads are the page's own. Each is made once, by the script in the head, and used.
    last = reads[-3:]
    assert sorted(last) == sorted([f"games/{game_id}", f"games/{game_id}/legal-actions", "boards/europe"])
