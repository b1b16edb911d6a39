"""The tones and sizes on offer: the upstream's lists, else the interface's table."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from bot.api import DEFAULT_SIZES, DEFAULT_TONES, ArticleApiError, Size, Tone
from bot.core.accounts import Accounts
from bot.core.clock import Clock
from bot.core.upstream import Upstream

__all__ = ["Catalog"]

log = logging.getLogger(__name__)


class Catalog:
    """Tones and sizes, fetched once an hour; the fixed table fills whatever the service omits."""

    def __init__(
        self,
        *,
        api: Upstream,
        accounts: Accounts,
        clock: Clock,
        ttl: timedelta = timedelta(hours=1),
    ) -> None:
        self._api = api
        self._accounts = accounts
        self._clock = clock
        self._ttl = ttl
        self._tones: tuple[datetime, list[Tone]] | None = None
        self._sizes: tuple[datetime, list[Size]] | None = None

    async def tones(self, user_id: int) -> list[Tone]:
        """The writing tones, ids 1-5."""
        if self._tones is None or self._tones[0] < self._clock():
            try:
                fetched = await self._accounts.call(user_id, self._api.tones)
            except ArticleApiError as err:
                log.warning("tones unavailable, using the fixed table: %s", err)
                return list(DEFAULT_TONES)
            self._tones = (self._clock() + self._ttl, _complete_tones(fetched))
        return self._tones[1]

    async def sizes(self, user_id: int) -> list[Size]:
        """The article sizes, ids 1-4, each with a word count and a cost."""
        if self._sizes is None or self._sizes[0] < self._clock():
            try:
                fetched = await self._accounts.call(user_id, self._api.sizes)
            except ArticleApiError as err:
                log.warning("sizes unavailable, using the fixed table: %s", err)
                return list(DEFAULT_SIZES)
            self._sizes = (self._clock() + self._ttl, _complete_sizes(fetched))
        return self._sizes[1]

    def known_sizes(self) -> list[Size]:
        """The sizes last listed by the service, else the interface's table; never a call."""
        return self._sizes[1] if self._sizes is not None else list(DEFAULT_SIZES)

    async def tone(self, user_id: int, tone_id: int) -> Tone | None:
        """One tone by id, or None when there is no such tone."""
        return next((tone for tone in await self.tones(user_id) if tone.id == tone_id), None)

    async def size(self, user_id: int, size_id: int) -> Size | None:
        """One size by id, or None when there is no such size."""
        return next((size for size in await self.sizes(user_id) if size.id == size_id), None)


def _complete_tones(fetched: list[Tone]) -> list[Tone]:
    by_id = {tone.id: tone for tone in fetched if tone.name}
    return [by_id.get(default.id, default) for default in DEFAULT_TONES]


def _complete_sizes(fetched: list[Size]) -> list[Size]:
    by_id = {size.id: size for size in fetched if size.name}
    completed = []
    for default in DEFAULT_SIZES:
        size = by_id.get(default.id, default)
        completed.append(
            Size(
                id=size.id,
                name=size.name,
                words=size.words or default.words,
                # The charge is fixed per size; an answer without a price takes the table's.
                cost=size.cost if size.cost is not None else default.cost,
                reading_time=size.reading_time or default.reading_time,
            )
        )
    return completed
