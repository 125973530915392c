"""The tests of ``test_rows.py``, on PostgreSQL (prepared statements, server-side binding)."""

from __future__ import annotations

import pytest

from tests.service.test_rows import (  # noqa: F401
    game,
    test_columns_load_what_the_orm_loads,
    test_insert_ignoring_conflicts_drops_a_duplicate,
    test_insert_sets_the_key_and_automatic_fields,
    test_only_defers_the_other_fields,
    test_select_matches_filter_and_order,
    test_set_flag_sets_some_rows_and_clears_others_in_one_statement,
    test_the_game_read_by_hand_is_what_the_orm_prefetches,
    test_update_changes_the_matching_rows_only,
    test_update_then_insert_writes_the_row_only_when_the_update_matched,
)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
