"""The chat's pages: newest first, by cursor, as the inbox's."""

from __future__ import annotations

from notifications.pagination import NewestFirst


class ChatPages(NewestFirst):
    page_size = 50
    example_path = "games/12/chat"
