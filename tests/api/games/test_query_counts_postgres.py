"""A move's statements on PostgreSQL, where its version bump and its log entry are one."""

from __future__ import annotations

import pytest

from .test_query_counts import MOVE_QUERIES, TURN_END_QUERIES, assert_move_queries, game  # noqa: F401

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_a_move_takes_one_statement_fewer_on_postgres(game, django_assert_max_num_queries):  # noqa: F811
    assert_move_queries(game, django_assert_max_num_queries, MOVE_QUERIES - 1, TURN_END_QUERIES - 1)
