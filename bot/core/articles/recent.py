"""Each user's article list as the service gave it, kept for a few seconds.

Inline mode asks at each keystroke and a search at each word; within these seconds the
list fetched for one answers the next, and the service is asked once.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from bot.api import Article
from bot.core.clock import Clock

__all__ = ["RECENT_FOR", "RecentArticles"]

# How long one user's list answers the next inline queries and searches.
RECENT_FOR = timedelta(seconds=5)
_RECENT_USERS = 512


class RecentArticles:
    """Each user's article list for a few seconds, so typing a word, then a letter more, or
    scrolling to the next page, costs no further call to the service."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._lists: OrderedDict[int, tuple[datetime, list[Article]]] = OrderedDict()

    async def of(
        self, user_id: int, fetch: Callable[[], Awaitable[list[Article]]]
    ) -> list[Article]:
        """The user's list: kept if recent, else fetched (once) and kept."""
        now = self._clock()
        kept = self._lists.get(user_id)
        if kept is not None and now - kept[0] < RECENT_FOR:
            return kept[1]
        articles = await fetch()
        self._lists[user_id] = (now, articles)
        self._lists.move_to_end(user_id)
        while len(self._lists) > _RECENT_USERS:
            self._lists.popitem(last=False)
        return articles
