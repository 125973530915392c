"""The facts other apps consult (accounts.relations), below the API: blocks either way,
friendships, the preference, and the refusals of an invitation and of a seat."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from accounts.models import Block, Friendship, SocialPreference
from accounts.relations import (
    are_friends,
    blocked_among,
    blocked_between,
    blocked_with,
    friends_only,
    invitation_check,
    seating_check,
)
from ttr_service.http.problems import ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(db):
    model = get_user_model()
    return [model.objects.create_user(name) for name in ("ann", "ben", "cat", "dan")]


def refusal(call, *args):
    with pytest.raises(ServiceError) as caught:
        call(*args)
    return str(caught.value.problem_code), str(caught.value.detail)


def test_a_block_stands_between_two_players_either_way(people):
    ann, ben, cat, _ = people
    Block.objects.create(blocker=ann, blocked=ben)

    assert blocked_between(ann.pk, ben.pk) and blocked_between(ben.pk, ann.pk)
    assert not blocked_between(ann.pk, cat.pk)
    assert set(blocked_with(ben.pk)) == {ann} and set(blocked_with(ann.pk)) == {ben}
    assert set(blocked_with(cat.pk)) == set()


def test_the_blocked_pairs_among_a_group_are_read_in_one_query(people, django_assert_num_queries):
    ann, ben, cat, dan = people
    Block.objects.create(blocker=ann, blocked=ben)
    Block.objects.create(blocker=ben, blocked=ann)
    Block.objects.create(blocker=dan, blocked=cat)
    Block.objects.create(blocker=dan, blocked=ann)

    with django_assert_num_queries(1):
        pairs = blocked_among([ann.pk, ben.pk, cat.pk])

    assert pairs == {frozenset((ann.pk, ben.pk))}
    assert blocked_among([ann.pk, ben.pk, cat.pk, dan.pk]) == {
        frozenset((ann.pk, ben.pk)),
        frozenset((cat.pk, dan.pk)),
        frozenset((ann.pk, dan.pk)),
    }
    assert blocked_among([ann.pk]) == set()


def test_friends_and_the_preference(people):
    ann, ben, cat, _ = people
    Friendship.objects.create(user_low=ann, user_high=ben)
    SocialPreference.objects.create(user=cat, invitations_from_friends_only=True)

    assert are_friends(ann.pk, ben.pk) and are_friends(ben.pk, ann.pk)
    assert not are_friends(ann.pk, cat.pk)
    assert friends_only(cat.pk) and not friends_only(ann.pk)


def test_an_invitation_is_refused_alike_for_a_block_and_for_the_preference(people):
    ann, ben, cat, dan = people
    Block.objects.create(blocker=ben, blocked=ann)  # ben blocks ann
    SocialPreference.objects.create(user=cat, invitations_from_friends_only=True)
    Friendship.objects.create(user_low=cat, user_high=dan)

    blocked = refusal(invitation_check, ann.pk, ben.pk, "X")
    not_a_friend = refusal(invitation_check, ann.pk, cat.pk, "X")

    assert blocked == not_a_friend == ("NOT_INVITABLE", "X can't be invited by you.")
    invitation_check(dan.pk, cat.pk, "cat")  # a friend may
    invitation_check(ann.pk, dan.pk, "dan")  # anyone may invite dan
    assert refusal(invitation_check, ben.pk, ann.pk, "ann")[0] == "PLAYER_BLOCKED"


def test_a_seat_is_refused_beside_a_player_on_the_other_side_of_a_block(people):
    ann, ben, cat, dan = people
    Block.objects.create(blocker=ben, blocked=ann)

    assert refusal(seating_check, ann.pk, [ben.pk, cat.pk]) == (
        "SEAT_REFUSED",
        "You can't take a seat in this game.",
    )
    assert refusal(seating_check, ben.pk, [ann.pk, cat.pk])[0] == "PLAYER_BLOCKED"
    seating_check(ann.pk, [cat.pk, dan.pk, ann.pk])
    seating_check(ann.pk, [])
