"""Who may invite me: read and changed by its owner only, with a strict body."""

from __future__ import annotations

import pytest

from accounts.models import SocialPreference
from accounts.relations import friends_only

pytestmark = pytest.mark.django_db

PATH = "/api/v1/social-settings"


def test_anyone_may_invite_a_player_who_changed_nothing(players):
    (alice,) = players("alice")

    shown = alice.client.get(PATH)

    assert shown.status_code == 200
    assert shown.json() == {"invitations_from_friends_only": False}
    assert not SocialPreference.objects.exists()


def test_a_player_takes_invitations_from_friends_only_and_back(players):
    alice, bob = players("alice", "bob")

    changed = alice.client.patch(PATH, {"invitations_from_friends_only": True}, format="json")

    assert changed.status_code == 200
    assert changed.json() == {"invitations_from_friends_only": True}
    assert friends_only(alice.user.pk) and not friends_only(bob.user.pk)
    assert alice.client.patch(PATH, {}, format="json").json() == changed.json()
    assert bob.client.get(PATH).json() == {"invitations_from_friends_only": False}
    back = alice.client.patch(PATH, {"invitations_from_friends_only": False}, format="json")
    assert back.json() == {"invitations_from_friends_only": False}
    assert not friends_only(alice.user.pk)


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"invitations_from_friends_only": 1}, "invitations_from_friends_only", "WRONG_TYPE"),
        ({"invitations_from_friends_only": None}, "invitations_from_friends_only", "WRONG_TYPE"),
        ({"friends_only": True}, "friends_only", "UNKNOWN_FIELD"),
    ],
)
def test_the_body_is_strict(players, body, field, code):
    (alice,) = players("alice")

    refused = alice.client.patch(PATH, body, format="json")

    assert refused.status_code == 400
    assert [(r["field"], r["code"]) for r in refused.json()["errors"]] == [(field, code)]
    assert not SocialPreference.objects.exists()
