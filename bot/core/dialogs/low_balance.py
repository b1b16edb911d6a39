"""The one-line warning when the balance will not pay for the next article of the usual size.

The dialogs that lead to a charge give it after their answer: a confirmed order, ``/yaz``, an
order placed again. A balance the caller already knows that plainly pays for two of the
largest articles ends it there, with no query and no call; only near the threshold are the
user's charges read and the service asked for the balance.
"""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

from bot.core.turn import Turn
from storage import spending

__all__ = ["warn"]


async def warn(turn: Turn, *, balance: Decimal | None = None, exact: bool = False) -> None:
    """Say in one line if the balance cannot pay the size the user ordered most.

    ``balance`` is what the caller knows the balance to be at most, if anything; ``exact``
    when it was just asked in this turn, so it need not be asked again.
    """
    if balance is not None and _plainly_enough(turn, balance):
        return
    charges = await turn.store(lambda s: spending.charges_of_user(s, user_id=turn.user_id))
    if not charges:
        return
    usual = Counter(size for _, size, _ in charges).most_common(1)[0][0]
    size = await turn.services.catalog.size(turn.user_id, usual)
    if size is None or size.cost is None:
        return
    if balance is None or not exact:
        balance = await turn.upstream(turn.services.api.balance)
    if balance < size.cost:
        texts = turn.texts
        turn.say(
            texts.low_balance.format(
                balance=texts.money(balance),
                size=texts.size_name(size),
                cost=texts.money(size.cost),
            )
        )


def _plainly_enough(turn: Turn, balance: Decimal) -> bool:
    """Whether ``balance`` pays for two of the largest articles (sizes known, no call)."""
    costs = [size.cost for size in turn.services.catalog.known_sizes() if size.cost is not None]
    return bool(costs) and balance >= 2 * max(costs)
