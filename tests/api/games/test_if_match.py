"""If-Match takes what the schema says: the game's ETag (weak or not) or the bare version.
Anything else is 400 BAD_IF_MATCH and changes nothing; a stale version is 412."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command

from games.http.play import IF_MATCH_MAX_LENGTH, IF_MATCH_PATTERN
from games.models import Game
from games.queries.games import current_epoch, epoch_forget

from .conftest import keep_all_initial

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(two_player_game, creator, opponent):
    keep_all_initial(two_player_game["id"], creator, opponent)
    return two_player_game["id"]


def _post(client, game_id, header):
    return client.post(
        f"/api/v1/games/{game_id}/actions",
        {"action": {"type": "draw_blind"}},
        format="json",
        HTTP_IF_MATCH=header,
    )


@pytest.mark.parametrize(
    "form",
    [
        '"g{id}-v{v}-s0-e{e}"',
        'W/"g{id}-v{v}-s0-e{e}"',
        '"g{id}-v{v}-s0"',
        'W/"g{id}-v{v}-s0"',
        "{v}",
        '"{v}"',
        ' W/"{v}" ',
    ],
)
def test_each_stated_form_is_accepted(started, creator, form):
    version = Game.objects.get(pk=started).version
    header = form.format(id=started, v=version, e=current_epoch())
    assert re.fullmatch(IF_MATCH_PATTERN, header.strip())
    response = _post(creator, started, header)
    assert response.status_code == 200, response.content


@pytest.mark.parametrize(
    "header",
    [
        *("", "abc", "*", "-1", "1.5", '"g1-v"', "g1-v2-s0-v3", "7\n8", "١٢", "9" * 19),
        *('"g1-v2-s0-e3f9a01c"', '"g1-v2-s0-e3F9A01C2"', '"g1-v2-e3f9a01c2-s0"'),
    ],
)
def test_anything_else_is_refused_and_changes_nothing(started, creator, header):
    before = Game.objects.get(pk=started).version
    response = _post(creator, started, header)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "BAD_IF_MATCH"
    assert Game.objects.get(pk=started).version == before
    assert not re.fullmatch(IF_MATCH_PATTERN, header.strip())


def test_a_stale_tag_is_412(started, creator):
    version = Game.objects.get(pk=started).version
    response = _post(creator, started, f'"g{started}-v{version - 1}-s0"')
    assert response.status_code == 412
    assert response.json()["current_version"] == version


def test_a_tag_longer_than_the_stated_maximum_is_refused_though_it_fits_the_pattern(
    started, creator
):
    version = Game.objects.get(pk=started).version
    header = f'"{version}-s{"0" * IF_MATCH_MAX_LENGTH}"'
    assert re.fullmatch(IF_MATCH_PATTERN, header)
    response = _post(creator, started, header)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "BAD_IF_MATCH"
    assert Game.objects.get(pk=started).version == version


def test_a_tag_of_another_restore_epoch_is_412_even_at_the_current_version(started, creator):
    """A tag handed out before a restore names a version of a history the game may not
    have: refused whatever its number, and nothing is applied."""
    version = Game.objects.get(pk=started).version
    other = "0" * 8 if current_epoch() != "0" * 8 else "1" * 8
    response = _post(creator, started, f'"g{started}-v{version}-s0-e{other}"')
    assert response.status_code == 412, response.content
    assert response.json()["code"] == "VERSION_MISMATCH"
    assert response.json()["current_version"] == version
    assert Game.objects.get(pk=started).version == version


def test_after_restored_the_tags_handed_out_before_match_nothing(started, creator):
    url = f"/api/v1/games/{started}"
    before = creator.get(url)["ETag"]
    assert creator.get(url, HTTP_IF_NONE_MATCH=before).status_code == 304
    try:
        call_command("restored", stdout=StringIO())
        again = creator.get(url, HTTP_IF_NONE_MATCH=before)
        assert again.status_code == 200 and again["ETag"] != before
        assert again["ETag"].endswith(f'-e{current_epoch()}"')
        assert _post(creator, started, before).status_code == 412
        assert _post(creator, started, again["ETag"]).status_code == 200
    finally:
        epoch_forget()  # the next test's transaction has the epoch of before
