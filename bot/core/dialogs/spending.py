"""/harcamalar, and the warning when the balance will not pay for the next usual article."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable
from datetime import datetime
from decimal import Decimal

from bot.api import DEFAULT_SIZES
from bot.core.events import Command
from bot.core.richtext import Block, BulletList, Span, bold, paragraph
from bot.core.screens import Screen
from bot.core.texts import Texts
from bot.core.turn import Turn
from storage import spending

__all__ = ["charges_of", "show_spending", "spending_screen", "spent_in_month", "warning_after"]

Charge = tuple[Decimal, int, datetime]
_SIZES = {size.id: size for size in DEFAULT_SIZES}


async def show_spending(turn: Turn, command: Command) -> None:
    """Show the spending from the bot's own records; only the balance is asked upstream."""
    balance = await turn.upstream(turn.services.api.balance)
    turn.send(
        spending_screen(turn.texts, await charges_of(turn), balance, now=turn.services.clock())
    )


def spending_screen(
    texts: Texts, charges: list[Charge], balance: Decimal, *, now: datetime
) -> Screen:
    """The spending view: the two months, the articles per size, the average, the balance."""
    this_month = now.year, now.month
    last_month = (now.year, now.month - 1) if now.month > 1 else (now.year - 1, 12)

    def spent_in(month: tuple[int, int]) -> Decimal:
        return spent_in_month(charges, month)

    lines: list[Block] = [
        paragraph(bold(texts.spending_header)),
        paragraph(texts.spending_this_month.format(amount=texts.money(spent_in(this_month)))),
        paragraph(texts.spending_last_month.format(amount=texts.money(spent_in(last_month)))),
    ]
    if charges:
        per_size = Counter(size for _, size, _ in charges)
        lines.append(
            BulletList(
                tuple(
                    (
                        Span(
                            texts.spending_size_line.format(
                                size=texts.size_name(_SIZES[size]) if size in _SIZES else size,
                                count=n,
                            )
                        ),
                    )
                    for size, n in sorted(per_size.items())
                )
            )
        )
        average = sum((cost for cost, _, _ in charges), Decimal(0)) / len(charges)
        lines.append(paragraph(texts.spending_average.format(amount=texts.money(average))))
    else:
        lines.append(paragraph(texts.spending_none))
    lines.append(paragraph(texts.balance.format(balance=texts.money(balance))))
    return Screen(tuple(lines))


def spent_in_month(charges: list[Charge], month: tuple[int, int]) -> Decimal:
    """What the charges of one (year, month) add up to."""
    return sum((cost for cost, _, at in charges if (at.year, at.month) == month), Decimal(0))


async def warning_after(turn: Turn, work: Awaitable[None], *, orders_only: bool = False) -> None:
    """Do ``work``, then warn in one line if the balance cannot pay the size ordered most.

    With ``orders_only`` the warning follows only work that recorded a new charge.
    """
    before = len(await charges_of(turn)) if orders_only else -1
    await work
    charges = await charges_of(turn)
    if len(charges) in (0, before):
        return
    usual = Counter(size for _, size, _ in charges).most_common(1)[0][0]
    size = await turn.services.catalog.size(turn.user_id, usual)
    balance = await turn.upstream(turn.services.api.balance)
    if size is not None and size.cost is not None and balance < size.cost:
        texts = turn.texts
        turn.say(
            texts.low_balance.format(
                balance=texts.money(balance),
                size=texts.size_name(size),
                cost=texts.money(size.cost),
            )
        )


async def charges_of(turn: Turn) -> list[Charge]:
    """The user's charges (cost, size, when) from the bot's own records."""
    return await turn.store(lambda s: spending.charges_of_user(s, user_id=turn.user_id))
