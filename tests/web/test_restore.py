"""A page left open while the service's database is restored from a backup: the game went
back to an earlier version (docs/decisions/0320), and once the page reaches the service
again it shows the restored game and its log, not the lost moves it had shown."""

from __future__ import annotations

import pytest

from games.commands.epoch import epoch_renew
from games.models import Game, Move

from .pages import TIMEOUT_MS, act, game_against_ai, keep_all_offered, make_user, open_as, view_of

pytestmark = pytest.mark.django_db(transaction=True)

VERSION = "() => document.querySelector('.game').dataset.version"
# The log's heading counts the moves the page holds: "Moves (n)".
LOG_SIZE = "() => Number(document.querySelector('#log h3').textContent.match(/\\d+/)[0])"


def test_a_page_open_across_a_restore_shows_the_restored_game(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1)
    keep_all_offered(ada, game_id)
    backup = Game.objects.filter(pk=game_id).values().get()
    backed_up_moves = Move.objects.filter(game_id=game_id).count()
    backed_up_version = view_of(ada, game_id)["version"]

    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    page.wait_for_function(f"() => ({VERSION})() === '{backed_up_version}'", timeout=TIMEOUT_MS)
    page.wait_for_function(f"() => ({LOG_SIZE})() === {backed_up_moves}", timeout=TIMEOUT_MS)
    # Moves after the backup: ada's two cards, then the AI's turn. The page shows them.
    act(ada, game_id, {"type": "draw_blind"})
    act(ada, game_id, {"type": "draw_blind"})
    lost_version = view_of(ada, game_id)["version"]
    assert lost_version > backed_up_version
    page.wait_for_function(f"() => ({VERSION})() === '{lost_version}'", timeout=TIMEOUT_MS)
    assert page.evaluate(LOG_SIZE) > backed_up_moves

    # The restore: the service stops (the page loses it), the database goes back to the
    # backup and gets a new epoch (`manage.py restored`), and the service starts again.
    def restore() -> None:
        Game.objects.filter(pk=game_id).update(**{k: v for k, v in backup.items() if k != "id"})
        Move.objects.filter(game_id=game_id, number__gt=backed_up_moves).delete()
        epoch_renew()

    web_server.restart(restore)
    page.wait_for_function(f"() => ({VERSION})() === '{backed_up_version}'", timeout=TIMEOUT_MS)
    page.wait_for_function(f"() => ({LOG_SIZE})() === {backed_up_moves}", timeout=TIMEOUT_MS)
    # And the game goes on from there: a move made now shows, the log grows from the
    # restored one.
    act(ada, game_id, {"type": "draw_blind"})
    page.wait_for_function(
        f"() => ({VERSION})() === '{view_of(ada, game_id)['version']}'", timeout=TIMEOUT_MS
    )
    assert page.evaluate(LOG_SIZE) == Move.objects.filter(game_id=game_id).count()
