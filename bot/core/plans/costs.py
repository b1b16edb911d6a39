"""What a plan's titles cost: each at the size its file row named, else at the plan's."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from bot.core.turn import Turn

__all__ = ["titles_cost"]


async def titles_cost(
    turn: Turn,
    titles: Sequence[str],
    *,
    every_title: Sequence[str],
    choices: Sequence[Sequence[int | None]] | None,
    size: int | None,
) -> Decimal:
    """The cost of ``titles``, of the plan's ``every_title`` with their ``choices``."""
    known = await turn.services.catalog.sizes(turn.user_id)
    sizes = {each.id: each.cost or Decimal(0) for each in known}
    own = dict(zip(every_title, choices or [], strict=False))
    return sum(
        (
            sizes.get((own.get(title) or [None, None])[1] or size or 0, Decimal(0))
            for title in titles
        ),
        Decimal(0),
    )
