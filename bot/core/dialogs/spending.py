"""/harcamalar: this month's and last month's spending, articles per size, the balance."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from decimal import Decimal

from bot.api import DEFAULT_SIZES
from bot.core.events import Command
from bot.core.money import format_tl
from bot.core.richtext import Block, BulletList, Span, bold, paragraph
from bot.core.screens import Screen
from bot.core.texts import Texts
from bot.core.turn import Turn
from storage import spending

__all__ = ["show_spending", "spending_screen"]

Charge = tuple[Decimal, int, datetime]
_SIZE_NAMES = {size.id: size.name for size in DEFAULT_SIZES}


async def show_spending(turn: Turn, command: Command) -> None:
    """Show the spending from the bot's own records; only the balance is asked upstream."""
    balance = await turn.upstream(turn.services.api.balance)
    charges = await turn.store(lambda s: spending.charges_of_user(s, user_id=turn.user_id))
    turn.send(spending_screen(turn.texts, charges, balance, now=turn.services.clock()))


def spending_screen(
    texts: Texts, charges: list[Charge], balance: Decimal, *, now: datetime
) -> Screen:
    """The spending view: the two months, the articles per size, the average, the balance."""
    this_month = now.year, now.month
    last_month = (now.year, now.month - 1) if now.month > 1 else (now.year - 1, 12)

    def spent_in(month: tuple[int, int]) -> Decimal:
        return sum((cost for cost, _, at in charges if (at.year, at.month) == month), Decimal(0))

    lines: list[Block] = [
        paragraph(bold(texts.spending_header)),
        paragraph(texts.spending_this_month.format(amount=format_tl(spent_in(this_month)))),
        paragraph(texts.spending_last_month.format(amount=format_tl(spent_in(last_month)))),
    ]
    if charges:
        per_size = Counter(size for _, size, _ in charges)
        lines.append(
            BulletList(
                tuple(
                    (
                        Span(
                            texts.spending_size_line.format(
                                size=_SIZE_NAMES.get(size, size), count=n
                            )
                        ),
                    )
                    for size, n in sorted(per_size.items())
                )
            )
        )
        average = sum((cost for cost, _, _ in charges), Decimal(0)) / len(charges)
        lines.append(paragraph(texts.spending_average.format(amount=format_tl(average))))
    else:
        lines.append(paragraph(texts.spending_none))
    lines.append(paragraph(texts.balance.format(balance=format_tl(balance))))
    return Screen(tuple(lines))
