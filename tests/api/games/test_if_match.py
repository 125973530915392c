"""If-Match takes what the schema says: the game's ETag (weak or not) or the bare version.
Anything else is 400 BAD_IF_MATCH and changes nothing; a stale version is 412."""

from __future__ import annotations

import re

import pytest

from games.http.play import IF_MATCH_MAX_LENGTH, IF_MATCH_PATTERN
from games.models import Game

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
    "form", ['"g{id}-v{v}-s0"', 'W/"g{id}-v{v}-s0"', "{v}", '"{v}"', ' W/"{v}" ']
)
def test_each_stated_form_is_accepted(started, creator, form):
    version = Game.objects.get(pk=started).version
    header = form.format(id=started, v=version)
    assert re.fullmatch(IF_MATCH_PATTERN, header.strip())
    response = _post(creator, started, header)
    assert response.status_code == 200, response.content


@pytest.mark.parametrize(
    "header", ["", "abc", "*", "-1", "1.5", '"g1-v"', "g1-v2-s0-v3", "7\n8", "١٢", "9" * 19]
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
